# A menu of common commands. `just --list` shows them; each is one line.

# Run the whole service on the embedded reference snapshot.
serve:
    cargo run --release -p dcx -- serve

# Price a stone, e.g. `just quote --carat 1.23 --color G --clarity VS2`.
quote *ARGS:
    cargo run --release -p dcx -- quote {{ARGS}}

# Everything CI runs.
ci:
    bash .ci/run

# The README's test command.
test:
    cargo test --workspace

# The libraries as published: package + verify, docs, the README's program from outside.
libs:
    bash scripts/release-check.sh && bash scripts/embed-check.sh && bash scripts/semver-check.sh

# Formatting, lints and API docs as CI checks them.
check:
    cargo fmt --all -- --check && cargo clippy --workspace --all-targets -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps

# Resident-memory and wall-clock bounds, kept out of `cargo test` (docs/decisions.md 6.10).
memory:
    bash scripts/memory-check.sh

# Every fuzz target for SECONDS each, seeded from fixtures/ (docs/reliability.md).
fuzz SECONDS="60":
    bash scripts/fuzz.sh {{SECONDS}}

# Criterion benches (quotes, snapshot parsing, one request through each handler).
bench:
    cargo bench -p benches

# Load benches over loopback with wrk, against nginx and bare hyper (docs/performance.md);
# bench-tools.sh fails when the tool server misses its goal.
load:
    bash scripts/bench-feeds.sh
    bash scripts/bench-tools.sh

# Two replicas of each server behind nginx under load: stop, reload, kill (docs/operations.md).
scale-out:
    bash scripts/scale-out.sh

# Instructions per tools/call request under callgrind, tool server against bare hyper.
instructions:
    bash scripts/bench-tools.sh --instructions

# Rewrite goldens and the generated reference snapshot after an intended change.
update-goldens:
    UPDATE_EXPECT=1 cargo test --workspace
