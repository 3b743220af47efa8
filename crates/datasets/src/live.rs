//! [`Live`]: the history being served, swapped atomically when a reload succeeds.

use std::{path::PathBuf, sync::Arc, time::Duration};

use arc_swap::ArcSwap;

use crate::{error::Error, fs, history::History, snapshot::Snapshot};

/// Where the served data comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The embedded reference snapshot.
    Embedded,
    /// One snapshot folder.
    Snapshot(PathBuf),
    /// A folder of dated snapshot folders.
    History(PathBuf),
}

impl Source {
    /// The source the servers' `--snapshot DIR` / `--history DIR` flags name (the flags
    /// exclude each other; given both, the snapshot wins); neither means the embedded one.
    pub fn from_dirs(snapshot: Option<PathBuf>, history: Option<PathBuf>) -> Source {
        match (snapshot, history) {
            (Some(dir), _) => Source::Snapshot(dir),
            (None, Some(dir)) => Source::History(dir),
            (None, None) => Source::Embedded,
        }
    }

    /// How often to read this source again, given the configured `period`: the one
    /// reload rule of both servers. A history folder gains a day at a time, so it is
    /// polled (a zero period turns that off); one snapshot folder and the embedded
    /// snapshot change only when told (SIGHUP), so they are never polled.
    pub fn poll_period(&self, period: Option<Duration>) -> Option<Duration> {
        match self {
            Source::History(_) => period.filter(|period| !period.is_zero()),
            Source::Snapshot(_) | Source::Embedded => None,
        }
    }

    /// Reads the source; on a reload, days unchanged since `previous` keep their parsed
    /// snapshots ([`History::load_reusing`]).
    fn load(&self, previous: Option<&History>) -> Result<(History, Vec<String>), Error> {
        match self {
            Source::Embedded => Ok((History::single(Snapshot::reference()), Vec::new())),
            Source::Snapshot(dir) => Ok((History::single(fs::load_dir(dir)?), Vec::new())),
            Source::History(dir) => History::load_reusing(dir, previous),
        }
    }
}

/// What a reload did, as one log line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReloadOutcome {
    /// Nothing changed; nothing to say.
    Unchanged,
    /// A new history is live.
    Swapped(String),
    /// The new data was refused; the old data keeps serving.
    Refused(String),
}

impl ReloadOutcome {
    /// The log line, or `None` when there is nothing new to say.
    pub fn message(&self) -> Option<&str> {
        match self {
            ReloadOutcome::Unchanged => None,
            ReloadOutcome::Swapped(text) | ReloadOutcome::Refused(text) => Some(text),
        }
    }
}

/// The data being served. Readers take a cheap [`Arc`] of the whole history, so one
/// response is always built from one snapshot, however a reload interleaves.
#[derive(Debug)]
pub struct Live {
    source: Source,
    current: ArcSwap<History>,
    last_notes: std::sync::Mutex<Vec<String>>,
}

impl Live {
    /// Loads `source`; it must hold at least one valid snapshot.
    pub fn open(source: Source) -> Result<(Live, Vec<String>), Error> {
        let (history, notes) = source.load(None)?;
        let live = Live {
            source,
            current: ArcSwap::from_pointee(history),
            last_notes: std::sync::Mutex::new(notes.clone()),
        };
        Ok((live, notes))
    }

    /// Serves an already-built history (tests, embedding).
    pub fn fixed(history: History) -> Live {
        Live {
            source: Source::Embedded,
            current: ArcSwap::from_pointee(history),
            last_notes: Default::default(),
        }
    }

    /// The history now being served.
    pub fn history(&self) -> Arc<History> {
        self.current.load_full()
    }

    /// Where the data comes from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// Reads the source again. A valid new history replaces the old one in one atomic
    /// swap; an invalid one is refused and the old one keeps serving. Skipped history
    /// days are reported once, when they first appear.
    pub fn reload(&self) -> ReloadOutcome {
        let old = self.current.load_full();
        match self.source.load(Some(&old)) {
            Err(err) => ReloadOutcome::Refused(format!(
                "reload refused, still serving snapshot {}: {}",
                old.live().ts_text(),
                err.to_string().replace('\n', ";")
            )),
            Ok((new, notes)) => {
                let mut last = self.last_notes.lock().unwrap_or_else(|poison| poison.into_inner());
                let fresh: Vec<String> =
                    notes.iter().filter(|n| !last.contains(n)).cloned().collect();
                *last = notes;
                if same(&old, &new) {
                    return match fresh.is_empty() {
                        true => ReloadOutcome::Unchanged,
                        false => ReloadOutcome::Refused(format!(
                            "reload kept snapshot {}; {}",
                            old.live().ts_text(),
                            fresh.join("; ")
                        )),
                    };
                }
                let text = format!(
                    "reload accepted: now serving snapshot {} ({} day{}){}",
                    new.live().ts_text(),
                    new.days().len(),
                    if new.days().len() == 1 { "" } else { "s" },
                    if fresh.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", fresh.join("; "))
                    }
                );
                self.current.store(Arc::new(new));
                ReloadOutcome::Swapped(text)
            }
        }
    }
}

fn same(a: &History, b: &History) -> bool {
    a.days().len() == b.days().len()
        && a.days().iter().zip(b.days()).all(|(x, y)| {
            x.date == y.date
                && (Arc::ptr_eq(&x.snapshot, &y.snapshot)
                    || x.snapshot.files() == y.snapshot.files())
        })
}
