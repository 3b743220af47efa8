//! Tests for `launcher::shutdown_signal` and `launcher::spawn_reloads`, by signalling this test
//! process. Each test first installs its own handler for the signal it sends, so the
//! signal can never take the default action (terminating the test binary).

use std::{process::Command, sync::Arc, time::Duration};

use test_support::TempDir;
use tokio::{
    signal::unix::{SignalKind, signal},
    sync::mpsc,
};

/// Long enough for anything that works; only a hang waits this long.
const STUCK: Duration = Duration::from_secs(2);

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

/// A history folder holding `2026-11-19`, removed when dropped.
fn history_dir(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    test_support::write_day(&dir.0, "2026-11-19", |_, text| text);
    dir
}

/// The `Live` over `history`, loaded now.
fn open(history: &TempDir) -> Arc<datasets::Live> {
    let source = datasets::Source::History(history.0.clone());
    Arc::new(datasets::Live::open(source).unwrap().0)
}

/// Starts the reload loop of `live` on `hangups`; returns the report channel.
fn start(
    live: Arc<datasets::Live>,
    poll: Option<Duration>,
    hangups: launcher::Hangups,
) -> (launcher::Reloads, mpsc::UnboundedReceiver<String>) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let reloads = launcher::spawn_reloads(live, poll, hangups, move |outcome| {
        let _ = sender.send(outcome.to_string());
    });
    (reloads, receiver)
}

async fn next(receiver: &mut mpsc::UnboundedReceiver<String>) -> String {
    tokio::time::timeout(STUCK, receiver.recv()).await.expect("no report in time").unwrap()
}

/// The next report that is news: quiet reloads (`reload kept snapshot TS`, nothing
/// skipped) are passed over.
async fn next_news(receiver: &mut mpsc::UnboundedReceiver<String>) -> String {
    loop {
        let line = next(receiver).await;
        let quiet = line.starts_with("reload kept snapshot ") && !line.contains(';');
        if !quiet {
            return line;
        }
    }
}

/// The timer reloads, and every outcome is reported: the news, and the quiet reloads in
/// between (the folder unchanged) that metrics count.
#[tokio::test]
async fn reload_runs_on_a_timer_and_reports_every_outcome() {
    let history = history_dir("timer");
    let poll = Some(Duration::from_millis(20));
    let (_reloads, mut reports) = start(open(&history), poll, launcher::Hangups::install());
    settle().await;
    test_support::write_day(&history.0, "2026-11-20", |_, text| text);
    let line = next_news(&mut reports).await;
    assert_eq!(line, "reload accepted: now serving snapshot 2026-11-20T00:00:00Z (2 days)");
    test_support::write_day(&history.0, "2026-11-21", |_, text| text);
    let line = next_news(&mut reports).await;
    assert_eq!(line, "reload accepted: now serving snapshot 2026-11-21T00:00:00Z (3 days)");
    // Nothing changes now: the next poll keeps the same history, and says so.
    let line = next(&mut reports).await;
    assert_eq!(line, "reload kept snapshot 2026-11-21T00:00:00Z");
}

/// One test for the SIGHUPs, which reach the whole test binary: one received between
/// `Hangups::install` and the loop's start (a binary loading its data) reloads once the
/// loop runs; later ones reload each; none after the loop is dropped.
#[tokio::test]
async fn reload_runs_on_sighup_even_one_sent_before_the_loop_started() {
    let _keep_alive = signal(SignalKind::hangup()).unwrap();
    let history = history_dir("hup");
    let hangups = launcher::Hangups::install();
    let live = open(&history);
    test_support::write_day(&history.0, "2026-11-20", |_, text| text);
    raise("HUP");
    settle().await;
    let (reloads, mut reports) = start(live, None, hangups);
    let line = next(&mut reports).await;
    assert_eq!(line, "reload accepted: now serving snapshot 2026-11-20T00:00:00Z (2 days)");

    test_support::write_day(&history.0, "2026-11-21", |_, text| text);
    settle().await;
    assert!(reports.is_empty(), "reloaded without a trigger");
    raise("HUP");
    let line = next(&mut reports).await;
    assert_eq!(line, "reload accepted: now serving snapshot 2026-11-21T00:00:00Z (3 days)");
    drop(reloads);
    settle().await;
    test_support::write_day(&history.0, "2026-11-22", |_, text| text);
    raise("HUP");
    settle().await;
    // The loop is gone with its report callback: the channel closes with nothing in it.
    let after = tokio::time::timeout(STUCK, reports.recv()).await.unwrap();
    assert_eq!(after, None, "reloaded after the drop");
}

/// One test for both cases: a SIGTERM reaches the whole test binary, so two tests
/// raising it at once would resolve each other's futures.
#[tokio::test]
async fn shutdown_signal_resolves_on_sigterm_even_before_its_first_poll() {
    let _keep_alive = signal(SignalKind::terminate()).unwrap();

    let waiting = tokio::spawn(launcher::shutdown_signal());
    settle().await;
    assert!(!waiting.is_finished());
    raise("TERM");
    tokio::time::timeout(STUCK, waiting).await.expect("no shutdown on SIGTERM").unwrap();

    // The handlers are installed by the call: without that, this SIGTERM would be lost
    // (the guard above keeps it from terminating the test binary) and the future would wait.
    let shutdown = launcher::shutdown_signal();
    raise("TERM");
    settle().await;
    tokio::time::timeout(STUCK, shutdown).await.expect("a SIGTERM before the first poll was lost");
}
