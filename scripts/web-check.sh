#!/usr/bin/env bash
# The feed server's web surface, checked for real. Builds a small multi-day history with
# `dcx build` and serves it with `dcx serve`; then
#   * scripts/openapi_check.py: /openapi.json passes PyPI openapi-spec-validator, and real
#     answers of every route match the statuses, media types and schemas it declares;
#   * scripts/schema-check.sh: requests drawn from /openapi.json (PyPI schemathesis) and
#     tool calls drawn from the tools' inputSchemas (PyPI hypothesis-jsonschema) are
#     never refused;
#   * scripts/browser_check.py: Debian's chromium driven by PyPI playwright (its own
#     browser download is not used) checks the page, the chart, the calculator (against
#     `dcx quote --json`, and with an asking price against `GET /check`) and the tool
#     server's /docs, and saves screenshots at 1280x900
#     and 390x844 in .cache/screenshots/ (git-ignored).
# The Python packages live in .cache/venv-web (reused). Bounded to a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHOTS="$ROOT/.cache/screenshots"

# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
NEED_WITH_RECOMMENDS=1 need chromium chromium
# shellcheck source=scripts/lib-venv.sh
source scripts/lib-venv.sh
use_venv "$PWD/.cache/venv-web" playwright==1.65.2 openapi-spec-validator==0.9.0 jsonschema==4.26.0
WEB_PY=$VENV_PY

# DCX_BIN may name an already built dcx (e.g. a debug build while working on the page).
DCX="${DCX_BIN:-}"
if [ -z "$DCX" ]; then
  echo "== cargo build --release -p dcx"
  cargo build --release --locked -p dcx
  DCX="$(target_dir)/release/dcx"
fi

WORK=$(mktemp -d)
trap 'stop_started; rm -rf "$WORK"' EXIT

echo "== a five-day history from scaled listings (dcx build)"
scaled_history "$DCX" "$WORK" 1.0 1.012 0.995 1.021 1.034

LOG="$WORK/serve.log"
start_server "$LOG" "$DCX" serve --history "$WORK/history" --feed-listen 127.0.0.1:0 \
  --tool-listen 127.0.0.1:0 --poll-secs 0
FEED=$(announced_addr "$LOG" "$STARTED_PID" feeds)
TOOL=$(announced_addr "$LOG" "$STARTED_PID" tools)
echo "== dcx serve: feeds at http://$FEED/, tools at http://$TOOL/"

timeout 120 "$WEB_PY" scripts/openapi_check.py "http://$FEED"
bash scripts/schema-check.sh "http://$FEED" "http://$TOOL/"
mkdir -p "$SHOTS"
timeout 300 "$WEB_PY" scripts/browser_check.py "http://$FEED" "http://$TOOL" "$DCX" \
  "$WORK/history" "$SHOTS"
echo "== screenshots in $SHOTS"
