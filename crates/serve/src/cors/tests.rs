//! Unit tests for `crate::cors`.
