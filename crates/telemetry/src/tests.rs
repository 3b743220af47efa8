//! Unit tests of the log settings.

use crate::{DEFAULT_FILTER, LogFormat, filter};

#[test]
fn log_formats_parse_and_print() {
    assert_eq!("text".parse(), Ok(LogFormat::Text));
    assert_eq!("json".parse(), Ok(LogFormat::Json));
    assert_eq!(LogFormat::Json.to_string(), "json");
    let err = "yaml".parse::<LogFormat>().unwrap_err();
    assert!(err.contains("\"yaml\"") && err.contains("text or json"), "{err}");
}

#[test]
fn rust_log_defaults_to_info_and_bad_filters_are_named() {
    assert_eq!(filter(None).unwrap().to_string(), DEFAULT_FILTER);
    assert_eq!(filter(Some("  ")).unwrap().to_string(), DEFAULT_FILTER);
    // Directives print most specific first.
    assert_eq!(filter(Some("warn,dcx::access=off")).unwrap().to_string(), "dcx::access=off,warn");
    let err = filter(Some("dcx=loud")).unwrap_err();
    assert!(err.contains("\"dcx=loud\""), "{err}");
}

/// The paced writer hands every byte on, in order, by the end of each flush.
#[test]
fn the_paced_writer_writes_everything_by_each_flush() {
    use std::io::Write as _;
    let mut paced = crate::writer::Paced::new(Vec::new());
    for line in ["first\n", "second\n", "third\n"] {
        paced.write_all(line.as_bytes()).unwrap();
        paced.flush().unwrap();
        let written = String::from_utf8(paced.buffer.get_ref().clone()).unwrap();
        assert!(written.ends_with(line), "{written:?}");
    }
    assert_eq!(paced.buffer.get_ref().as_slice(), b"first\nsecond\nthird\n");
}

/// Flushes one after another reach stderr at least `FLUSH_EVERY` apart: each waits out the
/// rest of the pace since the last write (a lower bound, which a sleep always keeps).
#[test]
fn the_paced_writer_writes_at_most_once_per_pace() {
    use std::{io::Write, time::Instant};
    /// When each write reached it.
    struct Stamped(Vec<Instant>);
    impl Write for Stamped {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.push(Instant::now());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut paced = crate::writer::Paced::new(Stamped(Vec::new()));
    for _ in 0..4 {
        paced.write_all(b"a line\n").unwrap();
        paced.flush().unwrap();
    }
    let stamps = &paced.buffer.get_ref().0;
    assert_eq!(stamps.len(), 4, "one write per flush");
    for pair in stamps.windows(2) {
        assert!(pair[1] - pair[0] >= crate::writer::FLUSH_EVERY, "{:?}", pair[1] - pair[0]);
    }
}
