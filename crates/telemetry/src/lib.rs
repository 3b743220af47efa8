//! How the binaries write what the libraries report: structured logs through `tracing`,
//! and Prometheus metrics ([`Metrics`]).
//!
//! The libraries never log: `serve` reports [`serve::Event`]s, `datasets` reports
//! [`datasets::Reload`] outcomes and [`datasets::Skipped`] days. The three binaries hand
//! them to the functions here, which turn each into one `tracing` event with typed fields;
//! [`init_logs`] decides how events are written: to stderr, one line each, with a UTC
//! timestamp and a level, as text or JSON, filtered like `RUST_LOG` (default `info`),
//! from a thread of their own ([`Logs`]): no request waits on stderr.
//!
//! Targets: `dcx` for the service's life (start-up, reloads, shutdown), `dcx::access` for
//! the per-request events (`--access-log`), `dcx::connection` for connection-level
//! trouble. `RUST_LOG=info,dcx::access=off` keeps everything but the access log.
//!
//! [`Metrics`] counts the same reports (the server events, reload outcomes, and the tool
//! server's `tools::ToolCalled`) and reads the live data at scrape time; a binary serves
//! [`Metrics::render`] on its `--metrics-listen` address.
#![warn(missing_docs)]

mod access;
mod metrics;
mod writer;

use std::{
    fmt,
    str::FromStr,
    sync::{OnceLock, mpsc},
    thread::JoinHandle,
    time::Duration,
};

use tracing::{debug, error, info, trace, warn};
use tracing_appender::non_blocking::{ErrorCounter, WorkerGuard};
use tracing_subscriber::{EnvFilter, fmt::format::FmtSpan};

#[cfg(test)]
mod tests;

pub use crate::metrics::{CONTENT_TYPE, Metrics, ServerMetrics};
use crate::writer::{LogClock, Paced};

/// The filter when `RUST_LOG` is unset or empty.
pub const DEFAULT_FILTER: &str = "info";

/// How log events are written, `--log-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One human-readable line per event: `2026-11-23T10:00:00.123456Z  INFO dcx: ...`.
    #[default]
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, `fields`.
    Json,
}

impl FromStr for LogFormat {
    type Err = String;

    fn from_str(text: &str) -> Result<LogFormat, String> {
        match text {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(format!("unknown log format {other:?}: use text or json")),
        }
    }
}

impl fmt::Display for LogFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        })
    }
}

/// The filter of `RUST_LOG` (unset or empty: [`DEFAULT_FILTER`]); an invalid one is an
/// error that names it.
pub fn filter(rust_log: Option<&str>) -> Result<EnvFilter, String> {
    let directives = rust_log.map(str::trim).filter(|text| !text.is_empty());
    EnvFilter::builder().parse(directives.unwrap_or(DEFAULT_FILTER)).map_err(|err| {
        format!("RUST_LOG {:?} is not a valid filter: {err}", directives.unwrap_or(""))
    })
}

/// How many log lines may wait for stderr: about 4 MiB of access-log lines, a fifth of a
/// second of a tool server's full load. Beyond it lines are dropped, and counted.
pub const QUEUED_LINES: usize = 16_384;

/// The drop count of the process's log writer, set by the [`init_logs`] that installed
/// it: the metrics read it (`dcx_log_lines_dropped_total`).
static DROPPED_LINES: OnceLock<ErrorCounter> = OnceLock::new();

/// Log lines the process's writer has dropped so far (0 before [`init_logs`]).
pub(crate) fn dropped_log_lines() -> u64 {
    DROPPED_LINES.get().map_or(0, |dropped| dropped.dropped_lines() as u64)
}

/// The process's log writer ([`init_logs`]). Lines are formatted where they happen and
/// handed to a thread of their own, which writes them to stderr in batches: a request
/// never waits on stderr, and a reader that stops reading (a full pipe, a stalled log
/// shipper) never stops a server. When [`QUEUED_LINES`] wait, further lines are dropped
/// and counted, and a warning says how many so far once stderr takes lines again. Keep it
/// for the process's life: dropping it writes what is still queued, waiting at most about
/// a second.
#[derive(Debug)]
#[must_use = "dropping it stops the log writer"]
pub struct Logs {
    /// Dropped first: its thread sees the channel close, says what is unsaid and ends.
    stop: Option<mpsc::Sender<()>>,
    notices: Option<JoinHandle<()>>,
    /// Dropped after the notice thread has ended: writes what is queued, its last notice
    /// too.
    _writer: WorkerGuard,
}

