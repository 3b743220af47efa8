#!/usr/bin/env bash
# Builds the cargo-fuzz targets of fuzz/ and runs each for SECONDS (default 60), seeded
# from fixtures/ (docs/reliability.md, "Fuzzing"). Fails if any target crashes (a panic,
# a failed check, a timeout or a memory blow-up), printing the path of the input that
# did it; `cargo fuzz run --fuzz-dir fuzz TARGET PATH` replays it.
#
# cargo-fuzz is installed into .cache/cargo-fuzz once. It needs nightly `-Z` flags;
# RUSTC_BOOTSTRAP=1 lets our stable toolchain take them. The fuzz crate is its own
# workspace with its own Cargo.lock; it builds into fuzz/target, its corpora grow in
# fuzz/corpus/TARGET and crashing inputs land in fuzz/artifacts/TARGET (all git-ignored).
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   # all targets unless named
#        FUZZ_JOBS=1 scripts/fuzz.sh 60            # one target at a time (default: per core)
#        FUZZ_SANITIZER=address scripts/fuzz.sh 300 tool_request
#        FUZZ_LINT=0 scripts/fuzz.sh 30   # skip rustfmt and clippy of the fuzz crate
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_EACH=${1:-60}
shift || true
VERSION=0.13.1
INSTALL="$ROOT/.cache/cargo-fuzz"
CARGO_FUZZ="$INSTALL/bin/cargo-fuzz"
# Our crates forbid unsafe code, so a memory error can only come from a dependency's
# unsafe code: AddressSanitizer is opt-in, and the default runs about twice as fast.
SANITIZER=${FUZZ_SANITIZER:-none}
export RUSTC_BOOTSTRAP=1 CARGO_INCREMENTAL=0

if ! { [ -x "$CARGO_FUZZ" ] && "$CARGO_FUZZ" --version | grep -qF "$VERSION"; }; then
  echo "== installing cargo-fuzz $VERSION into .cache/cargo-fuzz"
  cargo install --locked --quiet --version "$VERSION" --root "$INSTALL" cargo-fuzz
fi
# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
need c++ g++ # libFuzzer is built from source

if [ "${FUZZ_LINT:-1}" != 0 ]; then
  echo "== fuzz crate: rustfmt and clippy (it is outside the main workspace)"
  cargo fmt --manifest-path fuzz/Cargo.toml -- --check
  cargo clippy --manifest-path fuzz/Cargo.toml --locked --all-targets --quiet -- -D warnings
fi

