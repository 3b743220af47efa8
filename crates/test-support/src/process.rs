//! A server binary run as a child process for smoke tests: its stderr read line by line
//! on a thread, waited for with a timeout, signals sent with `kill`, and the SIGHUP
//! smoke test every server shares; and this process's resident set, read from `/proc`.

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

/// How long a test waits for an expected stderr line before it fails.
pub const LINE_WAIT: Duration = Duration::from_secs(10);

/// A running server process and its stderr lines. Killed when dropped.
pub struct Server {
    child: Child,
    lines: mpsc::Receiver<String>,
    /// Set by [`Server::start_stalling`]: what stderr's reader does once it stalls.
    then: Option<mpsc::Sender<Then>>,
}

/// What a stalled stderr reader ([`Server::start_stalling`]) does next.
enum Then {
    /// Reads on.
    Resume,
    /// Closes its end of the pipe: every later write to stderr fails.
    Close,
}

impl Server {
    /// Starts `program` with `args`, its stderr piped to this handle.
    #[track_caller]
    pub fn start(program: &str, args: &[&str]) -> Server {
        Server::spawn(program, args, None)
    }

    /// Starts `program` with `args` like [`Server::start`], but stops reading its stderr
    /// after the first line containing `stall_after` (that line is delivered), until
    /// [`Server::resume_reading`] or [`Server::close_stderr`]: once the pipe fills, every
    /// write to stderr would block.
    #[track_caller]
    pub fn start_stalling(program: &str, args: &[&str], stall_after: &str) -> Server {
        let (then, next) = mpsc::channel();
        let mut server = Server::spawn(program, args, Some((stall_after.to_owned(), next)));
        server.then = Some(then);
        server
    }

    /// Reads stderr again after [`Server::start_stalling`].
    pub fn resume_reading(&self) {
        if let Some(then) = &self.then {
            let _ = then.send(Then::Resume);
        }
    }

    /// Closes the reading end of stderr after [`Server::start_stalling`], as a log reader
    /// that exits does: the process's later writes to stderr fail (`EPIPE`).
    pub fn close_stderr(&self) {
        if let Some(then) = &self.then {
            let _ = then.send(Then::Close);
        }
    }

