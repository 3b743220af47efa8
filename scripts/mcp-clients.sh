#!/usr/bin/env bash
# The client matrix: the MCP clients people install today, each at its default settings,
# against a release tool-server over streamable HTTP and against `dcx mcp` over stdio:
#   npm @modelcontextprotocol/sdk 1.32.2   http, stdio      (2025-11-25 initialize)
#   PyPI mcp 1.30.0                        http, stdio      (2025-11-25 initialize)
#   npm mcp-remote 0.15.1                  stdio -> http    (the desktop hosts' bridge)
#   PyPI mcp 2.3.0                         http             (2026-07-28 mode)
# Each lists the tools,
# calls all three and compares get_diamond_price with `dcx quote --json`, then reads the
# resources and the history template, gets a prompt and completes an argument. Installs the
# pinned clients into .cache/ (reused on later runs); every client run is bounded by
# CLIENT_TIMEOUT seconds (default 120). Prints the matrix; exits 1 if any client failed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE="$ROOT/.cache"
SDK_VERSION=1.32.2
MCP_REMOTE_VERSION=0.15.1
PY_MCP_VERSION=1.30.0
PY_MCP2_VERSION=2.3.0
CLIENT_TIMEOUT=${CLIENT_TIMEOUT:-120}

# shellcheck source=scripts/lib-node.sh
source "$ROOT/scripts/lib-node.sh"
use_node22 "$CACHE"
NPM_DIR="$CACHE/mcp-clients-npm"
NPM_PINS="@modelcontextprotocol/sdk@$SDK_VERSION mcp-remote@$MCP_REMOTE_VERSION"
if [ "$(cat "$NPM_DIR/.versions" 2>/dev/null)" != "$NPM_PINS" ]; then
  echo "== installing $NPM_PINS into .cache/mcp-clients-npm"
  mkdir -p "$NPM_DIR"
  # shellcheck disable=SC2086
  npm install --prefix "$NPM_DIR" --no-audit --no-fund --silent $NPM_PINS
  echo "$NPM_PINS" > "$NPM_DIR/.versions"
fi

# shellcheck source=scripts/lib-venv.sh
source scripts/lib-venv.sh
use_venv "$CACHE/venv-mcp1" "mcp==$PY_MCP_VERSION"
PY_MCP1=$VENV_PY
use_venv "$CACHE/venv" "mcp==$PY_MCP2_VERSION"
PY_MCP2=$VENV_PY

# shellcheck source=scripts/lib-tool-server.sh
source scripts/lib-tool-server.sh
start_tool_server -p dcx
URL="http://$ADDR/"
DCX="$TARGET/release/dcx"
# mcp-remote keeps its (here unused) OAuth state in a folder of its own, not in $HOME.
export MCP_REMOTE_CONFIG_DIR="$CACHE/mcp-remote-config"
rm -rf "$MCP_REMOTE_CONFIG_DIR"

NODE_MODULES="$NPM_DIR/node_modules"
CLIENTS=(
  "npm @modelcontextprotocol/sdk@$SDK_VERSION|http|node scripts/mcp_clients_check.mjs $NODE_MODULES http $URL $DCX"
  "npm @modelcontextprotocol/sdk@$SDK_VERSION|stdio (dcx mcp)|node scripts/mcp_clients_check.mjs $NODE_MODULES stdio $DCX"
  "PyPI mcp==$PY_MCP_VERSION|http|$PY_MCP1 scripts/mcp_legacy_check.py http $URL $DCX"
  "PyPI mcp==$PY_MCP_VERSION|stdio (dcx mcp)|$PY_MCP1 scripts/mcp_legacy_check.py stdio $DCX"
  "npm mcp-remote@$MCP_REMOTE_VERSION (default flags)|stdio -> http|node scripts/mcp_clients_check.mjs $NODE_MODULES mcp-remote $URL $DCX"
  "PyPI mcp==$PY_MCP2_VERSION (2026-07-28 mode)|http|$PY_MCP2 scripts/mcp_client_check.py $URL $DCX"
)
RESULTS=()
failed=0
for entry in "${CLIENTS[@]}"; do
  IFS='|' read -r client transport command <<< "$entry"
  echo "== $client over $transport"
  started=$(date +%s.%N)
  status=0
  # shellcheck disable=SC2086
  timeout "$CLIENT_TIMEOUT" $command > "$CACHE/client.log" 2>&1 || status=$?
  seconds=$(python3 -c "import time; print(f'{time.time() - $started:.1f}')")
  grep -E '^(FAIL|ok)|passed, .* failed' "$CACHE/client.log" | grep -v '^ok' || true
  if [ "$status" -eq 0 ]; then
    verdict=pass
  else
    verdict="FAIL (exit $status)"
    failed=1
    tail -n 40 "$CACHE/client.log"
  fi
  RESULTS+=("$(printf '%-48s %-16s %-16s %ss' "$client" "$transport" "$verdict" "$seconds")")
done

echo "== client matrix"
for line in "${RESULTS[@]}"; do echo "  $line"; done
[ "$failed" -eq 0 ] && echo "client matrix: all passed" || { echo "client matrix: FAILED"; exit 1; }