impl Drop for Logs {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(notices) = self.notices.take() {
            let _ = notices.join();
        }
    }
}

/// Installs the process-wide log writer: stderr (from a thread of its own: [`Logs`]), UTC
/// timestamps (RFC 3339), levels, `filter` (see [`filter`]), as `format`. Call once, first
/// thing in `main`, and keep what it returns.
pub fn init_logs(format: LogFormat, filter: EnvFilter) -> Logs {
    // Batches: the writer thread flushes once it has written every line queued, at most
    // once per `FLUSH_EVERY`.
    let stderr = Paced::new(std::io::stderr());
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(QUEUED_LINES)
        .lossy(true)
        .thread_name("log-writer")
        .finish(stderr);
    let dropped = writer.error_counter();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .with_span_events(FmtSpan::NONE);
    let clock = LogClock::SYSTEM;
    // A second call (tests) keeps the first writer, and the metrics its count.
    let installed = match format {
        LogFormat::Text => {
            let other = tracing_subscriber::fmt::format().with_ansi(false).with_timer(clock);
            builder.event_format(access::Lines::new(access::Shape::Text, other, clock)).try_init()
        }
        LogFormat::Json => {
            let other =
                tracing_subscriber::fmt::format().json().flatten_event(true).with_timer(clock);
            let lines = access::Lines::new(access::Shape::Json, other, clock);
            builder.json().event_format(lines).try_init()
        }
    };
    if installed.is_ok() {
        let _ = DROPPED_LINES.set(dropped.clone());
    }
    let (stop, stopped) = mpsc::channel();
    let notices = spawn_drop_notices(dropped, stopped);
    Logs { stop: Some(stop), notices, _writer: guard }
}

/// Says how many lines were dropped since the start, once the count has grown and then
/// held still for a second (stderr takes lines again, or nothing more is logged), and
/// once more at the end if it grew since. The total, not the lines since the last
/// warning: a warning dropped too (stderr still stalled) is counted itself, and the next
/// one says it all. Ends when `stopped`'s sender is dropped.
fn spawn_drop_notices(
    dropped: ErrorCounter,
    stopped: mpsc::Receiver<()>,
) -> Option<JoinHandle<()>> {
    let notices = move || {
        let (mut said, mut last) = (0, 0);
        loop {
            let finished = matches!(
                stopped.recv_timeout(Duration::from_secs(1)),
                Err(mpsc::RecvTimeoutError::Disconnected)
            );
            let now = dropped.dropped_lines();
            if now > said && (now == last || finished) {
                warn!(
                    target: "dcx",
                    dropped = now,
                    "{now} log lines dropped since the start: stderr did not take them as \
                     fast as they came"
                );
                said = now;
            }
            last = now;
            if finished {
                return;
            }
        }
    };
    // Without the thread the lines are still written; only the notice is lost.
    std::thread::Builder::new().name("log-notices".to_owned()).spawn(notices).ok()
}

/// Start-up: what is served, from where, by which version.
pub fn started(server: &str, version: &str, live: &datasets::Live) {
    let history = live.history();
    let source = match live.source() {
        datasets::Source::Embedded => "embedded reference snapshot".to_owned(),
        datasets::Source::Snapshot(dir) => format!("snapshot {}", dir.display()),
        datasets::Source::History(dir) => format!("history {}", dir.display()),
    };
    info!(
        target: "dcx",
        server,
        version,
        source,
        snapshot = history.live().ts_text(),
        days = history.days().len(),
        "started {server} {version}: {}",
        live.serving_note()
    );
}

/// A remark worth an operator's eye at start-up (the data served is sample data, say).
pub fn note(server: &str, note: &str) {
    warn!(target: "dcx", server, "{note}");
}

/// A history day left out at start-up or on a reload.
pub fn skipped(server: &str, day: &datasets::Skipped) {
    warn!(target: "dcx", server, day = %day.date, reason = %day.reason, "{day}");
}

