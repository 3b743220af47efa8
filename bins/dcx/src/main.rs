//! `dcx` binary.
fn main() {}
