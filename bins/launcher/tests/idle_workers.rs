//! The servers' runtime hands back what a burst of connections left in its workers'
//! heaps once the workers are idle, with no further allocation to trigger it: RSS comes
//! back to the same level after every burst.
//!
//! A bound on resident memory, so the test is ignored by `cargo test` and run by
//! `scripts/memory-check.sh` (`--ignored`, alone in its process).

use std::time::Duration;

use test_support::process::rss_kib;

/// A burst like 1,000 connections: each task allocates a connection's buffers on one
/// worker and hands them to another task, which frees them wherever it runs.
async fn burst() {
    let (send, mut receive) = tokio::sync::mpsc::unbounded_channel::<Vec<Vec<u8>>>();
    let freeing = tokio::spawn(async move {
        while let Some(buffers) = receive.recv().await {
            tokio::spawn(async move { drop(buffers) });
        }
    });
    let tasks: Vec<_> = (0..1000)
        .map(|i| {
            let send = send.clone();
            tokio::spawn(async move {
                let buffers = vec![vec![i as u8 | 1; 8 * 1024], vec![1; 8 * 1024], vec![2; 400]];
                tokio::task::yield_now().await;
                send.send(buffers).expect("the freeing task is running");
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("a burst task");
    }
    drop(send);
    freeing.await.expect("the freeing task");
}

#[test]
#[ignore = "resident memory: run by scripts/memory-check.sh"]
fn idle_workers_hand_back_what_a_burst_left() {
    let (before, after_each) = launcher::block_on_workers(async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let before = rss_kib();
        let mut after_each = Vec::new();
        for _ in 0..8 {
            burst().await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            after_each.push(rss_kib());
        }
        (before, after_each)
    })
    .expect("a runtime");
    // The level the bursts come back to is where the process was before them (each
    // holds ~16 MiB), in the median: one reading may stray, since a worker can go idle
    // before the last frees other workers made into its pages, and keep those until it
    // next runs out of work (docs/reliability.md, "Memory").
    let mut sorted = after_each.clone();
    sorted.sort_unstable();
    let (lowest, median) = (sorted[0], sorted[sorted.len() / 2]);
    assert!(
        median <= lowest + 512 && median <= before + 1024,
        "RSS {before} KiB before the bursts, after each (KiB): {after_each:?}; the median \
         should be within 512 KiB of the lowest and 1 MiB of the level before"
    );
}
