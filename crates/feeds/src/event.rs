//! What the feed server reports to its caller instead of logging it.

use std::fmt;

/// Something worth one log line; the caller (a binary) decides where it goes.
///
/// `Display` renders one line without a trailing newline.
#[derive(Debug)]
pub enum Event<'a> {
    /// An event of the HTTP server: listening, shutdown, drained, access lines, ...
    Server(&'a serve::Event<'a>),
    /// A data event: a startup note (a skipped history day), a reload accepted, or a
    /// reload refused and why (the old snapshot keeps serving).
    Data(&'a str),
}

impl fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Server(event) => write!(f, "{event}"),
            Event::Data(line) => f.write_str(line),
        }
    }
}
