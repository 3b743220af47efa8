//! `tool-server` binary.
fn main() {}
