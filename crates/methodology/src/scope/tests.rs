//! Tests of `scope`.
