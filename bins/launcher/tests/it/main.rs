//! Integration tests of the launcher: its signals and reload loop (by signalling this
//! test process) and its runtime.

mod runtime;
mod signals;
