//! Unit tests for `crate::conditional`.
