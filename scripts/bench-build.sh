#!/usr/bin/env bash
# Times a full `dcx build` of the 53,940 `diamonds` listings against a release build:
# median of 5 runs, each into a fresh output folder. Also runs the in-process timing
# (read + build, no process start or file writes) of the methodology example.
#
# Usage: scripts/bench-build.sh            (fetches the data set first if needed)
# Env:   CARGO_TARGET_DIR  target dir to build in (default: target-bench)
#        RUNS              number of timed runs (default 5)
#        SKIP_DCX=1        only the in-process timing (no dcx release build)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target-bench}"
runs="${RUNS:-5}"

csv="$(scripts/fetch-diamonds.sh)"
echo "listings: $csv ($(($(wc -l <"$csv") - 1)) rows)"

echo "== in-process: read + build (methodology example, release)"
cargo run --quiet --release -p methodology --example build_file -- "$csv" diamonds | head -n 1

if [[ "${SKIP_DCX:-}" == 1 ]]; then
    exit 0
fi
echo "== dcx build (release binary, median of $runs runs)"
cargo build --quiet --release -p dcx
dcx="$CARGO_TARGET_DIR/release/dcx"
if ! "$dcx" build --help >/dev/null 2>&1; then
    echo "dcx has no 'build' subcommand yet; only the in-process figure above is available" >&2
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
times=()
for i in $(seq 1 "$runs"); do
    out="$work/run-$i"
    start=$(date +%s%N)
    "$dcx" build --listings "$csv" --format diamonds --out "$out" >/dev/null
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "runs (ms): ${times[*]}"
echo "median: ${sorted[$((runs / 2))]} ms"
