#!/usr/bin/env bash
# Runs the official MCP conformance suite against a release tool-server on a free loopback
# port: the 2026-07-28 requirement set (plus the pending http-header-validation scenario),
# then the 2025-11-25 requirement set (the legacy era, with its own baseline).
# Installs Node 22 and the pinned suite under .cache/ (reused on later runs). Exits with
# the suite's status; the server is always stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE="$ROOT/.cache"
SUITE_VERSION=0.2.0-alpha.12
mkdir -p "$CACHE/conformance"

# shellcheck source=scripts/lib-node.sh
source "$ROOT/scripts/lib-node.sh"
use_node22 "$CACHE"
if [ "$(cat "$CACHE/conformance/.version" 2>/dev/null)" != "$SUITE_VERSION" ]; then
  echo "== installing @modelcontextprotocol/conformance@$SUITE_VERSION into .cache/conformance"
  npm install --prefix "$CACHE/conformance" --no-audit --no-fund --silent \
    "@modelcontextprotocol/conformance@$SUITE_VERSION"
  echo "$SUITE_VERSION" > "$CACHE/conformance/.version"
fi
CONFORMANCE="$CACHE/conformance/node_modules/.bin/conformance"
# The expected failures of each requirement set, one file per protocol era.
BASELINES=fixtures/conformance

# shellcheck source=scripts/lib-tool-server.sh
source "$ROOT/scripts/lib-tool-server.sh"
start_tool_server
URL="http://$ADDR/"
# Results stay in conformance-results/ (git-ignored) for inspection.
OUT="$ROOT/conformance-results"
rm -rf "$OUT"

# Summarises one results folder: passed/failed/other counts per scenario.
summary() {
  python3 - "$1" <<'PY'
import collections, json, pathlib, re, sys
for checks in sorted(pathlib.Path(sys.argv[1]).glob("*/checks.json")):
    counts = collections.Counter(c.get("status", "?") for c in json.loads(checks.read_text()))
    name = re.sub(r"-\d{4}-\d\d-\d\dT.*$", "", checks.parent.name).removeprefix("server-")
    print(f"  {name:55s} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
PY
}

status=0
echo "== conformance server --requirements 2026-07-28 (baseline: $BASELINES/baseline-2026-07-28.yml)"
"$CONFORMANCE" server --url "$URL" --requirements 2026-07-28 \
  --expected-failures "$BASELINES/baseline-2026-07-28.yml" -o "$OUT/requirements" || status=$?
summary "$OUT/requirements"
echo "requirement set: exit $status"

echo "== conformance server --scenario http-header-validation (pending; must fully pass)"
header_status=0
"$CONFORMANCE" server --url "$URL" --scenario http-header-validation --spec-version 2026-07-28 \
  -o "$OUT/headers" || header_status=$?
summary "$OUT/headers"
echo "http-header-validation: exit $header_status"

echo "== conformance server --requirements 2025-11-25 (baseline: $BASELINES/baseline-2025-11-25.yml)"
legacy_status=0
"$CONFORMANCE" server --url "$URL" --requirements 2025-11-25 \
  --expected-failures "$BASELINES/baseline-2025-11-25.yml" -o "$OUT/requirements-2025-11-25" \
  || legacy_status=$?
summary "$OUT/requirements-2025-11-25"
echo "requirement set 2025-11-25: exit $legacy_status"

if [ "$status" -ne 0 ] || [ "$header_status" -ne 0 ] || [ "$legacy_status" -ne 0 ]; then
  echo "conformance: FAILED"
  exit 1
fi
echo "conformance: passed"