/// A reload's outcome: accepted (info), rolled back and refused (warn), kept (debug);
/// nothing for a quiet one (kept, nothing newly skipped).
pub fn reload(server: &str, outcome: &datasets::Reload) {
    if !outcome.is_news() {
        return;
    }
    match outcome {
        datasets::Reload::Accepted { serving, days, skipped: left_out } => {
            info!(target: "dcx", server, snapshot = %serving, days, "{outcome}");
            left_out.iter().for_each(|day| skipped(server, day));
        }
        datasets::Reload::Kept { serving, skipped: left_out } => {
            debug!(target: "dcx", server, snapshot = %serving, "{outcome}");
            left_out.iter().for_each(|day| skipped(server, day));
        }
        datasets::Reload::RolledBack { serving, days, skipped: left_out, .. } => {
            warn!(target: "dcx", server, snapshot = %serving, days, "{outcome}");
            left_out.iter().for_each(|day| skipped(server, day));
        }
        datasets::Reload::Refused { serving, reason } => {
            warn!(target: "dcx", server, snapshot = %serving, reason = %reason, "{outcome}");
        }
    }
}

/// One event of a server (`serve`): its life at info, trouble at warn, connection-level
/// noise at debug, requests on `dcx::access`.
pub fn server_event(server: &str, event: &serve::Event<'_>) {
    use serve::Event;
    match event {
        Event::Listening(addr) => info!(target: "dcx", server, listen = %addr, "{event}"),
        Event::AcceptFailed(err) => warn!(target: "dcx", server, error = %err, "{event}"),
        Event::Refused { peer, cap, reason } => {
            let cap = cap.label();
            warn!(target: "dcx::connection", server, client = %peer, cap, reason, "{event}");
        }
        Event::RateLimited { client } => {
            debug!(target: "dcx::connection", server, client = %client, "{event}");
        }
        Event::Opened | Event::Closed => trace!(target: "dcx::connection", server, "{event}"),
        // The access log and the metrics say it.
        Event::Answered { .. } => {}
        Event::ConnectionFailed(err) => {
            debug!(target: "dcx::connection", server, error = %err, "{event}");
        }
        Event::ShutdownBegun | Event::Drained => info!(target: "dcx", server, "{event}"),
        Event::DrainTimedOut => warn!(target: "dcx", server, "{event}"),
        Event::Access { method, path, query, status, bytes, micros, peer, client, user_agent } => {
            info!(
                target: access::TARGET,
                server,
                method = %method,
                path,
                query = query.unwrap_or(""),
                status,
                bytes,
                duration_us = micros,
                client = %client,
                peer = %peer,
                user_agent = user_agent.unwrap_or(""),
                "request"
            );
        }
    }
}

/// The reload callback of a binary (`launcher::spawn_reloads`): each outcome logged
/// ([`reload`]) and, with metrics on, counted ([`Metrics::reload`]).
pub fn on_reload(
    server: &'static str,
    metrics: Option<std::sync::Arc<Metrics>>,
) -> impl Fn(&datasets::Reload) + Send + Sync + 'static {
    move |outcome| {
        // Counted before it is logged: whoever reads the log line and then `/metrics`
        // (the dcx serve test does) sees the reload counted.
        if let Some(metrics) = &metrics {
            metrics.reload(outcome);
        }
        reload(server, outcome);
    }
}

/// The event callback of one server: each event logged as `server` ([`server_event`])
/// and, with metrics on, counted in its tables ([`ServerMetrics::record`]).
pub fn on_event(
    server: &'static str,
    metrics: Option<std::sync::Arc<ServerMetrics>>,
) -> impl Fn(&serve::Event<'_>) + Send + Sync + 'static {
    move |event| {
        server_event(server, event);
        if let Some(metrics) = &metrics {
            metrics.record(event);
        }
    }
}

/// The metrics endpoint is up (`--metrics-listen`): logged by the binary before its
/// servers start, so that it never comes between them and their `listening on` lines.
pub fn metrics_listening(addr: std::net::SocketAddr) {
    info!(target: "dcx", server = "metrics", listen = %addr, "metrics at http://{addr}/metrics");
}

/// A fatal error, with its causes ([`serve::ErrorReport`]), just before the process exits.
pub fn fatal(server: &str, err: &(dyn std::error::Error + 'static)) {
    error!(target: "dcx", server, "error: {}", serve::ErrorReport(err));
}
