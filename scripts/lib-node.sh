# Sourced by the CI scripts that need Node >= 22 (the conformance suite and the npm MCP
# clients): installs Node 22 from the npm registry into .cache/node once and puts it first
# on PATH. Usage: source scripts/lib-node.sh; use_node22 CACHE_DIR
use_node22() {
  local cache=$1
  if [ ! -x "$cache/node/node_modules/node/bin/node" ]; then
    echo "== installing Node 22 into .cache/node"
    mkdir -p "$cache/node"
    npm install --prefix "$cache/node" --no-audit --no-fund --silent node@22
  fi
  export PATH="$cache/node/node_modules/node/bin:$PATH"
  echo "== node $(node --version)"
}
