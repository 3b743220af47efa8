//! Tests of `fill`.
