#!/usr/bin/env bash
# The published libraries (dcx-pricing, dcx-datasets) are ready to publish: both package
# and verify together (dcx-datasets is built against the packaged dcx-pricing, through
# cargo's temporary local registry, not the workspace path), and their API docs build with
# every rustdoc warning denied. Nothing is uploaded. See docs/releasing.md.
# `--allow-dirty` lets it run in a work tree with uncommitted edits; CI's clone is clean.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo publish --dry-run -p dcx-pricing -p dcx-datasets"
cargo publish --dry-run --allow-dirty --locked -p dcx-pricing -p dcx-datasets

echo "== cargo doc --no-deps -p dcx-pricing -p dcx-datasets (rustdoc warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked -p dcx-pricing -p dcx-datasets
