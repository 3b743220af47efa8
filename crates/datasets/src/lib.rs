//! Placeholder for the `datasets` crate.
