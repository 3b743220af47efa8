#!/usr/bin/env bash
# Times `dcx build` (release binary) on the 53,940 `diamonds` listings and on resamples of
# them 10x and 100x as large (539,400 and 5,394,000 rows), recording for each the wall
# time and the peak resident memory of the process (ru_maxrss, what `/usr/bin/time -v`
# reports as "Maximum resident set size"), the median of RUNS runs, each into a fresh
# output folder. Also runs the in-process timing (read + build, no process start or file
# writes) of the methodology example on the 1x file.
#
# The resample is the one of crates/methodology/src/tests.rs (`resample`): every row drawn
# with replacement by the same xorshift generator, each copy made unique by its depth, so
# the same market is seen through 10x or 100x as many distinct listings. The files are
# written once into .cache/bench-build/ (about 30 MB and 300 MB) and reused.
#
# Usage: scripts/bench-build.sh            (fetches the data set first if needed)
# Env:   CARGO_TARGET_DIR  target dir to build in (default: target-bench)
#        RUNS              timed runs per size (default 3)
#        SIZES             resample factors to run (default "1 10 100")
#        SKIP_EXAMPLE=1    skip the in-process timing
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target-bench}"
runs="${RUNS:-3}"
sizes="${SIZES:-1 10 100}"

csv="$(scripts/fetch-diamonds.sh | tail -n 1)"
echo "listings: $csv ($(($(wc -l <"$csv") - 1)) rows)"

if [[ "${SKIP_EXAMPLE:-}" != 1 ]]; then
    echo "== in-process: read + build (methodology example, release)"
    cargo run --quiet --release -p methodology --example build_file -- "$csv" diamonds | head -n 1
fi

cargo build --quiet --release -p dcx
dcx="$CARGO_TARGET_DIR/release/dcx"
data="$root/.cache/bench-build"
mkdir -p "$data"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# resample SOURCE TIMES OUT: the resample described above, written to OUT.
resample() {
    python3 - "$1" "$2" "$3" <<'EOF'
import sys

source, times, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(source) as f:
    lines = f.read().splitlines()
header, rows = lines[0], [row.split(",") for row in lines[1:]]
mask = (1 << 64) - 1
state = 0x9E3779B97F4A7C15
with open(out + ".tmp", "w") as f:
    f.write(header + "\n")
    batch = []
    for copy in range(len(rows) * times):
        state ^= (state << 13) & mask
        state ^= state >> 7
        state ^= (state << 17) & mask
        fields = rows[state % len(rows)]
        batch.append(",".join(fields[:4] + [f"{fields[4]}{copy:07}"] + fields[5:]))
        if len(batch) == 100_000:
            f.write("\n".join(batch) + "\n")
            batch = []
    if batch:
        f.write("\n".join(batch) + "\n")
EOF
    mv "$3.tmp" "$3"
}

# measure OUT CMD...: runs CMD, prints "wall_seconds peak_rss_kb"; fails if CMD fails.
measure() {
    python3 - "$@" <<'EOF'
import resource, subprocess, sys, time

start = time.monotonic()
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
wall = time.monotonic() - start
if done.returncode != 0:
    sys.stderr.write(done.stderr.decode())
    sys.exit(f"exit status {done.returncode}: {' '.join(sys.argv[1:])}")
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
dcx = next((l.split()[1] for l in done.stdout.decode().splitlines() if l.startswith("dcx ")), "?")
print(f"{wall:.3f} {peak} {dcx}")
EOF
}

echo "== dcx build (release binary), median of $runs runs per size"
table=()
for times in $sizes; do
    if [[ "$times" == 1 ]]; then
        file="$csv"
    else
        file="$data/diamonds-${times}x.csv"
        want=$((53940 * times + 1))
        if [[ ! -f "$file" || "$(wc -l <"$file")" -ne "$want" ]]; then
            echo "writing $file"
            resample "$csv" "$times" "$file"
        fi
    fi
    rows=$(($(wc -l <"$file") - 1))
    walls=()
    peaks=()
    for i in $(seq 1 "$runs"); do
        read -r wall peak dcx_value < <(measure "$dcx" build --listings "$file" \
            --format diamonds --date 2026-11-21 --out "$work/${times}x-$i")
        rm -rf "$work/${times}x-$i"
        walls+=("$wall")
        peaks+=("$peak")
        echo "${times}x run $i: ${wall} s, peak ${peak} kB, dcx ${dcx_value}"
    done
    wall_median=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "$((runs / 2 + 1))p")
    peak_median=$(printf '%s\n' "${peaks[@]}" | sort -g | sed -n "$((runs / 2 + 1))p")
    table+=("| ${times}x | $rows | ${wall_median} s | $((peak_median / 1024)) MB | ${dcx_value} |")
done
echo
echo "| input | rows | dcx build, wall (median) | peak memory (median) | DCX |"
echo "|---|---|---|---|---|"
printf '%s\n' "${table[@]}"
