//! A server binary run as a child process for smoke tests: its stderr read line by line
//! on a thread, waited for with a timeout, and signals sent with `kill`.

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
}

impl Server {
    /// Starts `program` with `args`, its stderr piped to this handle.
    #[track_caller]
    pub fn start(program: &str, args: &[&str]) -> Server {
        let mut child = Command::new(program)
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {program}: {err}"));
        let stderr = child.stderr.take().expect("stderr is piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        Server { child, lines }
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
}

impl Server {
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
}

impl Server {
    /// Sends SIGTERM and waits for the exit: how long it took, and whether it was
    /// status 0.
    #[track_caller]
    pub fn terminate_timed(mut self) -> (Duration, bool) {
        let started = std::time::Instant::now();
        self.signal("TERM");
        let status = self.child.wait().expect("wait for the server");
        (started.elapsed(), status.success())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
