//! Tests for `serve::shutdown_signal` and `serve::reload_loop`, by signalling this test
//! process. Each test first installs its own handler for the signal it sends, so the
//! signal can never take the default action (terminating the test binary).

use std::{
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use tokio::{
    signal::unix::{SignalKind, signal},
    sync::mpsc,
};

use crate::support::STUCK;

/// Sends `name` (e.g. `HUP`) to this process with the system's `kill`.
fn raise(name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(std::process::id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Lets just-spawned tasks run far enough to install their signal handlers.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(20)).await;
}

/// Starts a `reload_loop` whose reloads are numbered; returns the report channel.
fn numbered_reloads(
    poll: Option<Duration>,
) -> (tokio::task::JoinHandle<()>, mpsc::UnboundedReceiver<String>) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let count = Arc::new(AtomicUsize::new(0));
    let task = tokio::spawn(serve::reload_loop(
        move || format!("reload {}", count.fetch_add(1, Ordering::SeqCst) + 1),
        poll,
        move |line| {
            let _ = sender.send(line);
        },
    ));
    (task, receiver)
}

async fn next(receiver: &mut mpsc::UnboundedReceiver<String>) -> String {
    tokio::time::timeout(STUCK, receiver.recv()).await.expect("no report in time").unwrap()
}

#[tokio::test]
async fn reload_runs_on_a_timer() {
    let (task, mut reports) = numbered_reloads(Some(Duration::from_millis(20)));
    assert_eq!(next(&mut reports).await, "reload 1");
    assert_eq!(next(&mut reports).await, "reload 2");
    task.abort();
}

#[tokio::test]
async fn reload_runs_on_sighup() {
    let _keep_alive = signal(SignalKind::hangup()).unwrap();
    let (task, mut reports) = numbered_reloads(None);
    settle().await;
    assert!(reports.is_empty(), "reloaded without a trigger");
    raise("HUP");
    assert_eq!(next(&mut reports).await, "reload 1");
    task.abort();
}

#[tokio::test]
async fn shutdown_signal_resolves_on_sigterm() {
    let _keep_alive = signal(SignalKind::terminate()).unwrap();
    let waiting = tokio::spawn(serve::shutdown_signal());
    settle().await;
    assert!(!waiting.is_finished());
    raise("TERM");
    tokio::time::timeout(STUCK, waiting).await.expect("no shutdown on SIGTERM").unwrap();
}
