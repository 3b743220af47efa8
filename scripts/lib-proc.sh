# Sourced by the CI and bench scripts: Debian packages they need, cargo's target folder, free
# loopback ports, a demonstration history (scaled_history), and the servers they start
# (each announces its address on stderr, each is stopped with SIGTERM and waited for by
# stop_started), and CALLGRIND and callgrind_zero for the benches' instruction counts.
# Usage: source scripts/lib-proc.sh; need wrk wrk; start_server "$LOG" "$BIN" --listen 127.0.0.1:0
#        ADDR=$(announced_addr "$LOG" "$STARTED_PID"); ...; stop_started (e.g. in an EXIT trap)

# need COMMAND PACKAGE...: when COMMAND is missing, installs the first of the Debian
# PACKAGEs that installs (root only; apt-get bounded in time; without the recommended
# packages unless NEED_WITH_RECOMMENDS=1). Returns 1 and says what to run when it cannot.
need() {
  local cmd=$1 pkg recommends=--no-install-recommends
  shift
  [ -n "${NEED_WITH_RECOMMENDS:-}" ] && recommends=
  command -v "$cmd" > /dev/null && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "$cmd is missing and this is not root: sudo apt-get install -y $1" >&2
    return 1
  fi
  if [ -z "${LIB_PROC_APT_UPDATED:-}" ]; then
    timeout 300 apt-get update -qq > /dev/null || true
    LIB_PROC_APT_UPDATED=1
  fi
  for pkg in "$@"; do
    echo "== apt-get install $pkg (for $cmd)" >&2
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq $recommends \
      "$pkg" > /dev/null 2>&1 && command -v "$cmd" > /dev/null && return 0
  done
  echo "$cmd is missing and apt-get could not install any of: $*" >&2
  return 1
}

# target_dir: cargo's target folder (CARGO_TARGET_DIR or the workspace's own).
target_dir() {
  cargo metadata --format-version 1 --no-deps \
    | python3 -c 'import json,sys;print(json.load(sys.stdin)["target_directory"])'
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on right now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

STARTED_PIDS=()

# start_server LOG COMMAND...: runs COMMAND in the background with its stderr in LOG; sets
# STARTED_PID (and remembers it for stop_started).
start_server() {
  local log=$1
  shift
  "$@" 2> "$log" &
  STARTED_PID=$!
  STARTED_PIDS+=("$STARTED_PID")
}

# announced_addr LOG PID [SERVER] [SECONDS]: waits (default 10 s) until the server PID
# writes "listening on http://HOST:PORT" to LOG (with server="SERVER" when given, for
# `dcx serve`'s two) and prints HOST:PORT. Prints the log and returns 1 if the server exits
# or stays silent.
announced_addr() {
  local log=$1 pid=$2 server=${3:-} tenths=$((${4:-10} * 10)) line
  for _ in $(seq 1 "$tenths"); do
    # Whole lines only: a line still being written could end inside the address.
    line=$(python3 -c 'import re, sys
text = open(sys.argv[1], errors="replace").read()
found = re.search(sys.argv[2], text[: text.rfind("\n") + 1])
print(found.group(1) if found else "")' "$log" "listening on http://([0-9.]+:[0-9]+)${server:+ server=\"$server\"}" 2> /dev/null) || true
    if [ -n "$line" ]; then
      echo "$line"
      return 0
    fi
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  cat "$log" >&2
  echo "the server (pid $pid) exited or did not announce its address${server:+ for $server}" >&2
  return 1
}

# CALLGRIND: the command a bench counts a server's instructions under, as
# "${CALLGRIND[@]}" --callgrind-out-file=OUT SERVER...: callgrind, with one tokio worker
# (TOKIO_WORKER_THREADS=1), so that the count is the request's own path, with no wake-up
# of an idle second worker or steal from it (0.1 k a tool call: docs/performance.md).
# shellcheck disable=SC2034 # used by the scripts that source this one
CALLGRIND=(env TOKIO_WORKER_THREADS=1 valgrind --tool=callgrind)

# callgrind_zero PID: zeroes the counters of the callgrind run PID, asking again for up to
# 10 s (its control channel may not be up yet). When it cannot, kills PID, so that nothing
# waits on the output it holds open, says so and returns 1.
callgrind_zero() {
  local tries
  for tries in $(seq 1 20); do
    callgrind_control -z "$1" > /dev/null 2>&1 && return 0
    sleep 0.5
  done
  kill -9 "$1" 2> /dev/null || true
  echo "callgrind_control -z $1 failed $tries times" >&2
  return 1
}

# stop_started: SIGTERM to every server start_server started, then waits for each.
stop_started() {
  local pid
  for pid in "${STARTED_PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${STARTED_PIDS[@]}"; do wait "$pid" 2> /dev/null || true; done
  STARTED_PIDS=()
}

# scaled_history DCX WORK LEVEL...: a history in WORK/history of one day per LEVEL
# (2026-11-10, -11, ...), each built by `dcx build` from the committed diamonds sample
# with every price times that LEVEL, then listed with `dcx history`.
scaled_history() {
  local dcx=$1 work=$2 day=0 level
  shift 2
  for level in "$@"; do
    python3 - "$(dirname "${BASH_SOURCE[0]}")/../fixtures/listings/diamonds-sample.csv" \
      "$work/listings-$day.csv" "$level" <<'PY'
import csv, sys
source, target, level = sys.argv[1], sys.argv[2], float(sys.argv[3])
rows = list(csv.reader(open(source, newline="")))
price = rows[0].index("price")
with open(target, "w", newline="") as out:
    writer = csv.writer(out)
    writer.writerow(rows[0])
    for row in rows[1:]:
        row[price] = str(round(float(row[price]) * level))
        writer.writerow(row)
PY
    "$dcx" build --listings "$work/listings-$day.csv" --format diamonds \
      --history "$work/history" --date "2026-11-1$day" > /dev/null
    day=$((day + 1))
  done
  "$dcx" history "$work/history"
}
