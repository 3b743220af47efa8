#!/usr/bin/env bash
# The bounds that depend on the machine, kept out of `cargo test` (whose runs share their
# cores with other work): the servers' runtime hands freed memory back once idle and its
# idle workers bring RSS back to the same level after each burst (bins/launcher/tests), and
# feed-server exits within its grace period under hostile clients (bins/feed-server).
# They are `#[ignore]`d tests, run here with `--ignored` one test at a time so that no
# other test's allocations or threads share the process or the cores. Under a minute once
# built (a debug build, as `cargo test` leaves it).
set -euo pipefail
cd "$(dirname "$0")/.."

# ignored PACKAGE TARGET: the package's ignored tests in one test target.
ignored() {
  echo "== cargo test -p $1 --test $2 -- --ignored"
  cargo test --locked -p "$1" --test "$2" -- --ignored --test-threads=1
}

ignored launcher freed_memory
ignored launcher idle_workers
ignored feed-server it
echo "memory-check: passed"
