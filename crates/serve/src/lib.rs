//! Placeholder for the `serve` crate.
