//! Tests of `select`.
