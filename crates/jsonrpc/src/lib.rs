//! Placeholder for the `jsonrpc` crate.
