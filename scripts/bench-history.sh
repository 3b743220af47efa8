#!/usr/bin/env bash
# bench-history.sh: what a history costs as it grows. Makes histories of 1, 365 and 3,650
# days (variants of the reference snapshot, benches/examples/history_days.rs, written once into
# .cache/bench-history/ and reused: about 60 KB a day, 214 MB at 3,650), then for each:
#
#   - the release feed-server started on it: CPU time until it announces its address, and
#     its resident memory (VmRSS) then; the memory per day is the difference between
#     3,650 and 365 days over the 3,285 days between;
#   - /track and /quote (a priced stone, the default window): server CPU per request over
#     REQUESTS keep-alive requests, and the answer's size; the same asking for gzip
#     (*_gz_us); /track of the whole history (days=all: track_all_ms, over 5 requests);
#   - in process: the load, and one poll of the unchanged history (CPU per poll over
#     POLLS polls), and what `dcx build` loads of it (History::load_before);
#   - `dcx build --history` of the next day on the 450 listings of the diamonds sample:
#     CPU time and peak memory (GNU time), the new day removed afterwards.
#
# CPU times come from /proc (user + system), the figure to read on a shared machine.
# Targets (docs/performance.md, "History"): <= 8 KB of memory per day, <= 0.3 s CPU to
# start, <= 5 ms CPU per poll, a build <= 0.2 s CPU and <= 50 MB more than at 1 day,
# /track and /quote <= 0.5 ms CPU per request at 3,650 days.
#
# Usage: scripts/bench-history.sh     Env: SIZES ("1 365 3650"), REQUESTS (2000), POLLS (200)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${SIZES:-1 365 3650}
REQUESTS=${REQUESTS:-2000}
POLLS=${POLLS:-200}
LAST=2026-11-20
NEXT=2026-11-21

say() { echo "bench-history: $*" >&2; }

# shellcheck source=scripts/lib-proc.sh
source "$ROOT/scripts/lib-proc.sh"
# shellcheck source=scripts/lib-cpu.sh
source "$ROOT/scripts/lib-cpu.sh"
echo "== host: $(host_line)"
need /usr/bin/time time || exit 1

TMP=$(mktemp -d)
trap 'stop_started; rm -rf "$TMP"' EXIT

say "building feed-server, dcx and the history helper --release"
(cd "$ROOT" && cargo build --release -q -p feed-server -p dcx \
    && cargo build --release -q -p benches --example history_days)
BIN=$(cd "$ROOT" && target_dir)/release
HELPER=$BIN/examples/history_days
DATA=$ROOT/.cache/bench-history
LISTINGS=$ROOT/fixtures/listings/diamonds-sample.csv
HZ=$(getconf CLK_TCK)

rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
ms() { awk -v t="$1" -v hz="$HZ" 'BEGIN { printf "%.0f", t / hz * 1000 }'; }

# requests ADDR PATH N [gzip]: N keep-alive GETs of PATH (asking for gzip when told);
# prints the last answer's size in bytes.
requests() {
    python3 - "$1" "$2" "$3" "${4:-}" <<'EOF'
import http.client, sys
host, port = sys.argv[1].rsplit(":", 1)
conn = http.client.HTTPConnection(host, int(port))
headers = {"Accept-Encoding": "gzip"} if sys.argv[4] == "gzip" else {}
size = 0
for _ in range(int(sys.argv[3])):
    conn.request("GET", sys.argv[2], headers=headers)
    reply = conn.getresponse()
    body = reply.read()
    assert reply.status == 200, (reply.status, body[:200])
    size = len(body)
print(size)
EOF
}

TRACK='/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4'
QUOTE='/quote?shape=round&carat=1.01&color=G&clarity=VS2'
declare -A RSS
FORMAT='%-5s %8s %7s %7s %7s %8s %8s %8s %8s %11s %8s %8s %11s %12s\n'
# shellcheck disable=SC2059
printf "$FORMAT" days start_ms rss_mb load_ms poll_ms build_ms build_mb track_us track_kb \
    track_gz_us quote_us quote_kb quote_gz_us track_all_ms
