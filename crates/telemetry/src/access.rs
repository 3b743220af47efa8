//! The access log's lines written straight, byte for byte as tracing-subscriber's text and
//! JSON formats write them, without a `core::fmt` call per field ([`Lines`]): an access
//! line is written on every request. Any other event, and an access event with anything
//! unusual in it (a value with a control or non-ASCII character, a span, another level),
//! goes to tracing-subscriber's own format.

use std::{cell::RefCell, fmt, io::Write as _};

use tracing::{
    Event, Level, Subscriber,
    field::{Field, Visit},
};
use tracing_subscriber::{
    fmt::{FmtContext, FormatEvent, FormatFields, format::Writer},
    registry::LookupSpan,
};

use crate::writer::LogClock;

/// The target of the access events (`--access-log`).
pub(crate) const TARGET: &str = "dcx::access";

/// The two line formats of `--log-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `2026-11-23T10:00:00.123456Z  INFO dcx::access: request server="…" status=200 …`.
    Text,
    /// `{"timestamp":"…","level":"INFO","message":"request",…,"target":"dcx::access"}`.
    Json,
}

/// An event format that writes access lines itself and hands every other event to
/// `other`, the tracing-subscriber format of the same [`Shape`].
#[derive(Debug)]
pub(crate) struct Lines<F> {
    shape: Shape,
    other: F,
    clock: LogClock,
}

impl<F> Lines<F> {
    /// Access lines of `shape` stamped by `clock`, other events written by `other`.
    pub(crate) fn new(shape: Shape, other: F, clock: LogClock) -> Lines<F> {
        Lines { shape, other, clock }
    }
}

impl<S, N, F> FormatEvent<S, N> for Lines<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        thread_local! {
            static LINE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        }
        let meta = event.metadata();
        if meta.target() == TARGET && *meta.level() == Level::INFO && ctx.lookup_current().is_none()
        {
            let written = LINE.with_borrow_mut(|line| {
                line.clear();
                // A line written here is visible ASCII.
                let text = write_line(line, self.shape, self.clock, event)
                    .then(|| std::str::from_utf8(line).ok())
                    .flatten()?;
                Some(writer.write_str(text))
            });
            if let Some(result) = written {
                return result;
            }
        }
        self.other.format_event(ctx, writer, event)
    }
}

/// Writes `event` (an access event at INFO) as one line of `shape` stamped by `clock`, or
/// returns false when the line is not one this module writes (the caller uses the
/// general format).
fn write_line(line: &mut Vec<u8>, shape: Shape, clock: LogClock, event: &Event<'_>) -> bool {
    let Some(time) = clock.text() else { return false };
    match shape {
        Shape::Text => {
            line.extend_from_slice(time.as_bytes());
            line.extend_from_slice(b"  INFO ");
            line.extend_from_slice(TARGET.as_bytes());
            line.extend_from_slice(b": ");
        }
        Shape::Json => {
            line.extend_from_slice(b"{\"timestamp\":\"");
            line.extend_from_slice(time.as_bytes());
            line.extend_from_slice(b"\",\"level\":\"INFO\"");
        }
    }
    let mut fields = Fields { line, shape, first: true, plain: true };
    event.record(&mut fields);
    if !fields.plain {
        return false;
    }
    match shape {
        Shape::Text => line.push(b'\n'),
        Shape::Json => {
            line.extend_from_slice(b",\"target\":\"");
            line.extend_from_slice(TARGET.as_bytes());
            line.extend_from_slice(b"\"}\n");
        }
    }
    true
}

/// Writes an event's fields in the order they are recorded, as `DefaultVisitor` (text)
/// or the JSON format's flattened fields do. `plain` turns false at a value this writer
/// does not write exactly as they would.
struct Fields<'a> {
    line: &'a mut Vec<u8>,
    shape: Shape,
    first: bool,
    plain: bool,
}

impl Fields<'_> {
    /// The field's name and what precedes its value.
    fn name(&mut self, field: &Field) {
        let name = field.name();
        match self.shape {
            Shape::Text => {
                if !std::mem::take(&mut self.first) {
                    self.line.push(b' ');
                }
                if name != "message" {
                    self.line.extend_from_slice(name.as_bytes());
                    self.line.push(b'=');
                }
            }
            Shape::Json => {
                self.line.extend_from_slice(b",\"");
                self.line.extend_from_slice(name.as_bytes());
                self.line.extend_from_slice(b"\":");
            }
        }
    }

    /// `text` as a quoted string, when it is plain visible ASCII: `{:?}` escapes only `"`
    /// and `\` there, and JSON the same two, as the JSON escaper does.
    fn quoted(&mut self, text: &str) {
        if !visible(text.as_bytes()) {
            self.plain = false;
            return;
        }
        self.line.push(b'"');
        words::push_json_escaped(self.line, text.as_bytes());
        self.line.push(b'"');
    }
}

/// Whether `text` is plain visible ASCII, where `{:?}` and JSON escape only `"` and `\`
/// and tracing-subscriber nothing else.
fn visible(text: &[u8]) -> bool {
    text.iter().all(|byte| (b' '..=b'~').contains(byte))
}

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.name(field);
        match (self.shape, field.name()) {
            (Shape::Text, "message") if visible(value.as_bytes()) => {
                self.line.extend_from_slice(value.as_bytes());
            }
            (Shape::Text, "message") => self.plain = false,
            _ => self.quoted(value),
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.name(field);
        let mut buffer = [0; 20];
        self.line.extend_from_slice(words::integer_digits(value, &mut buffer));
    }

    /// A `%` (Display) value or the message: written through `{:?}` in place, as both
    /// formats write it (in JSON as a string), then checked: plain visible ASCII, and in
    /// JSON nothing to escape either (else the general format writes the line).
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.name(field);
        let json = self.shape == Shape::Json;
        if json {
            self.line.push(b'"');
        }
        let start = self.line.len();
        // Writing into a Vec cannot fail.
        let _ = write!(self.line, "{value:?}");
        let written = &self.line[start..];
        if !visible(written) || (json && written.iter().any(|&b| matches!(b, b'"' | b'\\'))) {
            self.plain = false;
        }
        if json {
            self.line.push(b'"');
        }
    }

    // Anything else is written by the general format.
    fn record_i64(&mut self, _: &Field, _: i64) {
        self.plain = false;
    }
    fn record_f64(&mut self, _: &Field, _: f64) {
        self.plain = false;
    }
    fn record_bool(&mut self, _: &Field, _: bool) {
        self.plain = false;
    }
    fn record_error(&mut self, _: &Field, _: &(dyn std::error::Error + 'static)) {
        self.plain = false;
    }
}

#[cfg(test)]
mod tests;
