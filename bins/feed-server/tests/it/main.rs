//! Smoke tests of the `feed-server` process: port 0, SIGHUP reload, SIGTERM drain,
//! flag conflicts. Loopback only.

use std::process::Command;

use test_support::{http::get_blocking, process::Server, write_day};

fn start(args: &[&str]) -> Server {
    Server::start(env!("CARGO_BIN_EXE_feed-server"), args)
}

#[test]
fn serves_reloads_on_sighup_and_drains_on_sigterm() {
    let dir = std::env::temp_dir().join(format!("feed-server-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_day(&dir, "2026-11-20", |_, text| text);
    let server =
        start(&["--listen", "127.0.0.1:0", "--history", dir.to_str().unwrap(), "--poll-secs", "0"]);
    let addr = server.listening_addr();
    let health = get_blocking(&addr, "/health");
    assert_eq!(health.status, 200, "{health:?}");
    assert_eq!(health.json()["ts"], "2026-11-20T00:00:00Z");

    write_day(&dir, "2026-11-21", |_, text| text);
    server.signal("HUP");
    server.line("reload accepted: now serving snapshot 2026-11-21T00:00:00Z");
    assert!(get_blocking(&addr, "/index.json").text().contains("2026-11-21T00:00:00Z"));

    server.stop_gracefully();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_and_history_are_exclusive() {
    let output = Command::new(env!("CARGO_BIN_EXE_feed-server"))
        .args(["--snapshot", "a", "--history", "b"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot be used with"));
}

#[test]
fn an_invalid_snapshot_fails_at_startup() {
    let output = Command::new(env!("CARGO_BIN_EXE_feed-server"))
        .args(["--listen", "127.0.0.1:0", "--snapshot", "/nonexistent/snapshot"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("feed-server: error: "), "{stderr}");
    assert!(!stderr.contains("listening"), "{stderr}");
}