    #[track_caller]
    fn spawn(
        program: &str,
        args: &[&str],
        stall: Option<(String, mpsc::Receiver<Then>)>,
    ) -> Server {
        let mut child = Command::new(program)
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {program}: {err}"));
        let stderr = child.stderr.take().expect("stderr is piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stall = stall;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let stalls = stall.as_ref().is_some_and(|(after, _)| line.contains(after.as_str()));
                let _ = send.send(line);
                if stalls
                    && let Some((_, next)) = stall.take()
                    && let Ok(Then::Close) = next.recv()
                {
                    // Dropping the reader closes the pipe.
                    return;
                }
            }
        });
        Server { child, lines, then: None }
    }

    /// Waits (at most [`LINE_WAIT`]) for a stderr line containing `needle` and returns it.
    #[track_caller]
    pub fn line(&self, needle: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(LINE_WAIT)
                .unwrap_or_else(|_| panic!("no stderr line with {needle:?}"));
            if line.contains(needle) {
                return line;
            }
        }
    }

    /// Waits for the `listening on http://ADDR` line and returns `ADDR`.
    #[track_caller]
    pub fn listening_addr(&self) -> String {
        let line = self.line("listening on http://");
        let after = line.rsplit("http://").next().unwrap_or_default();
        // The address ends the URL: a log line may carry fields after it.
        after.split_whitespace().next().unwrap_or_default().trim_end_matches('/').to_owned()
    }

    /// Waits for the `metrics at http://ADDR/metrics` line (`--metrics-listen`, logged
    /// before the servers' `listening on` lines) and returns `ADDR`.
    #[track_caller]
    pub fn metrics_addr(&self) -> String {
        let line = self.line("metrics at http://");
        let after = line.rsplit("metrics at http://").next().unwrap_or_default();
        after.split('/').next().unwrap_or_default().to_owned()
    }

    /// Sends signal `name` (`HUP`, `TERM`, ...) to the process.
    #[track_caller]
    pub fn signal(&self, name: &str) {
        let status =
            Command::new("kill").args([&format!("-{name}"), &self.child.id().to_string()]).status();
        assert!(status.is_ok_and(|status| status.success()), "kill -{name} failed");
    }

    /// Sends SIGTERM and checks the graceful stop every server of the workspace makes:
    /// `shutdown begun`, then `drained` on stderr, then exit status 0.
    #[track_caller]
    pub fn stop_gracefully(mut self) {
        self.signal("TERM");
        self.line("shutdown begun");
        self.line("drained");
        let status = self.child.wait().expect("wait for the server");
        assert!(status.success(), "exit status {status}");
    }

    /// Sends SIGTERM and waits for the exit: how long it took, and whether it was
    /// status 0.
    #[track_caller]
    pub fn terminate_timed(mut self) -> (Duration, bool) {
        let started = std::time::Instant::now();
        self.signal("TERM");
        let status = self.child.wait().expect("wait for the server");
        (started.elapsed(), status.success())
    }

    /// Starts `program` with `args` and sends it SIGHUP as early as it can take one:
    /// as soon as `/proc` shows a handler for it (before that, even the shortest time
    /// after the exec, a SIGHUP would end any process). Fails if the process printed a
    /// line before then: its handler must be in place while its data loads, which
    /// comes before its first line. Linux only.
    #[track_caller]
    pub fn start_and_hang_up(program: &str, args: &[&str]) -> Server {
        let server = Server::start(program, args);
        let status = format!("/proc/{}/status", server.child.id());
        let started = std::time::Instant::now();
        while !handles_sighup(&std::fs::read_to_string(&status).unwrap_or_default()) {
            assert!(started.elapsed() < LINE_WAIT, "{program} never handled SIGHUP");
            std::thread::yield_now();
        }
        if let Ok(line) = server.lines.try_recv() {
            panic!("{program} handled SIGHUP only after it printed {line:?}");
        }
        server.signal("HUP");
        server
    }

    /// The smoke test every server binary shares: `program` with `args` and `--history`
    /// over a fresh folder of 120 days (polling off) gets a SIGHUP while it loads
    /// ([`Server::start_and_hang_up`]), then answers `GET /health` with 200 at the address
    /// `addr` reads from its stderr, and stops gracefully. Returns that answer.
    #[track_caller]
    pub fn hang_up_while_loading<A: FnOnce(&Server) -> String>(
        program: &str,
        args: &[&str],
        addr: A,
    ) -> crate::http::Reply {
        let dir = crate::TempDir::new(&format!("hup-{}", program.rsplit('/').next().unwrap()));
        write_history(&dir.0, 120);
        let history = ["--history", dir.0.to_str().unwrap(), "--poll-secs", "0"];
        let server = Server::start_and_hang_up(program, &[args, &history[..]].concat());
        let health = crate::http::get_blocking(&addr(&server), "/health");
        assert_eq!(health.status, 200, "{health:?}");
        server.stop_gracefully();
        health
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a `/proc/PID/status` text shows SIGHUP (signal 1, the lowest bit) caught or
/// ignored.
fn handles_sighup(status: &str) -> bool {
    status.lines().any(|line| {
        let mask = line.strip_prefix("SigCgt:").or_else(|| line.strip_prefix("SigIgn:"));
        mask.and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & 1 == 1)
    })
}

/// The resident set (`VmRSS`) of this process, in KiB, read from `/proc/self/status`.
/// Linux only.
#[track_caller]
pub fn rss_kib() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("reading /proc/self/status");
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).expect("a VmRSS line");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a VmRSS figure")
}

/// Writes a history of `days` days (at most 336: the 1st to the 28th of each month of
/// 2026) into `dir`, so that a server takes a while to load it.
#[track_caller]
pub fn write_history(dir: &std::path::Path, days: usize) {
    let _ = std::fs::remove_dir_all(dir);
    for index in 0..days.min(12 * 28) {
        let date = format!("2026-{:02}-{:02}", index / 28 + 1, index % 28 + 1);
        crate::write_day(dir, &date, |_, text| text);
    }
}
