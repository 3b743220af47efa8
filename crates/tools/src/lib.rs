//! Placeholder for the `tools` crate.
