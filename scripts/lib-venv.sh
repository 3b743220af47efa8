# Sourced by the scripts that run Python checks: a venv under .cache/ with pinned PyPI
# packages, created once and reused while the pins match.
# Usage: source scripts/lib-venv.sh; use_venv .cache/venv-web playwright==1.65.2 ...; "$VENV_PY" check.py

# use_venv DIR PACKAGE==VERSION...: makes sure DIR is a venv holding exactly these versions
# (installing what differs) and sets VENV_PY to its python.
use_venv() {
  # The real path: a venv is not relocatable, and .cache/ may be a link (.ci/run).
  local dir
  dir=$(realpath -m "$1")
  shift
  if [ ! -x "$dir/bin/python" ]; then
    echo "== creating $dir"
    python3 -m venv "$dir"
  fi
  if ! "$dir/bin/python" - "$@" << 'PY' 2> /dev/null; then
import importlib.metadata as m, sys
sys.exit(any(m.version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))
PY
    echo "== pip install $* into $dir"
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
  fi
  VENV_PY="$dir/bin/python"
}
