#!/usr/bin/env bash
# Drives a release tool-server end to end with a real MCP client (Python `mcp` 2.3.0,
# 2026-07-28 mode) and compares its quotes with `dcx quote --json`. Installs the client
# into .cache/venv (reused on later runs). The server is always stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV="$ROOT/.cache/venv"
MCP_VERSION=2.3.0

if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating .cache/venv"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as m,sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
  echo "== pip install mcp==$MCP_VERSION"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"
fi

echo "== cargo build --release -p tool-server -p dcx"
cargo build --release --locked -p tool-server -p dcx
TARGET=$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json,sys;print(json.load(sys.stdin)["target_directory"])')

LOG=$(mktemp)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -f "$LOG"
}
trap cleanup EXIT

"$TARGET/release/tool-server" --listen 127.0.0.1:0 2> "$LOG" &
SERVER_PID=$!
ADDR=""
for _ in $(seq 1 100); do
  ADDR=$(grep -o 'listening on http://[0-9.:]*' "$LOG" | head -1 | sed 's|listening on http://||') || true
  [ -n "$ADDR" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$LOG"; echo "tool-server exited"; exit 1; }
  sleep 0.1
done
[ -n "$ADDR" ] || { cat "$LOG"; echo "tool-server did not report its address"; exit 1; }
echo "== tool-server at http://$ADDR/"

"$VENV/bin/python" scripts/mcp_client_check.py "http://$ADDR/" "$TARGET/release/dcx"
