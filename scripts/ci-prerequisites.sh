#!/usr/bin/env bash
# What .ci/run needs before it starts, checked all at once, each missing piece named with
# how to get it: Rust 1.95 or newer with rustfmt and clippy, Python 3 with venv and pip,
# npm, and network access to the crate, npm and PyPI registries (the scripts install the
# rest into .cache/ themselves).
set -uo pipefail
missing=()
need_rust="1.95"
if ! command -v cargo >/dev/null || ! command -v rustc >/dev/null; then
  missing+=("Rust $need_rust or newer (cargo and rustc): https://rustup.rs")
else
  have=$(rustc --version | awk '{print $2}')
  if [ "$(printf '%s\n%s\n' "$need_rust" "$have" | sort -V | head -n 1)" != "$need_rust" ]; then
    missing+=("Rust $need_rust or newer, found $have: rustup update")
  fi
  cargo fmt --version >/dev/null 2>&1 || missing+=("rustfmt: rustup component add rustfmt")
  cargo clippy --version >/dev/null 2>&1 || missing+=("clippy: rustup component add clippy")
fi
if ! command -v python3 >/dev/null; then
  missing+=("python3 (3.11 or newer, with venv and pip)")
else
  python3 -c 'import venv, ensurepip' 2>/dev/null \
    || missing+=("python3's venv module: apt-get install -y python3-venv")
  python3 -m pip --version >/dev/null 2>&1 \
    || missing+=("pip for python3: apt-get install -y python3-pip")
fi
command -v npm >/dev/null || missing+=("npm (Node.js): https://nodejs.org or apt-get install -y npm")
if [ ${#missing[@]} -gt 0 ]; then
  echo "error: .ci/run needs what is missing here:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
fi
echo "== prerequisites: $(rustc --version), $(python3 --version), npm $(npm --version)"
