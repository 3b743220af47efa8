//! Memory freed on a worker of the servers' runtime leaves the process's resident set
//! once the process is idle: no later allocation is needed to trigger it.
//!
//! A bound on resident memory, so the test is ignored by `cargo test` and run by
//! `scripts/memory-check.sh` (`--ignored`, alone in its process).

use std::time::Duration;

use test_support::process::rss_kib;

#[test]
#[ignore = "resident memory: run by scripts/memory-check.sh"]
fn freed_request_sized_buffers_leave_the_resident_set_once_idle() {
    let (before, held, after) = launcher::block_on_workers(async {
        // Warm up: the allocator's own structures for this worker.
        drop(vec![1u8; 1 << 20]);
        tokio::time::sleep(Duration::from_millis(300)).await;
        let before = rss_kib();
        // 48 bodies of ~1 MB, written to so that their pages are resident.
        let buffers: Vec<Vec<u8>> = (0..48).map(|i| vec![i as u8 | 1; 930_000]).collect();
        let held = rss_kib();
        drop(buffers);
        // Idle: the workers collect their heaps (within 150 ms of the last work).
        tokio::time::sleep(Duration::from_millis(300)).await;
        (before, held, rss_kib())
    })
    .expect("a runtime");
    assert!(held >= before + 40 * 1024, "the buffers should be resident: {before} -> {held} KiB");
    assert!(
        after <= before + 4 * 1024,
        "RSS {before} KiB before, {held} KiB holding 45 MB, {after} KiB once idle after freeing it"
    );
}
