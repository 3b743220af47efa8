#!/usr/bin/env bash
# The one-click bundle for desktop hosts: builds dcx-<version>-linux-x86_64.mcpb (the
# static `dcx`, stripped, as server/dcx; deploy/bundle/manifest.json; deploy/bundle/icon.png),
# validated and packed by the official MCPB CLI, then tests it as a host does: unpacks it
# with the same CLI, starts the command its manifest names and drives it with the Python
# MCP SDK client over stdio (scripts/bundle_check.py). Prints the bundle's path and SHA-256
# last. Installs the pinned @anthropic-ai/mcpb into .cache/mcpb-npm once (Node 22 from
# lib-node.sh) and reuses mcp-clients.sh's Python venv. Other platforms: docs/releasing.md.
# Usage: bash scripts/bundle.sh [OUT_DIR]   (default: <target>/bundle)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE="$ROOT/.cache"
MCPB_VERSION=2.1.2
PY_MCP_VERSION=1.30.0

# shellcheck source=scripts/lib-node.sh
source scripts/lib-node.sh
use_node22 "$CACHE"
MCPB_DIR="$CACHE/mcpb-npm"
if [ "$(cat "$MCPB_DIR/.versions" 2>/dev/null)" != "$MCPB_VERSION" ]; then
  echo "== installing @anthropic-ai/mcpb@$MCPB_VERSION into .cache/mcpb-npm"
  mkdir -p "$MCPB_DIR"
  npm install --prefix "$MCPB_DIR" --no-audit --no-fund --silent "@anthropic-ai/mcpb@$MCPB_VERSION"
  echo "$MCPB_VERSION" > "$MCPB_DIR/.versions"
fi
mcpb() { node "$MCPB_DIR/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js" "$@"; }
echo "== mcpb $(mcpb --version)"

# shellcheck source=scripts/lib-venv.sh
source scripts/lib-venv.sh
use_venv "$CACHE/venv-mcp1" "mcp==$PY_MCP_VERSION"

# shellcheck source=scripts/lib-static-dcx.sh
source scripts/lib-static-dcx.sh
build_static_dcx
VERSION=$("$STATIC_DCX" --version | awk '{print $2}')
OUT=${1:-$(target_dir)/bundle}
NAME="dcx-$VERSION-linux-x86_64.mcpb"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dcx-bundle.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== staging the bundle: manifest.json, icon.png, server/dcx"
STAGE="$WORK/stage"
mkdir -p "$STAGE/server" "$OUT"
cp deploy/bundle/manifest.json deploy/bundle/icon.png "$STAGE/"
cp "$STATIC_DCX" "$STAGE/server/dcx"
strip "$STAGE/server/dcx"
chmod 755 "$STAGE/server/dcx"
manifest_version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
  "$STAGE/manifest.json")
if [ "$manifest_version" != "$VERSION" ]; then
  echo "deploy/bundle/manifest.json says version $manifest_version, dcx --version $VERSION" >&2
  exit 1
fi

echo "== mcpb validate"
mcpb validate "$STAGE/manifest.json"
echo "== mcpb pack"
rm -f "$OUT/$NAME"
mcpb pack "$STAGE" "$OUT/$NAME" | grep -E '^(name|version|package size|unpacked size|total files):'

echo "== mcpb unpack, then the manifest's command driven by the Python MCP client over stdio"
mcpb unpack "$OUT/$NAME" "$WORK/unpacked" > /dev/null
mcpb info "$OUT/$NAME" | grep -E 'Name|Version|Size|signed' || true
"$VENV_PY" scripts/bundle_check.py "$WORK/unpacked" "$ROOT"

echo "== bundle: $OUT/$NAME"
echo "$(sha256sum "$OUT/$NAME" | cut -d' ' -f1)  $OUT/$NAME"
