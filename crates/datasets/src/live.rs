//! [`Live`]: the history being served, reloaded one reload at a time and swapped
//! atomically when a reload succeeds; [`Reload`] says what a reload did.

use std::{
    fmt,
    path::PathBuf,
    sync::{Arc, Mutex, MutexGuard},
    time::Duration,
};

use arc_swap::ArcSwap;
use chrono::{DateTime, NaiveDate, Utc};

use crate::{
    error::Error,
    fs,
    history::{History, Skipped},
    snapshot::Snapshot,
};

#[cfg(test)]
mod tests;

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

    /// The kind of source in one word, as the servers' `/health` reports it: `embedded`,
    /// `snapshot` (one folder) or `history` (a folder of days).
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Embedded => "embedded",
            Source::Snapshot(_) => "snapshot",
            Source::History(_) => "history",
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

    /// `reason` (why this source was refused, as [`Live::last_refusal`] says) as a
    /// public answer such as `/health` may show it: without the server's folder paths.
    /// The source's folder followed by a separator is dropped, so a file below it is
    /// named from there (`2026-11-21/matrix.json: ...`); the folder alone becomes `the
    /// snapshot folder` or `the history folder`. The log keeps the whole reason.
    pub fn public_reason(&self, reason: &str) -> String {
        let (folder, name) = match self {
            Source::Embedded => return reason.to_owned(),
            Source::Snapshot(folder) => (folder, "the snapshot folder"),
            Source::History(folder) => (folder, "the history folder"),
        };
        let folder = folder.display().to_string();
        let folder = folder.trim_end_matches(std::path::MAIN_SEPARATOR);
        if folder.is_empty() {
            return reason.to_owned();
        }
        reason.replace(&format!("{folder}{}", std::path::MAIN_SEPARATOR), "").replace(folder, name)
    }

    /// Reads the source; on a reload, days unchanged since `previous` keep their parsed
    /// snapshots ([`History::load_reusing`]); a history day ahead of `now` is skipped.
    fn load(
        &self,
        previous: Option<&History>,
        now: Option<DateTime<Utc>>,
    ) -> Result<(History, Vec<Skipped>), Error> {
        match self {
            Source::Embedded => Ok((History::single(Snapshot::reference()), Vec::new())),
            Source::Snapshot(dir) => Ok((History::single(fs::load_dir(dir)?), Vec::new())),
            Source::History(dir) => History::load_reusing(dir, previous, now),
        }
    }
}

/// What one [`Live::reload`] did. `Display` writes it as one log line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reload {
    /// A new history is live.
    Accepted {
        /// The new live snapshot's `ts`.
        serving: String,
        /// How many days the new history holds.
        days: usize,
        /// Days left out that the previous reload did not already report.
        skipped: Vec<Skipped>,
    },
    /// The source holds the history already served, which keeps serving.
    Kept {
        /// The live snapshot's `ts`.
        serving: String,
        /// Days left out that the previous reload did not already report (a new day that
        /// is invalid, say); when empty, the reload has nothing to say.
        skipped: Vec<Skipped>,
    },
    /// The live day's folder is gone (an operator removed it): the newest day left is
    /// live. Worth a warning: the data served went back in time.
    RolledBack {
        /// The new live snapshot's `ts`.
        serving: String,
        /// How many days the new history holds.
        days: usize,
        /// The days served before and gone now, oldest first.
        removed: Vec<NaiveDate>,
        /// Days left out that the previous reload did not already report.
        skipped: Vec<Skipped>,
    },
    /// The source holds no valid data; the history already served keeps serving.
    Refused {
        /// The live snapshot's `ts`, still served.
        serving: String,
        /// Why, on one line.
        reason: String,
    },
}

impl Reload {
    /// Whether the reload has anything to report: everything but a quiet [`Reload::Kept`].
    pub fn is_news(&self) -> bool {
        !matches!(self, Reload::Kept { skipped, .. } if skipped.is_empty())
    }
}

