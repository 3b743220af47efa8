#!/usr/bin/env bash
# The MCP registry entry (server.json) checked as the registry would, plus its agreement
# with the workspace, the bundle manifest and the README (scripts/registry_check.py).
# Installs the pinned `jsonschema` into .cache/venv-registry once. Publishes nothing.
# Usage: bash scripts/registry-check.sh [--bundle FILE.mcpb] [--stamp FILE.mcpb]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib-venv.sh
source scripts/lib-venv.sh
use_venv "$PWD/.cache/venv-registry" jsonschema==4.26.0 rfc3986-validator==0.1.1
"$VENV_PY" scripts/registry_check.py "$@"
