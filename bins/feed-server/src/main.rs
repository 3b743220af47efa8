//! `feed-server` binary.
fn main() {}