if [ $# -gt 0 ]; then
  targets=("$@")
else
  listed=$("$CARGO_FUZZ" list --fuzz-dir fuzz)
  mapfile -t targets <<<"$listed"
fi
[ "${#targets[@]}" -gt 0 ] && [ -n "${targets[0]}" ] || { echo "fuzz.sh: no fuzz targets" >&2; exit 1; }

# Seeds, copied into each corpus on every run (a corpus only grows): the inputs of the
# fixtures as each target reads them.
seed() { # TARGET NAME [PREFIX_BYTE_OCTAL] < bytes
  local dir="fuzz/corpus/$1"
  mkdir -p "$dir"
  { [ -n "${3:-}" ] && printf "\\${3}"; cat; } >"$dir/seed-$2"
}
for file in fixtures/jsonrpc/*.http; do
  seed tool_request "$(basename "$file" .http)" <"$file"
done
{ grep -oh '/track?[^"\\ ]*' fixtures/jsonrpc/*.golden; grep -oh '/\(track\|quote\)?[^ `"'"'"')]*' docs/api.md; } \
  | sed 's/^[^?]*?//' | sort -u | grep -v '…' | { n=0; while IFS= read -r query; do
    n=$((n + 1)); printf '%s' "$query" | seed feed_query "doc-$n"; done; }
for file in fuzz/seeds/feed_query/*; do
  seed feed_query "$(basename "$file")" <"$file"
done
feeds=(matrix matrix_cushion ratio_models index depth) # datasets::Feed::ALL, in order
for i in "${!feeds[@]}"; do
  for file in fixtures/snapshot/"${feeds[$i]}".json fixtures/snapshot-err/*/"${feeds[$i]}".json; do
    case_name=$(basename "$(dirname "$file")")
    seed snapshot_feed "$case_name-${feeds[$i]}" "00$i" <"$file"
  done
done
# The spread file: the reference day's (it validates beside the reference snapshot) and
# cut-down copies.
seed matrix_stats reference <crates/datasets/reference-snapshot/matrix_stats.json
for file in fuzz/seeds/matrix_stats/*; do
  seed matrix_stats "$(basename "$file")" <"$file"
done
for file in fuzz/seeds/listings_csv/*; do
  seed listings_csv "$(basename "$file")" 000 <"$file"
done
# The diamonds sample in slices of 40 rows under its header: small seeds run fast.
header=$(head -n 1 fixtures/listings/diamonds-sample.csv)
tail -n +2 fixtures/listings/diamonds-sample.csv | split -l 40 - "$ROOT/fuzz/corpus/.diamonds-"
for slice in fuzz/corpus/.diamonds-*; do
  { printf '%s\n' "$header"; cat "$slice"; } | seed listings_csv "diamonds-${slice##*-}" 001
  rm "$slice"
done

echo "== building ${#targets[@]} fuzz targets (sanitizer: $SANITIZER)"
"$CARGO_FUZZ" build --fuzz-dir fuzz --sanitizer "$SANITIZER" --release --debug-assertions

# Each target runs as its own process, up to FUZZ_JOBS at once (default: one per core):
# the built binaries are run directly, as `cargo fuzz run` would, without its cargo lock.
JOBS=${FUZZ_JOBS:-$(nproc)}
bin_dir="fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release"
fuzz_one() { # TARGET: runs it, its output in fuzz/artifacts/TARGET.log
  local target=$1 dict=()
  [ -f "fuzz/dicts/$target.dict" ] && dict=("-dict=fuzz/dicts/$target.dict")
  "$bin_dir/$target" -artifact_prefix="fuzz/artifacts/$target/" \
    -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "${dict[@]}" "fuzz/corpus/$target" >"fuzz/artifacts/$target.log" 2>&1
}
failed=()
summary=()
for ((first = 0; first < ${#targets[@]}; first += JOBS)); do
  batch=("${targets[@]:first:JOBS}")
  echo "== fuzzing ${batch[*]} for ${SECONDS_EACH} s"
  pids=()
  declare -A before=()
  for target in "${batch[@]}"; do
    mkdir -p "fuzz/artifacts/$target"
    before[$target]=$(ls "fuzz/artifacts/$target" | sort)
    fuzz_one "$target" &
    pids+=($!)
  done
  for i in "${!batch[@]}"; do
    target=${batch[$i]}
    log="fuzz/artifacts/$target.log"
    status=0
    wait "${pids[$i]}" || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    corpus=$(ls "fuzz/corpus/$target" | wc -l)
    summary+=("$(printf '%-14s %10s runs %8s execs/s %6s corpus files' "$target" "$runs" "$rate" "$corpus")")
    if [ "$status" -ne 0 ]; then
      tail -n 40 "$log"
      echo "== FAILED: $target crashed (exit $status); the input that did it:"
      comm -13 <(echo "${before[$target]}") <(ls "fuzz/artifacts/$target" | sort) \
        | sed "s|^|   fuzz/artifacts/$target/|"
      failed+=("$target")
    fi
  done
  unset before
done

echo "== fuzzing summary (${SECONDS_EACH} s each)"
printf '   %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "== fuzz: FAILED for ${failed[*]} (logs in fuzz/artifacts/TARGET.log)"
  exit 1
fi
echo "== fuzz: no crash in ${#targets[@]} targets"
