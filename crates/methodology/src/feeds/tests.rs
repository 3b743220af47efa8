//! Tests of `feeds`.
