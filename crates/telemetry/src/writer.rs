//! How log lines reach stderr: the clock that stamps each line ([`LogClock`]) and the
//! paced writer behind the writer thread ([`Paced`]).

use std::{fmt, time::Duration};

use tracing_subscriber::fmt::{format::Writer, time::FormatTime};

/// How often at most the log writer writes to stderr under a stream of lines.
pub(crate) const FLUSH_EVERY: Duration = Duration::from_millis(1);

/// The log writer's stderr: lines gathered in a buffer, written when the writer thread
/// has taken every queued line, but at most once per [`FLUSH_EVERY`]: a flush sooner than
/// that after the last one first waits out the rest, and the lines queued meanwhile go
/// out in the next write. A line alone is written at once. Why: docs/performance.md,
/// "What the access log costs".
pub(crate) struct Paced<W: std::io::Write> {
    pub(crate) buffer: std::io::BufWriter<W>,
    flushed: std::time::Instant,
}

impl<W: std::io::Write> Paced<W> {
    pub(crate) fn new(out: W) -> Paced<W> {
        let long_ago = std::time::Instant::now().checked_sub(FLUSH_EVERY);
        Paced {
            buffer: std::io::BufWriter::with_capacity(64 * 1024, out),
            flushed: long_ago.unwrap_or_else(std::time::Instant::now),
        }
    }
}

impl<W: std::io::Write> std::io::Write for Paced<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(wait) = FLUSH_EVERY.checked_sub(self.flushed.elapsed()) {
            std::thread::sleep(wait);
        }
        let flushed = self.buffer.flush();
        self.flushed = std::time::Instant::now();
        flushed
    }
}

/// The time of a log line: UTC to the microsecond with a `Z`, as tracing-subscriber's own
/// clock writes it (`2026-11-23T10:00:00.123456Z`), but with the date and time of day
/// written once per second per thread ([`words::utc`]), not per line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LogClock {
    /// The time now: the system clock, or a fixed one in tests.
    pub(crate) now: fn() -> std::time::SystemTime,
}

impl LogClock {
    /// The system clock.
    pub(crate) const SYSTEM: LogClock = LogClock { now: std::time::SystemTime::now };

    /// The time now as a log line writes it, or `None` outside 1970-9999.
    pub(crate) fn text(self) -> Option<words::UtcText> {
        words::utc((self.now)(), words::Fraction::Micros)
    }
}

impl FormatTime for LogClock {
    fn format_time(&self, writer: &mut Writer<'_>) -> fmt::Result {
        match self.text() {
            Some(text) => writer.write_str(text.as_str()),
            None => tracing_subscriber::fmt::time::SystemTime.format_time(writer),
        }
    }
}
