//! Access lines against tracing-subscriber's own formats: the same bytes for any plain
//! values, and the general format for anything else.

use std::{
    io,
    sync::{Arc, Mutex},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use hyper::Method;
use proptest::prelude::*;
use tracing_subscriber::fmt::{format::Writer, time::FormatTime};

use super::{Lines, Shape};
use crate::writer::LogClock;

fn fixed_time() -> SystemTime {
    UNIX_EPOCH + Duration::new(1_795_255_200, 123_456_789)
}

/// The same instant for both formats.
const FIXED: LogClock = LogClock { now: fixed_time };
const FIXED_TEXT: &str = "2026-11-21T10:00:00.123456Z";

/// The timestamp of the general format under test: a line that has it was not written
/// by [`Lines`] itself.
struct Mark;

impl FormatTime for Mark {
    fn format_time(&self, writer: &mut Writer<'_>) -> std::fmt::Result {
        writer.write_str("MARK")
    }
}

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What `log` writes in `shape`: through [`Lines`] (`fast`), or through
/// tracing-subscriber's format alone.
fn written(shape: Shape, fast: bool, log: impl Fn()) -> String {
    let out = Captured::default();
    let sink = out.clone();
    let builder = tracing_subscriber::fmt().with_writer(move || sink.clone()).with_ansi(false);
    let text = || tracing_subscriber::fmt::format().with_ansi(false);
    let json = || tracing_subscriber::fmt::format().json().flatten_event(true);
    match (shape, fast) {
        (Shape::Text, true) => {
            let lines = Lines::new(shape, text().with_timer(Mark), FIXED);
            tracing::subscriber::with_default(builder.event_format(lines).finish(), log);
        }
        (Shape::Text, false) => {
            let general = text().with_timer(FIXED);
            tracing::subscriber::with_default(builder.event_format(general).finish(), log);
        }
        (Shape::Json, true) => {
            let lines = Lines::new(shape, json().with_timer(Mark), FIXED);
            tracing::subscriber::with_default(builder.json().event_format(lines).finish(), log);
        }
        (Shape::Json, false) => {
            let general = json().with_timer(FIXED);
            tracing::subscriber::with_default(builder.json().event_format(general).finish(), log);
        }
    }
    String::from_utf8(out.0.lock().unwrap().clone()).unwrap()
}

#[derive(Debug, Clone)]
struct Access {
    method: Method,
    path: String,
    query: Option<String>,
    status: u16,
    bytes: u64,
    micros: u64,
    client: String,
    user_agent: Option<String>,
}

impl Access {
    fn plain() -> Access {
        Access {
            method: Method::POST,
            path: "/".to_owned(),
            query: None,
            status: 200,
            bytes: 2176,
            micros: 83,
            client: "203.0.113.7".to_owned(),
            user_agent: Some("curl/8.5.0".to_owned()),
        }
    }

    fn log(&self) {
        crate::server_event(
            "tool-server",
            &serve::Event::Access {
                method: &self.method,
                path: &self.path,
                query: self.query.as_deref(),
                status: self.status,
                bytes: self.bytes,
                micros: self.micros,
                peer: "127.0.0.1:43942",
                client: &self.client,
                user_agent: self.user_agent.as_deref(),
            },
        );
    }
}

/// Written by [`Lines`] and the same bytes as the general format's, in both shapes.
fn assert_written_alike(access: &Access) {
    for shape in [Shape::Text, Shape::Json] {
        let fast = written(shape, true, || access.log());
        assert!(!fast.contains("MARK"), "written by the general format: {fast}");
        assert_eq!(fast, written(shape, false, || access.log()), "{shape:?}");
        assert!(fast.contains(FIXED_TEXT) && fast.ends_with('\n'), "{fast}");
    }
}

/// Written by the general format (its mark), and otherwise the same bytes.
fn assert_left_to_the_general_format(log: impl Fn() + Copy) {
    for shape in [Shape::Text, Shape::Json] {
        let fast = written(shape, true, log);
        assert!(fast.contains("MARK"), "{fast}");
        assert_eq!(fast.replace("MARK", FIXED_TEXT), written(shape, false, log), "{shape:?}");
    }
}

#[test]
fn an_access_line_is_the_general_formats_bytes() {
    assert_written_alike(&Access::plain());
    let quotes = Access {
        method: Method::from_bytes(b"PURGE").unwrap(),
        path: r#"/a\"b"#.to_owned(),
        query: Some(r#"q="1"&r=\\"#.to_owned()),
        status: 404,
        bytes: 0,
        micros: u64::MAX,
        client: "2001:db8::7".to_owned(),
        user_agent: None,
    };
    assert_written_alike(&quotes);
}

#[test]
fn anything_unusual_is_left_to_the_general_format() {
    for agent in ["caf\u{e9}", "\u{1b}[31mred", "tab\there"] {
        let access = Access { user_agent: Some(agent.to_owned()), ..Access::plain() };
        assert_left_to_the_general_format(|| access.log());
    }
    // A `%` value the text format writes as it is but JSON would escape.
    let quoted = Access { client: r#"a"b\c"#.to_owned(), ..Access::plain() };
    let text = written(Shape::Text, true, || quoted.log());
    assert!(!text.contains("MARK") && text.contains(r#"client=a"b\c "#), "{text}");
    assert_eq!(text, written(Shape::Text, false, || quoted.log()));
    let json = written(Shape::Json, true, || quoted.log());
    assert!(json.contains("MARK"), "{json}");
    assert_eq!(json.replace("MARK", FIXED_TEXT), written(Shape::Json, false, || quoted.log()));
    // Another event, and an access event inside a span.
    assert_left_to_the_general_format(|| {
        crate::server_event("tool-server", &serve::Event::ShutdownBegun);
    });
    assert_left_to_the_general_format(|| {
        let _span = tracing::info_span!("outer", id = 7).entered();
        Access::plain().log();
    });
}

proptest! {
    #[test]
    fn any_plain_access_line_is_the_general_formats_bytes(
        method in prop::sample::select(vec!["GET", "HEAD", "POST", "OPTIONS", "M-SEARCH"]),
        path in "/[ -~]{0,40}",
        query in prop::option::of("[ -~]{0,40}"),
        status in 100u16..600,
        bytes in any::<u64>(),
        micros in any::<u64>(),
        user_agent in prop::option::of("[ -~]{0,60}"),
    ) {
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let client = "198.51.100.1".to_owned();
        assert_written_alike(&Access { method, path, query, status, bytes, micros, client, user_agent });
    }
}
