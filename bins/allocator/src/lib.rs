//! The binaries' allocator, mimalloc, set up to hand the memory it frees back to the
//! system (docs/reliability.md, "Memory"), and the servers' tokio runtime, whose idle
//! workers collect their heaps. The one place in the workspace with `unsafe` code: two
//! calls into mimalloc's C API, as `libmimalloc-sys` declares it.
#![warn(missing_docs)]

use std::{
    cell::Cell,
    io,
    time::{Duration, Instant},
};

/// mimalloc, for every binary that links this crate (the servers, through
/// [`block_on_workers`]). It hands the memory of closed connections back to the system,
/// where glibc's malloc kept ~9 MiB more after eight rounds of 1,000 connections.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The environment variable with which an operator sets the purge delay themselves
/// (milliseconds; mimalloc reads it at start-up). When it is set, it wins, and so does
/// its older name, [`LEGACY_PURGE_DELAY_VARIABLE`].
pub const PURGE_DELAY_VARIABLE: &str = "MIMALLOC_PURGE_DELAY";

/// The name mimalloc also reads for [`PURGE_DELAY_VARIABLE`].
pub const LEGACY_PURGE_DELAY_VARIABLE: &str = "MIMALLOC_RESET_DELAY";

/// `mi_option_purge_delay` in the `mi_option_t` enum of mimalloc v2's `mimalloc.h` (the
/// version the `v2` feature of the workspace's `mimalloc` builds). `libmimalloc-sys`
/// declares the functions that take options but names only the stable options, and this
/// one is not among them.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// A worker that goes idle collects its heap when it has worked this long since it last
/// did ([`collect_when_idle`])...
const COLLECT_AFTER_WORK: Duration = Duration::from_millis(1);
/// ... or when it last did this long ago.
const COLLECT_INTERVAL: Duration = Duration::from_millis(100);

/// Runs `future` to completion on the servers' tokio runtime (multi-threaded, I/O and
/// time on), after [`return_freed_memory_at_once`]; a panic in it panics here.
///
/// The future runs on a worker, not on the calling thread, and each worker collects its
/// heap when it runs out of work ([`collect_when_idle`]). A page that held a
/// connection's buffers becomes free only when the thread that owns it collects the
/// frees other threads made into it, which mimalloc does when that thread next
/// allocates from the page. After a burst of 1,000 connections, workers that went idle
/// kept 1 to 6 MiB of such pages, a different amount after every burst; collected when
/// idle, RSS comes back to the same ~8 MiB after each burst. The thread that calls
/// `block_on` has no such hook, so nothing runs there.
pub fn block_on_workers<F>(future: F) -> io::Result<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    return_freed_memory_at_once();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_unpark(woke)
        .on_thread_park(collect_when_idle)
        .build()?;
    let task = runtime.spawn(future);
    match runtime.block_on(task) {
        Ok(output) => Ok(output),
        Err(err) => match err.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(err) => Err(io::Error::other(err)),
        },
    }
}

/// Makes a free that empties a span of pages hand them back to the system in that same
/// call, unless the operator set [`PURGE_DELAY_VARIABLE`]. Call it before the process
/// starts any thread that allocates; [`block_on_workers`] calls it before it starts the
/// runtime.
///
/// mimalloc's default delay (10 ms) is not a timer: a span is handed back only when its
/// thread next allocates or frees after the delay. A worker thread that goes idle after
/// a burst of connections, or after a 1 MB request body, keeps those pages resident
/// until the next burst: RSS then reads a few MiB high or low depending on which thread
/// did what last. With no delay it reads the same after every burst. The cost is one
/// `madvise` per emptied span and faulting the pages in again when a later burst needs
/// them (docs/reliability.md has the load figures).
pub fn return_freed_memory_at_once() {
    if [PURGE_DELAY_VARIABLE, LEGACY_PURGE_DELAY_VARIABLE]
        .iter()
        .any(|name| std::env::var_os(name).is_some())
    {
        return;
    }
    // SAFETY: `mi_option_set` takes two integers and no pointer, and the purge delay
    // accepts any value from -1 (never purge) upwards. It writes the option's value
    // without synchronisation, so it is called before other threads allocate: the
    // servers call it from `main` before the runtime starts its workers.
    #[allow(unsafe_code)]
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
}

/// A worker's record of its work since it last collected its heap.
#[derive(Clone, Copy)]
struct Worker {
    /// When it last collected (never, at first).
    collected: Option<Instant>,
    /// When it last woke up to work.
    woke: Option<Instant>,
    /// How long it has worked since it last collected.
    worked: Duration,
}

thread_local! {
    static WORKER: Cell<Worker> =
        const { Cell::new(Worker { collected: None, woke: None, worked: Duration::ZERO }) };
}

/// A worker wakes up to work (tokio's `on_thread_unpark`).
fn woke() {
    WORKER.with(|worker| {
        let mut state = worker.get();
        state.woke = Some(Instant::now());
        worker.set(state);
    });
}

/// A worker runs out of work (tokio's `on_thread_park`): it collects its heap when it
/// has worked [`COLLECT_AFTER_WORK`] since it last did, or when that was
/// [`COLLECT_INTERVAL`] ago. A collection walks the heap's pages (about 5k
/// instructions); under load a worker parks between requests, so collecting at every
/// park added 46 % to a feed request served over one connection (callgrind), while one
/// per millisecond of work costs under 0.3 % (perf). Left until the worker's next idle
/// moment: what other workers free into its pages after it went idle, and what it freed
/// in a last stretch of under a millisecond right after a collection.
fn collect_when_idle() {
    WORKER.with(|worker| {
        let mut state = worker.get();
        let now = Instant::now();
        if let Some(woke) = state.woke.take() {
            state.worked += now.duration_since(woke);
        }
        let due = state.worked >= COLLECT_AFTER_WORK
            || state.collected.is_none_or(|last| now.duration_since(last) >= COLLECT_INTERVAL);
        if due {
            // SAFETY: `mi_collect` takes a flag and no pointer; it works on the calling
            // thread's own heap, which is mimalloc's global allocator here.
            #[allow(unsafe_code)]
            unsafe {
                libmimalloc_sys::mi_collect(false);
            }
            state.collected = Some(now);
            state.worked = Duration::ZERO;
        }
        worker.set(state);
    });
}
