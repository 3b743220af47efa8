#!/usr/bin/env bash
# The published libraries (dcx-pricing, dcx-datasets) are ready to publish: both package
# and verify together (dcx-datasets is built against the packaged dcx-pricing, through
# cargo's temporary local registry, not the workspace path), and their API docs build with
# every rustdoc warning denied. Nothing is uploaded. See docs/releasing.md.
# `--allow-dirty` lets it run in a work tree with uncommitted edits; CI's clone is clean.
set -euo pipefail
cd "$(dirname "$0")/.."

# The verification builds dcx-datasets against dcx-pricing 0.1.0 from cargo's temporary
# registry, and cargo takes a registry crate of a given name and version as unchanging: it
# reuses its unpacked sources ($CARGO_HOME/registry/src/-HASH/, the hash made from the
# registry's path) and its compiled library (target/debug) from any earlier run. A run at
# a path checked before would then verify against the dcx-pricing of that earlier run, so
# both go first (the workspace's own copies rebuild in seconds).
# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/dcx-pricing-* \
  "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/dcx-datasets-* \
  "$(target_dir)"/debug/.fingerprint/dcx-pricing-* "$(target_dir)"/debug/.fingerprint/dcx-datasets-*

echo "== cargo publish --dry-run -p dcx-pricing -p dcx-datasets"
cargo publish --dry-run --allow-dirty --locked -p dcx-pricing -p dcx-datasets

echo "== cargo doc --no-deps -p dcx-pricing -p dcx-datasets (rustdoc warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked -p dcx-pricing -p dcx-datasets
