# Sourced by the web checks: .cache/venv-web with the pinned PyPI packages they use (see
# scripts/lib-venv.sh). Sets WEB_PY to its python.
# shellcheck source=scripts/lib-venv.sh
source "$PWD/scripts/lib-venv.sh"
use_venv "$PWD/.cache/venv-web" playwright==1.65.2 openapi-spec-validator==0.9.0 jsonschema==4.26.0
WEB_PY=$VENV_PY
