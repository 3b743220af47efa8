//! Shared setup for the criterion benchmarks in `benches/benches/`.
