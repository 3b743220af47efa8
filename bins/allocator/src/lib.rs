//! The binaries' allocator, mimalloc asked for plain blocks (`#[global_allocator]`), and
//! [`collect`], which hands back to the system what the calling thread's heap holds
//! unused (docs/reliability.md, "Memory"; the launcher calls it on its runtime's workers
//! once the process is idle). The one place in the workspace with `unsafe` code: calls
//! into mimalloc's C API, as `libmimalloc-sys` declares it, in one module.
#![warn(missing_docs)]

use mimalloc_api::PlainBlocks;
pub use mimalloc_api::collect;

/// mimalloc, for every binary that links this crate (the servers and `dcx`, through the
/// launcher). With its default purge delay (10 ms, `MIMALLOC_PURGE_DELAY` overrides
/// it) and [`collect`] once a server is idle, it hands the memory of closed connections
/// back to the system, where glibc's malloc kept ~9 MiB more after eight rounds of 1,000
/// connections.
#[global_allocator]
static ALLOCATOR: PlainBlocks = PlainBlocks;

/// The calls into mimalloc's C API, the only code allowed `unsafe`.
#[allow(unsafe_code)]
mod mimalloc_api;
