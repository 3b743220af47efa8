//! Unit tests for `crate::encoding`.
