//! Tests of `ratio`.
