# Sourced by the web checks: a venv under .cache/venv-web with the pinned PyPI packages
# they use (reused on later runs). Sets WEB_PY to its python.
WEB_VENV="$PWD/.cache/venv-web"
WEB_PACKAGES=(playwright==1.65.2 openapi-spec-validator==0.9.0 jsonschema==4.26.0)
if [ ! -x "$WEB_VENV/bin/python" ]; then
  echo "== creating .cache/venv-web"
  python3 -m venv "$WEB_VENV"
fi
if ! "$WEB_VENV/bin/python" - "${WEB_PACKAGES[@]}" <<'PY' 2>/dev/null; then
import importlib.metadata as m, sys
sys.exit(any(m.version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))
PY
  echo "== pip install ${WEB_PACKAGES[*]}"
  "$WEB_VENV/bin/pip" install --quiet --disable-pip-version-check "${WEB_PACKAGES[@]}"
fi
WEB_PY="$WEB_VENV/bin/python"
