//! The binaries' allocator, mimalloc (`#[global_allocator]`), and [`collect`], which hands
//! back to the system what the calling thread's heap holds unused (docs/reliability.md,
//! "Memory"; the launcher calls it on its runtime's workers once the process is idle).
//! The one place in the workspace with `unsafe` code: one call into mimalloc's C API, as
//! `libmimalloc-sys` declares it.
#![warn(missing_docs)]

/// mimalloc, for every binary that links this crate (the servers and `dcx`, through the
/// launcher). With its default purge delay (10 ms, `MIMALLOC_PURGE_DELAY` overrides
/// it) and [`collect`] once a server is idle, it hands the memory of closed connections
/// back to the system, where glibc's malloc kept ~9 MiB more after eight rounds of 1,000
/// connections.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Collects the calling thread's heap, forced: frees that other threads made into its
/// pages are taken in, emptied pages go back to their segments, and the memory they free
/// is handed back to the system now, whatever its purge delay (the delay is for a
/// working server: memory freed mid-burst is soon used again). A walk over the heap's
/// pages: for idle moments, not for every request.
pub fn collect() {
    // SAFETY: `mi_collect` takes a flag and no pointer; it works on the calling
    // thread's own heap, which is mimalloc's global allocator here.
    #[allow(unsafe_code)]
    unsafe {
        libmimalloc_sys::mi_collect(true);
    }
}
