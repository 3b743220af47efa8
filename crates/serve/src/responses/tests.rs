//! Unit tests for `crate::responses`.