for days in $SIZES; do
    dir=$DATA/d$days
    if [ "$(find "$dir" -mindepth 1 -maxdepth 1 -type d 2> /dev/null | wc -l)" -ne "$days" ]; then
        say "writing $days days into $dir"
        rm -rf "$dir"
        "$HELPER" make "$dir" "$days" "$LAST"
    fi

    log=$TMP/feed-$days.log
    start_server "$log" "$BIN/feed-server" --history "$dir" --listen 127.0.0.1:0 --poll-secs 0
    pid=$STARTED_PID
    addr=$(announced_addr "$log" "$pid" "" 60)
    start_ticks=$(cpu_ticks "$pid")
    RSS[$days]=$(rss_kb "$pid")
    requests "$addr" "$TRACK" 20 > /dev/null
    before=$(cpu_ticks "$pid")
    track_bytes=$(requests "$addr" "$TRACK" "$REQUESTS")
    track_ticks=$(($(cpu_ticks "$pid") - before))
    requests "$addr" "$QUOTE" 20 > /dev/null
    before=$(cpu_ticks "$pid")
    quote_bytes=$(requests "$addr" "$QUOTE" "$REQUESTS")
    quote_ticks=$(($(cpu_ticks "$pid") - before))
    before=$(cpu_ticks "$pid")
    requests "$addr" "$TRACK" "$REQUESTS" gzip > /dev/null
    track_gz_ticks=$(($(cpu_ticks "$pid") - before))
    before=$(cpu_ticks "$pid")
    requests "$addr" "$QUOTE" "$REQUESTS" gzip > /dev/null
    quote_gz_ticks=$(($(cpu_ticks "$pid") - before))
    before=$(cpu_ticks "$pid")
    requests "$addr" "$TRACK&days=all" 5 > /dev/null
    all_ticks=$(($(cpu_ticks "$pid") - before))
    stop_started

    read -r _ _ _ _ _ load_ms _ poll_ms < <("$HELPER" poll "$dir" "$POLLS")

    /usr/bin/time -o "$TMP/time" -f "%U %S %M" "$BIN/dcx" build --listings "$LISTINGS" \
        --format diamonds --history "$dir" --date "$NEXT" --accept-move > /dev/null
    rm -rf "${dir:?}/$NEXT"
    read -r user sys peak < "$TMP/time"

    # shellcheck disable=SC2059
    printf "$FORMAT" "$days" \
        "$(ms "$start_ticks")" "$(awk -v k="${RSS[$days]}" 'BEGIN { printf "%.1f", k / 1024 }')" \
        "$load_ms" "$poll_ms" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", (u + s) * 1000 }')" \
        "$(awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1024 }')" \
        "$(cpu_per_request "$track_ticks" "$REQUESTS" 1)" "$((track_bytes / 1024))" \
        "$(cpu_per_request "$track_gz_ticks" "$REQUESTS" 1)" \
        "$(cpu_per_request "$quote_ticks" "$REQUESTS" 1)" "$((quote_bytes / 1024))" \
        "$(cpu_per_request "$quote_gz_ticks" "$REQUESTS" 1)" \
        "$(awk -v t="$all_ticks" -v hz="$HZ" 'BEGIN { printf "%.0f", t / hz * 1000 / 5 }')"
done
if [ -n "${RSS[365]:-}" ] && [ -n "${RSS[3650]:-}" ]; then
    awk -v a="${RSS[365]}" -v b="${RSS[3650]}" \
        'BEGIN { printf "memory per day of history (365 -> 3650 days): %.2f KB\n", (b - a) / 3285 }'
fi
echo "(start_ms: server CPU until it listens; *_us: server CPU per request; poll_ms: one" \
    "poll of the unchanged history, in process; build: dcx build of the next day)"
