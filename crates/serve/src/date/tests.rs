//! Unit tests for `crate::date`.
