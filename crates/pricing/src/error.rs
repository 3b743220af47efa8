//! The crate's one error type: why a constructor refused its input.

use std::fmt;

/// A constructor refused its input. The message says what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

/// The class of a refused input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A grade or shape name that is not one of the allowed values.
    UnknownGrade,
    /// A number that is NaN or infinite.
    NotFinite,
    /// A number outside its allowed range.
    OutOfRange,
    /// A list that must be strictly increasing is not.
    NotIncreasing,
    /// A list or grid has the wrong length or misses a required entry.
    Shape,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into() }
    }

    /// The class of the problem.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The human-readable description.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Refuses NaN and infinities, naming `what`.
pub(crate) fn finite(what: &str, value: f64) -> Result<f64, Error> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::new(
            ErrorKind::NotFinite,
            format!("{what} must be a finite number, got {value}"),
        ))
    }
}
