//! Smoke tests of the `feed-server` process: port 0, SIGHUP reload, SIGTERM drain,
//! flag conflicts. Loopback only.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::Path,
    process::{Child, ChildStderr, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

const STUCK: Duration = Duration::from_secs(10);

/// The server process and its stderr lines, read on a thread.
struct Process {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Process {
    fn start(args: &[&str]) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_feed-server"))
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr: ChildStderr = child.stderr.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        Process { child, lines }
    }

    /// Waits for a stderr line containing `needle` and returns it.
    #[track_caller]
    fn line(&self, needle: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(STUCK)
                .unwrap_or_else(|_| panic!("no line with {needle:?}"));
            if line.contains(needle) {
                return line;
            }
        }
    }

    fn signal(&self, name: &str) {
        let status =
            Command::new("kill").args([&format!("-{name}"), &self.child.id().to_string()]).status();
        assert!(status.unwrap().success());
    }
}

/// `GET path` over a fresh connection with `Connection: close`; the raw response.
fn get(addr: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(STUCK)).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    out
}

fn write_day(dir: &Path, date: &str) {
    let day = dir.join(date);
    std::fs::create_dir_all(&day).unwrap();
    for name in
        ["matrix.json", "matrix_cushion.json", "ratio_models.json", "index.json", "depth.json"]
    {
        let text = test_support::fixture(&format!("snapshot/{name}"));
        std::fs::write(
            day.join(name),
            text.replace("2026-11-20T00:00:00Z", &format!("{date}T00:00:00Z")),
        )
        .unwrap();
    }
}

#[test]
fn serves_reloads_on_sighup_and_drains_on_sigterm() {
    let dir = std::env::temp_dir().join(format!("feed-server-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_day(&dir, "2026-11-20");
    let mut server = Process::start(&[
        "--listen",
        "127.0.0.1:0",
        "--history",
        dir.to_str().unwrap(),
        "--poll-secs",
        "0",
    ]);
    let listening = server.line("listening on http://127.0.0.1:");
    let addr = listening.rsplit("http://").next().unwrap().to_owned();
    let health = get(&addr, "/health");
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.contains("\"ts\":\"2026-11-20T00:00:00Z\""), "{health}");

    write_day(&dir, "2026-11-21");
    server.signal("HUP");
    server.line("reload accepted: now serving snapshot 2026-11-21T00:00:00Z");
    assert!(get(&addr, "/index.json").contains("2026-11-21T00:00:00Z"));

    server.signal("TERM");
    server.line("shutdown begun");
    server.line("drained");
    assert!(server.child.wait().unwrap().success());
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
