//! Tests of `smooth`.
