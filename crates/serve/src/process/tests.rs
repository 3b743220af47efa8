//! Unit tests for `crate::process`: the error report and the broken-pipe test.

use std::{error::Error, fmt, io};

use super::{BindError, ErrorReport, is_broken_pipe};

/// An error with a message and an optional cause.
#[derive(Debug)]
struct Layer(&'static str, Option<Box<dyn Error + 'static>>);

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Error for Layer {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.1.as_deref()
    }
}

#[test]
fn the_message_comes_once_then_each_distinct_cause() {
    let os = io::Error::new(io::ErrorKind::NotFound, "no such file or directory");
    let embedded = Layer("snap/matrix.json: no such file or directory", Some(Box::new(os)));
    let top = Layer("cannot load the snapshot", Some(Box::new(embedded)));
    assert_eq!(
        ErrorReport(&top).to_string(),
        "cannot load the snapshot\n  caused by: snap/matrix.json: no such file or directory"
    );
    let repeated =
        Layer("no such snapshot folder", Some(Box::new(Layer("no such snapshot folder", None))));
    assert_eq!(ErrorReport(&repeated).to_string(), "no such snapshot folder");
}

#[test]
fn a_bind_error_names_the_address_and_keeps_the_reason() {
    let error = BindError {
        addr: ([127, 0, 0, 1], 8080).into(),
        source: io::Error::new(io::ErrorKind::AddrInUse, "address already in use"),
    };
    assert_eq!(
        ErrorReport(&error).to_string(),
        "cannot listen on 127.0.0.1:8080\n  caused by: address already in use"
    );
}

#[test]
fn a_closed_pipe_is_found_anywhere_in_the_chain() {
    let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
    assert!(is_broken_pipe(&pipe));
    assert!(is_broken_pipe(&Layer("writing the quote", Some(Box::new(pipe)))));
    assert!(!is_broken_pipe(&Layer("writing the quote", None)));
    assert!(!is_broken_pipe(&io::Error::from(io::ErrorKind::NotFound)));
}
