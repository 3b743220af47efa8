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

# shellcheck source=scripts/lib-tool-server.sh
source scripts/lib-tool-server.sh
start_tool_server -p dcx

"$VENV/bin/python" scripts/mcp_client_check.py "http://$ADDR/" "$TARGET/release/dcx"
