#!/usr/bin/env bash
# The Prometheus metrics of every serving command, read by the reference parser: starts
# feed-server, tool-server and `dcx serve` on loopback with --metrics-listen, sends each
# some traffic (routes, an unknown path, tool calls that answer, refuse their arguments
# or name no tool, a reload), then scripts/metrics_check.py scrapes /metrics and parses
# it with PyPI prometheus_client's OpenMetrics parser (strict: one block per family,
# histogram buckets, `# EOF`), and checks the families, labels and counts it expects.
# The Python package lives in .cache/venv-metrics (scripts/lib-venv.sh). Under a minute
# once built (a debug build, as `cargo test` leaves it).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
# shellcheck source=scripts/lib-venv.sh
source scripts/lib-venv.sh
use_venv "$PWD/.cache/venv-metrics" prometheus-client==0.26.0

echo "== cargo build -p feed-server -p tool-server -p dcx"
cargo build --locked -p feed-server -p tool-server -p dcx
BIN="$(target_dir)/debug"

WORK=$(mktemp -d)
trap 'stop_started; rm -rf "$WORK"' EXIT

# metrics_addr LOG PID: waits (10 s at most) for the server's `metrics at http://ADDR/`
# line and prints ADDR.
metrics_addr() {
  local found
  for _ in $(seq 1 100); do
    found=$(grep -o 'metrics at http://[0-9.:]*' "$1" | head -1) || true
    [ -n "$found" ] && { echo "${found#metrics at http://}"; return 0; }
    kill -0 "$2" 2> /dev/null || break
    sleep 0.1
  done
  cat "$1" >&2; echo "no metrics address in $1" >&2; return 1
}

mkdir -p "$WORK/history"
cp -rL fixtures/snapshot "$WORK/history/2026-11-20"

start_server "$WORK/feed-server.log" "$BIN/feed-server" --listen 127.0.0.1:0 \
  --metrics-listen 127.0.0.1:0
FEED_METRICS=$(metrics_addr "$WORK/feed-server.log" "$STARTED_PID")
FEED=$(announced_addr "$WORK/feed-server.log" "$STARTED_PID")
start_server "$WORK/tool-server.log" "$BIN/tool-server" --listen 127.0.0.1:0 \
  --metrics-listen 127.0.0.1:0
TOOL_METRICS=$(metrics_addr "$WORK/tool-server.log" "$STARTED_PID")
TOOL=$(announced_addr "$WORK/tool-server.log" "$STARTED_PID")
start_server "$WORK/dcx-serve.log" "$BIN/dcx" serve --feed-listen 127.0.0.1:0 \
  --tool-listen 127.0.0.1:0 --metrics-listen 127.0.0.1:0 --history "$WORK/history" --poll-secs 0
DCX_PID=$STARTED_PID
SERVE_METRICS=$(metrics_addr "$WORK/dcx-serve.log" "$DCX_PID")
SERVE_FEEDS=$(announced_addr "$WORK/dcx-serve.log" "$DCX_PID" feeds)
SERVE_TOOLS=$(announced_addr "$WORK/dcx-serve.log" "$DCX_PID" tools)

"$VENV_PY" scripts/metrics_check.py feed-server "$FEED_METRICS" "$FEED"
"$VENV_PY" scripts/metrics_check.py tool-server "$TOOL_METRICS" "$TOOL"
# A new day for dcx serve, picked up on SIGHUP: the reload is counted.
cp -rL fixtures/snapshot "$WORK/new-day"
sed -i 's/2026-11-20T00:00:00Z/2026-11-21T00:00:00Z/' "$WORK/new-day"/*.json
mv "$WORK/new-day" "$WORK/history/2026-11-21"
kill -HUP "$DCX_PID"
for _ in $(seq 1 100); do
  grep -q 'reload accepted' "$WORK/dcx-serve.log" && break
  sleep 0.1
done
grep -q 'reload accepted' "$WORK/dcx-serve.log" || { cat "$WORK/dcx-serve.log"; echo "no reload"; exit 1; }
"$VENV_PY" scripts/metrics_check.py dcx-serve "$SERVE_METRICS" "$SERVE_FEEDS" "$SERVE_TOOLS"
echo "metrics-check: all three expositions parse and count what was sent"
