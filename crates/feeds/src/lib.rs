//! Placeholder for the `feeds` crate.
