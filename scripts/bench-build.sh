#!/usr/bin/env bash
# Times `dcx build` (release binary) on the 53,940 `diamonds` listings and on resamples of
# them 10x and 100x as large (539,400 and 5,394,000 rows), recording for each the wall
# time, the CPU time and the peak resident memory of the process (GNU time's %M, the
# "Maximum resident set size" of `/usr/bin/time -v`), the median of RUNS runs, each into a
# fresh output folder. The CPU time is the figure to compare on a busy machine. Also runs the in-process timing (read + build, no process start or file
# writes) of the methodology example on the 1x file.
#
# The resample is the one of crates/methodology/src/tests.rs (`resample`): every row drawn
# with replacement by the same xorshift generator, each copy made unique by its depth, so
# the same market is seen through 10x or 100x as many distinct listings. The files are
# written once into .cache/bench-build/ (about 30 MB and 300 MB) and reused.
#
# To compare builds of dcx (e.g. two CSV readers, docs/decisions.md "Reading CSV"), name
# them in DCX_BINS: their runs alternate (run 1 of each, then run 2 of each, ...) so that
# the machine's load falls on all alike, and each gets its own medians. CALLGRIND=1 also
# counts each one's instructions (valgrind's callgrind, one run per size: the count does
# not move with the load).
#
# Usage: scripts/bench-build.sh            (fetches the data set first if needed)
#        SIZES=100 RUNS=7 DCX_BINS="/tmp/dcx-a /tmp/dcx-b" CALLGRIND=1 scripts/bench-build.sh
# Env:   CARGO_TARGET_DIR  target dir to build in (default: target-bench)
#        RUNS              timed runs per size (default 3)
#        SIZES             resample factors to run (default "1 10 100")
#        SKIP_EXAMPLE=1    skip the in-process timing
#        DCX_BINS          dcx binaries to time, alternating (default: the release build)
#        CALLGRIND=1       also count instructions under callgrind (slow: about 50x)
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
    cargo run --quiet --release -p methodology --example build_file -- "$csv" diamonds | sed -n 1p
fi

if [[ -z "${DCX_BINS:-}" ]]; then
    cargo build --quiet --release -p dcx
    DCX_BINS="$CARGO_TARGET_DIR/release/dcx"
fi
read -r -a bins <<<"$DCX_BINS"
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

# measure CMD...: runs CMD under GNU time, prints "wall_s cpu_s peak_rss_kb dcx"; fails if
# CMD fails. (A fork from a script would count the script's own memory in the peak.)
measure() {
    local out="$work/stdout" times="$work/times"
    if ! /usr/bin/time -o "$times" -f "%e %U %S %M" "$@" >"$out"; then
        echo "failed: $*" >&2
        return 1
    fi
    local wall user sys peak
    read -r wall user sys peak <"$times"
    echo "$wall $(python3 -c "print(f'{$user + $sys:.2f}')") $peak $(awk '/^dcx /{print $2}' "$out")"
}

# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
need /usr/bin/time time # GNU time, for peak memory (`time` alone is the shell's keyword)
[[ "${CALLGRIND:-}" != 1 ]] || need valgrind valgrind

# instructions DCX FILE OUT: the instructions callgrind counts for one build.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$1" build \
        --listings "$2" --format diamonds --date 2026-11-21 --out "$3" >/dev/null 2>"$work/callgrind.log" ||
        { cat "$work/callgrind.log" >&2; return 1; }
    rm -rf "$3"
    sed -n 's/^summary: //p' "$work/callgrind.out"
}

median() { printf '%s\n' "$@" | sort -g | sed -n "$(($# / 2 + 1))p"; }

echo "== dcx build (release binary), median of $runs runs per size and binary"
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
    declare -A walls=() cpus=() peaks=()
    for i in $(seq 1 "$runs"); do
        for b in "${!bins[@]}"; do
            read -r wall cpu peak dcx_value < <(measure "${bins[$b]}" build --listings "$file" \
                --format diamonds --date 2026-11-21 --out "$work/${times}x-$i")
            [[ -n "${peak:-}" ]] || exit 1
            rm -rf "$work/${times}x-$i"
            walls[$b]+=" $wall"
            cpus[$b]+=" $cpu"
            peaks[$b]+=" $peak"
            echo "${times}x run $i ${bins[$b]}: ${wall} s wall, ${cpu} s CPU, peak ${peak} kB, dcx ${dcx_value}"
        done
    done
    for b in "${!bins[@]}"; do
        # shellcheck disable=SC2086 # the lists split into their values
        peak_median=$(median ${peaks[$b]})
        counted="-"
        if [[ "${CALLGRIND:-}" == 1 ]]; then
            counted=$(instructions "${bins[$b]}" "$file" "$work/${times}x-callgrind")
            echo "${times}x ${bins[$b]}: $counted instructions"
        fi
        # shellcheck disable=SC2086
        table+=("| ${times}x | $rows | ${bins[$b]} | $(median ${walls[$b]}) s | $(median ${cpus[$b]}) s | $((peak_median / 1024)) MB | $counted | ${dcx_value} |")
    done
    unset walls cpus peaks
done
echo
echo "| input | rows | dcx | wall (median) | CPU, user + system (median) | peak memory (median) | instructions | DCX |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${table[@]}"
