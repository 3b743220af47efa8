#!/usr/bin/env bash
# Fetches the ggplot2 `diamonds` listings (53,940 round diamonds, MIT licence) as shipped
# in the PyPI wheel plotnine==0.15.9 (plotnine/data/diamonds.csv), checks its sha256 and
# prints the path of the CSV. Cached in .cache/diamonds/ at the workspace root; a cached
# file with the right hash is reused without touching the network.
#
# Usage: scripts/fetch-diamonds.sh            # prints e.g. /work/main/.cache/diamonds/diamonds.csv
#        DIAMONDS_CSV=$(scripts/fetch-diamonds.sh) cargo test -p methodology
set -euo pipefail

VERSION="0.15.9"
MEMBER="plotnine/data/diamonds.csv"
SHA256="9574730b03aba241d899c4a97511c5061b19358fab89510774fb6c24168345c4"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${DIAMONDS_CACHE:-$root/.cache/diamonds}"
out="$cache/diamonds.csv"

hash_of() { sha256sum "$1" | cut -d' ' -f1; }

if [[ -f "$out" && "$(hash_of "$out")" == "$SHA256" ]]; then
    echo "$out"
    exit 0
fi

mkdir -p "$cache"
tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

echo "fetching plotnine==$VERSION from PyPI" >&2
pip download --quiet --no-deps --only-binary=:all: "plotnine==$VERSION" -d "$tmp" >&2
wheel="$(ls "$tmp"/plotnine-"$VERSION"-*.whl 2>/dev/null | head -n1)"
if [[ -z "$wheel" ]]; then
    echo "error: pip did not produce a plotnine $VERSION wheel in $tmp" >&2
    exit 1
fi
python3 -c 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' "$wheel" "$MEMBER" "$tmp/diamonds.csv"
actual="$(hash_of "$tmp/diamonds.csv")"
if [[ "$actual" != "$SHA256" ]]; then
    echo "error: sha256 mismatch for $MEMBER in $(basename "$wheel")" >&2
    echo "  expected $SHA256" >&2
    echo "  actual   $actual" >&2
    exit 1
fi
mv "$tmp/diamonds.csv" "$out"
echo "$out"