impl fmt::Display for Reload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let skipped = |f: &mut fmt::Formatter<'_>, skipped: &[Skipped]| {
            skipped.iter().try_for_each(|day| write!(f, "; {day}"))
        };
        match self {
            Reload::Accepted { serving, days, skipped: left_out } => {
                let plural = if *days == 1 { "" } else { "s" };
                write!(f, "reload accepted: now serving snapshot {serving} ({days} day{plural})")?;
                skipped(f, left_out)
            }
            Reload::Kept { serving, skipped: left_out } => {
                write!(f, "reload kept snapshot {serving}")?;
                skipped(f, left_out)
            }
            Reload::RolledBack { serving, days, removed, skipped: left_out } => {
                let plural = if *days == 1 { "" } else { "s" };
                let removed: Vec<String> = removed.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "reload rolled back: day {} removed from the history, now serving snapshot {serving} ({days} day{plural})",
                    removed.join(", ")
                )?;
                skipped(f, left_out)
            }
            Reload::Refused { serving, reason } => {
                write!(f, "reload refused, still serving snapshot {serving}: {reason}")
            }
        }
    }
}

/// Data the source offered that is not served: the latest reload's refusal, for a health
/// report to call the service degraded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The day refused: a history day newer than the live one; `None` when the whole
    /// source was refused (a snapshot folder, or a history with no valid day).
    pub day: Option<NaiveDate>,
    /// Why, on one line.
    pub reason: String,
}

/// The clock a [`Live`] checks history days against (the same type as the servers'
/// clock): only binaries read the real one.
pub type Clock = Arc<dyn Fn() -> std::time::SystemTime + Send + Sync>;

/// What is called with each new history, under the reload lock.
type SwapHook = Box<dyn Fn(&Arc<History>) + Send + Sync>;

/// The data being served. Readers take a cheap [`Arc`] of the whole history, so one
/// response is always built from one snapshot, however a reload interleaves.
///
/// Reloads run one at a time (a lock held for the whole reload, never by readers), so a
/// slower reload never stores an older history after a newer one.
pub struct Live {
    source: Source,
    current: ArcSwap<History>,
    /// Held for a whole reload: the days skipped last time (reported once) and the
    /// services' hooks that rebuild what they derive from a history.
    reloading: Mutex<Reloading>,
    /// The latest reload's refusal; locked only to read or replace it.
    refusal: Mutex<Option<Refusal>>,
    /// The clock days are checked against; `None`: no day is too new.
    clock: Option<Clock>,
}

#[derive(Default)]
struct Reloading {
    skipped: Vec<Skipped>,
    on_swap: Vec<SwapHook>,
}

impl fmt::Debug for Live {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Live")
            .field("source", &self.source)
            .field("serving", &self.current.load().live().ts_text())
            .field("refusal", &self.last_refusal())
            .finish_non_exhaustive()
    }
}

impl Live {
    /// Loads `source`; it must hold at least one valid snapshot. Also returns the history
    /// days left out (each one is worth a log line). No clock: a day is never too new
    /// (servers use [`Live::open_with_clock`]).
    pub fn open(source: Source) -> Result<(Live, Vec<Skipped>), Error> {
        Live::open_clocked(source, None)
    }

    /// [`Live::open`] with a clock: a history day whose `ts` is more than a day ahead of
    /// `clock` is skipped (and reported) until it is due, at start-up and on every reload.
    pub fn open_with_clock(source: Source, clock: Clock) -> Result<(Live, Vec<Skipped>), Error> {
        Live::open_clocked(source, Some(clock))
    }

    fn open_clocked(source: Source, clock: Option<Clock>) -> Result<(Live, Vec<Skipped>), Error> {
        let now = clock.as_ref().map(|clock| DateTime::<Utc>::from(clock()));
        let (history, skipped) = source.load(None, now)?;
        let refusal = newer_refusal(&history, &skipped);
        let live = Live {
            source,
            current: ArcSwap::from_pointee(history),
            reloading: Mutex::new(Reloading { skipped: skipped.clone(), on_swap: Vec::new() }),
            refusal: Mutex::new(refusal),
            clock,
        };
        Ok((live, skipped))
    }

