//! The crate's error type and the validation [`Issue`] it carries.

use std::{fmt, path::PathBuf};

/// One validation problem: the feed it is in, where (a JSON pointer, empty for the
/// whole document) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Feed file name, e.g. `matrix.json`; `snapshot` for cross-feed problems.
    pub feed: &'static str,
    /// JSON pointer into the feed, e.g. `/l/1.0/3`.
    pub pointer: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "/" } else { &self.pointer };
        write!(f, "{} {}: {}", self.feed, pointer, self.message)
    }
}

/// Why a snapshot could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or folder could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The feeds were read but are not a valid snapshot.
    #[error("invalid snapshot ({} problem{}):\n{}", issues.len(), if issues.len() == 1 { "" } else { "s" }, list(issues))]
    Invalid {
        /// Every problem found, in feed order.
        issues: Vec<Issue>,
    },
    /// A history folder holds no valid snapshot.
    #[error("no valid snapshot in {}: {reason}", path.display())]
    EmptyHistory {
        /// The history folder.
        path: PathBuf,
        /// Why each candidate was refused, or that there were none.
        reason: String,
    },
}

impl Error {
    /// The validation problems, if this is an [`Error::Invalid`].
    pub fn issues(&self) -> &[Issue] {
        match self {
            Error::Invalid { issues } => issues,
            _ => &[],
        }
    }
}

fn list(issues: &[Issue]) -> String {
    issues.iter().map(|issue| format!("  {issue}")).collect::<Vec<_>>().join("\n")
}
