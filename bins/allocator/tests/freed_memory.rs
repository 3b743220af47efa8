//! Memory freed after [`allocator::return_freed_memory_at_once`] leaves the process's
//! resident set in the same call: no later allocation is needed to trigger it.
//!
//! A bound on resident memory, so the test is ignored by `cargo test` and run by
//! `scripts/memory-check.sh` (`--ignored`, alone in its process).

/// The resident set of this process, in KiB.
fn rss_kib() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("reading /proc/self/status");
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).expect("a VmRSS line");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a VmRSS figure")
}

#[test]
#[ignore = "resident memory: run by scripts/memory-check.sh"]
fn freed_request_sized_buffers_leave_the_resident_set_at_once() {
    if std::env::var_os(allocator::PURGE_DELAY_VARIABLE).is_some() {
        eprintln!("{} is set, and it wins: nothing to check", allocator::PURGE_DELAY_VARIABLE);
        return;
    }
    allocator::return_freed_memory_at_once();
    // Warm up: the allocator's own structures for this thread.
    drop(vec![1u8; 1 << 20]);
    let before = rss_kib();
    // 48 bodies of ~1 MB, written to so that their pages are resident.
    let buffers: Vec<Vec<u8>> = (0..48).map(|i| vec![i as u8 | 1; 930_000]).collect();
    let held = rss_kib();
    assert!(held >= before + 40 * 1024, "the buffers should be resident: {before} -> {held} KiB");
    drop(buffers);
    let after = rss_kib();
    assert!(
        after <= before + 4 * 1024,
        "RSS {before} KiB before, {held} KiB holding 45 MB, {after} KiB right after freeing it"
    );
}