    /// Serves an already-built history (tests, embedding); [`Live::reload`] reads the
    /// embedded snapshot.
    pub fn fixed(history: History) -> Live {
        Live {
            source: Source::Embedded,
            current: ArcSwap::from_pointee(history),
            reloading: Mutex::default(),
            refusal: Mutex::default(),
            clock: None,
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

    /// The data the latest reload (or the opening) found and did not serve: the whole
    /// source refused, or a history day newer than the live one left out. `None` when the
    /// newest data offered is the data served.
    pub fn last_refusal(&self) -> Option<Refusal> {
        lock(&self.refusal).clone()
    }

    /// "serving snapshot TS (N days of history)": the start-up line.
    pub fn serving_note(&self) -> String {
        let history = self.current.load();
        let days = history.days().len();
        let plural = if days == 1 { "" } else { "s" };
        format!("serving snapshot {} ({days} day{plural} of history)", history.live().ts_text())
    }

    /// Calls `hook` with every history a reload makes live, right after the swap and
    /// before the next reload starts: how a service keeps what it derives from the
    /// history (precomputed responses, say) in step with it.
    pub fn on_swap(&self, hook: impl Fn(&Arc<History>) + Send + Sync + 'static) {
        lock(&self.reloading).on_swap.push(Box::new(hook));
    }

    /// Reads the source again. A valid new history replaces the old one in one atomic
    /// swap; an invalid one is refused and the old one keeps serving, and so does the
    /// live day of a history whose folder is still there but no longer valid. A live
    /// day whose folder is gone is rolled back from ([`Reload::RolledBack`]). Skipped
    /// history days are reported once, when they first appear.
    ///
    /// Blocking (file reads, validation, the swap hooks): call it off the request path.
    pub fn reload(&self) -> Reload {
        let mut reloading = lock(&self.reloading);
        let old = self.current.load_full();
        let serving = old.live().ts_text().to_owned();
        let now = self.clock.as_ref().map(|clock| DateTime::<Utc>::from(clock()));
        let (new, skipped) = match self.source.load(Some(&old), now) {
            Ok(loaded) => loaded,
            Err(err) => {
                let reason = err.to_string().replace('\n', ";");
                *lock(&self.refusal) = Some(Refusal { day: None, reason: reason.clone() });
                return Reload::Refused { serving, reason };
            }
        };
        *lock(&self.refusal) = newer_refusal(&new, &skipped);
        let fresh: Vec<Skipped> =
            skipped.iter().filter(|day| !reloading.skipped.contains(day)).cloned().collect();
        reloading.skipped = skipped;
        if old.same_days(&new) {
            return Reload::Kept { serving, skipped: fresh };
        }
        let new = Arc::new(new);
        self.current.store(Arc::clone(&new));
        reloading.on_swap.iter().for_each(|hook| hook(&new));
        let serving = new.live().ts_text().to_owned();
        let days = new.days().len();
        if new.live_date() < old.live_date() {
            let removed = old.days_from(new.live_date()).iter().map(|day| day.date);
            let removed = removed.filter(|&date| date > new.live_date()).collect();
            return Reload::RolledBack { serving, days, removed, skipped: fresh };
        }
        Reload::Accepted { serving, days, skipped: fresh }
    }
}

/// The newest skipped day, if it is not older than the live one (a newer day, or the
/// live day's folder turned invalid): data offered and not served.
fn newer_refusal(history: &History, skipped: &[Skipped]) -> Option<Refusal> {
    let newest = skipped.iter().max_by_key(|day| day.date)?;
    (newest.date >= history.live_date())
        .then(|| Refusal { day: Some(newest.date), reason: newest.reason.clone() })
}

/// Locks `mutex`, carrying on after a panic elsewhere: its data is always whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}
