#!/usr/bin/env bash
# The MCP Apps views (ui://dcx/chart.html, ui://dcx/calculator.html) in a real browser.
# Builds a three-day history with `dcx build`, serves it with a release tool-server on a
# free loopback port, then scripts/apps_check.py (Debian's chromium driven by PyPI
# playwright) fetches both views over MCP, loads each into a minimal host page (a
# sandboxed srcdoc iframe speaking the extension's postMessage JSON-RPC, forwarding
# tools/call and resources/read to the server) and checks: one chart point per day, the
# calculator's answers equal `dcx quote --json`, and the views request nothing. Saves
# screenshots of both in .cache/screenshots/ (git-ignored).
# The Python packages live in .cache/venv-web (shared with web-check.sh). A few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
NEED_WITH_RECOMMENDS=1 need chromium chromium
# shellcheck source=scripts/lib-venv.sh
source scripts/lib-venv.sh
use_venv "$PWD/.cache/venv-web" playwright==1.65.2
APPS_PY=$VENV_PY

echo "== cargo build --release -p tool-server -p dcx"
cargo build --release --locked -p tool-server -p dcx
TARGET=$(target_dir)
DCX="$TARGET/release/dcx"

WORK=$(mktemp -d)
trap 'stop_started; rm -rf "$WORK"' EXIT

echo "== a three-day history from scaled listings (dcx build)"
scaled_history "$DCX" "$WORK" 1.0 1.018 0.991

LOG="$WORK/tool-server.log"
start_server "$LOG" "$TARGET/release/tool-server" --history "$WORK/history" \
  --listen 127.0.0.1:0 --poll-secs 0
TOOL=$(announced_addr "$LOG" "$STARTED_PID")
echo "== tool-server at http://$TOOL/"

SHOTS="$ROOT/.cache/screenshots"
mkdir -p "$SHOTS"
timeout 300 "$APPS_PY" scripts/apps_check.py "http://$TOOL/" "$DCX" "$WORK/history" "$SHOTS"
echo "== screenshots in $SHOTS (apps-*.png)"
