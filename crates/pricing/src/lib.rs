//! Placeholder for the `pricing` crate.
