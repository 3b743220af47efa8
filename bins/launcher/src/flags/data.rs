//! The data-source flags of every command that serves (`feed-server`, `tool-server`,
//! `dcx serve`, `dcx mcp`): one snapshot folder or a history folder, and how often the
//! history is polled.

use std::{path::PathBuf, time::Duration};

/// `--snapshot DIR | --history DIR` and `--poll-secs N`.
#[derive(Debug, Clone, clap::Args)]
pub struct DataFlags {
    /// Serve one snapshot folder instead of the embedded reference snapshot.
    #[arg(long, conflicts_with = "history")]
    snapshot: Option<PathBuf>,
    /// Serve a folder of dated (`YYYY-MM-DD`) snapshots; the newest valid one is live.
    #[arg(long)]
    history: Option<PathBuf>,
    /// Seconds between checks of the history folder for a new day; 0 disables polling
    /// (SIGHUP always reloads).
    #[arg(long, default_value_t = 60)]
    poll_secs: u64,
}

impl DataFlags {
    /// The data source the flags name.
    pub fn source(&self) -> datasets::Source {
        datasets::Source::from_dirs(self.snapshot.clone(), self.history.clone())
    }

    /// The poll period (zero turns polling off: `Source::poll_period` decides).
    pub fn poll(&self) -> Option<Duration> {
        Some(Duration::from_secs(self.poll_secs))
    }
}
