#!/usr/bin/env bash
# Requests drawn from our own published schemas are never refused. Against a running
# feed server and tool server (web-check.sh calls this with the `dcx serve` it started):
#   * PyPI schemathesis draws requests for every operation of the feed server's
#     /openapi.json (positive data only) and fails when one of them is refused
#     (positive_data_acceptance), answered 5xx, or answered with a status, media type,
#     header or body the description does not declare;
#   * scripts/schema_check.py: PyPI hypothesis-jsonschema draws tools/call arguments
#     from each tool's inputSchema (tools/list) and fails when any call is refused.
# The generators run in their own cached venvs (their hypothesis pins differ). Bounded
# to a few minutes; SCHEMA_EXAMPLES sets the draws per operation and tool (default 100
# and 300).
# Usage: scripts/schema-check.sh FEED_URL TOOL_URL
set -euo pipefail
cd "$(dirname "$0")/.."
FEED=${1:?usage: schema-check.sh FEED_URL TOOL_URL}
TOOL=${2:?usage: schema-check.sh FEED_URL TOOL_URL}

# shellcheck source=scripts/lib-venv.sh
source scripts/lib-venv.sh
use_venv "$PWD/.cache/venv-schemathesis" schemathesis==4.32.5
ST="$(dirname "$VENV_PY")/st"
use_venv "$PWD/.cache/venv-hjs" hypothesis-jsonschema==0.23.1 hypothesis==6.100.0 jsonschema==4.26.0
HJS_PY=$VENV_PY

REPORT=$(mktemp -d)
trap 'rm -rf "$REPORT"' EXIT
echo "== schemathesis: requests drawn from $FEED/openapi.json are accepted and answered as described"
# Run from a scratch folder: schemathesis writes its cache and reports where it runs.
(cd "$REPORT" && timeout 300 "$ST" run "${FEED%/}/openapi.json" --mode positive \
  --checks not_a_server_error,positive_data_acceptance,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --max-examples "${SCHEMA_EXAMPLES:-100}" --seed 1 --workers 1 --no-color)

echo "== hypothesis-jsonschema: tools/call arguments drawn from each inputSchema are answered"
timeout 300 "$HJS_PY" scripts/schema_check.py "$TOOL" "${SCHEMA_EXAMPLES:-300}"
