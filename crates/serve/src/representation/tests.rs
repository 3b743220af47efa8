//! Unit tests for `crate::representation`.
