//! The servers' tokio runtime, whose workers collect their heaps ([`allocator::collect`])
//! once the process has been idle a while: not per request, not while it works.
//!
//! A page that held a connection's buffers becomes free only when the thread that owns
//! it collects the frees other threads made into it, which mimalloc does when that thread
//! next allocates from the page: a worker gone idle would keep them (docs/reliability.md,
//! "Memory").

use std::{
    cell::Cell,
    io,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

/// How often the watcher looks at the workers' activity.
const LOOK_EVERY: Duration = Duration::from_millis(50);
/// Looks in a row with no worker woken before the process counts as idle: no request
/// for 100 to 150 ms.
const QUIET_LOOKS: u32 = 2;

/// Worker wake-ups so far (tokio's `on_thread_unpark`): any work, a request or a timer.
static WAKE_UPS: AtomicU64 = AtomicU64::new(0);
/// Collections asked for so far: a worker that parks behind it collects its heap.
static COLLECTIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The collections this worker has done its part of.
    static COLLECTED: Cell<u64> = const { Cell::new(0) };
}

/// Runs `future` to completion on the servers' tokio runtime (multi-threaded, I/O and
/// time on); a panic in it panics here. The future runs on a worker, not on the
/// calling thread (which has no park hook, so nothing else runs there).
///
/// A watcher thread looks at the workers every `LOOK_EVERY`: once they have done
/// work and then none for `QUIET_LOOKS` looks in a row, it asks for a collection and
/// wakes every worker; each collects its heap as it parks again, once.
pub fn block_on_workers<F>(future: F) -> io::Result<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_unpark(|| {
            WAKE_UPS.fetch_add(1, Ordering::Relaxed);
        })
        .on_thread_park(collect_if_asked)
        .build()?;
    let workers = runtime.metrics().num_workers();
    let handle = runtime.handle().clone();
    let running = Arc::new(AtomicBool::new(true));
    let watching = Arc::clone(&running);
    std::thread::Builder::new()
        .name("idle-collector".to_owned())
        .spawn(move || watch(&handle, workers, &watching))?;
    let task = runtime.spawn(future);
    let ended = runtime.block_on(task);
    running.store(false, Ordering::Relaxed);
    match ended {
        Ok(output) => Ok(output),
        Err(err) => match err.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(err) => Err(io::Error::other(err)),
        },
    }
}

/// A worker runs out of work (tokio's `on_thread_park`): it collects its heap when a
/// collection was asked for since it last did.
fn collect_if_asked() {
    let asked = COLLECTIONS.load(Ordering::Relaxed);
    COLLECTED.with(|done| {
        if done.get() != asked {
            allocator::collect();
            done.set(asked);
        }
    });
}

/// The watcher: asks for a collection once the workers have been quiet for
/// [`QUIET_LOOKS`] looks after some work, then wakes them (`workers` small tasks; each
/// worker that picks one up parks again, and collects). Ends when `running` turns false.
fn watch(handle: &tokio::runtime::Handle, workers: usize, running: &AtomicBool) {
    let mut seen = WAKE_UPS.load(Ordering::Relaxed);
    let (mut quiet, mut collected) = (0, true);
    while running.load(Ordering::Relaxed) {
        std::thread::sleep(LOOK_EVERY);
        let now = WAKE_UPS.load(Ordering::Relaxed);
        if now != seen {
            (seen, quiet, collected) = (now, 0, false);
            continue;
        }
        quiet += 1;
        if collected || quiet < QUIET_LOOKS {
            continue;
        }
        COLLECTIONS.fetch_add(1, Ordering::Relaxed);
        // Tasks that hold their worker a moment, so that the next one goes to another
        // worker rather than queueing behind it.
        let wakes: Vec<_> = (0..workers)
            .map(|_| handle.spawn(async { std::thread::sleep(Duration::from_millis(1)) }))
            .collect();
        // The wake-ups they cause are the watcher's own, not work: counted once they ran.
        for _ in 0..200 {
            if wakes.iter().all(tokio::task::JoinHandle::is_finished) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        (seen, collected) = (WAKE_UPS.load(Ordering::Relaxed), true);
    }
}
