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
