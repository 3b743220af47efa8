//! A [`History`]: dated snapshot folders (`YYYY-MM-DD/`), the newest valid one live, the
//! ones of the last [`HELD_DAYS`] held parsed, the older ones as a compact summary (the
//! DCX and trends their `index.json` published), read again from disk when asked.
//!
//! What a history costs per day is what decides how many years a server can hold: a
//! parsed snapshot with its files is about 80 KB, a summary about a hundred bytes. A
//! reload compares folder entries and file metadata, never contents, so an unchanged
//! history costs a directory listing and a few `stat` calls.

use std::{
    fmt,
    path::{Path, PathBuf},
    sync::Arc,
};

use chrono::{DateTime, Days, NaiveDate, Utc};

use crate::{
    error::Error,
    fs,
    index::Index,
    snapshot::{Snapshot, format_ts},
};

mod scan;
#[cfg(test)]
mod tests;

use self::scan::{Plan, SkippedDay, Stamp};

/// How far before a trend's target day an older snapshot may stand in for it.
const TREND_SLACK_DAYS: u64 = 3;

/// How many days before the live one a server's history holds parsed (the live day's
/// date minus this, through the live day): the default window of `/track` and the
/// calculator. Older days are held as a summary and read from disk when asked.
pub const HELD_DAYS: u64 = 30;

/// How far ahead of the clock a day's `ts` may be: a day further ahead is not served
/// until the clock catches up with it.
const FUTURE_SLACK: chrono::TimeDelta = chrono::TimeDelta::days(1);

/// One published day: its date, what its `index.json` published, and its parsed
/// snapshot when the history holds it ([`History::snapshot_of`] reads the others).
#[derive(Debug, Clone)]
pub struct Day {
    /// The day the snapshot was published for.
    pub date: NaiveDate,
    ts: DateTime<Utc>,
    dcx: f64,
    trend: f64,
    trend_7d: Option<f64>,
    trend_30d: Option<f64>,
    snapshot: Option<Arc<Snapshot>>,
    stamp: Stamp,
}

impl Day {
    fn parsed(date: NaiveDate, snapshot: Arc<Snapshot>, stamp: Stamp) -> Day {
        let mut day = Day::summary(date, snapshot.index(), stamp);
        day.snapshot = Some(snapshot);
        day
    }

    fn summary(date: NaiveDate, index: &Index, stamp: Stamp) -> Day {
        Day {
            date,
            ts: index.ts,
            dcx: index.dcx,
            trend: index.trend,
            trend_7d: index.trend_7d,
            trend_30d: index.trend_30d,
            snapshot: None,
            stamp,
        }
    }

    /// The snapshot's publication time.
    pub fn ts(&self) -> DateTime<Utc> {
        self.ts
    }

    /// `ts` as the feeds publish it.
    pub fn ts_text(&self) -> String {
        format_ts(self.ts)
    }

    /// The DCX the day published.
    pub fn dcx(&self) -> f64 {
        self.dcx
    }

    /// The 24-hour trend the day published, percent.
    pub fn trend(&self) -> f64 {
        self.trend
    }

    /// The 7-day trend the day published, when it did.
    pub fn trend_7d(&self) -> Option<f64> {
        self.trend_7d
    }

    /// The 30-day trend the day published, when it did.
    pub fn trend_30d(&self) -> Option<f64> {
        self.trend_30d
    }

    /// The parsed snapshot, when the history holds it (the live day and the
    /// [`HELD_DAYS`] before it); `None` for an older day.
    pub fn snapshot(&self) -> Option<&Arc<Snapshot>> {
        self.snapshot.as_ref()
    }
}

/// A dated folder of a history left out, and why: its feeds are not a valid snapshot,
/// they are the snapshot of another day than the folder's name says, or its `ts` is
/// ahead of the clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The folder's day.
    pub date: NaiveDate,
    /// What was wrong, on one line.
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skipped {}: {}", self.date, self.reason)
    }
}

/// Valid snapshots by day, oldest first; the last one is live.
#[derive(Debug, Clone)]
pub struct History {
    days: Vec<Day>,
    dir: Option<PathBuf>,
    skipped: Vec<SkippedDay>,
}

/// A trend over a number of days: the percent change of the DCX, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Trend {
    /// Percent change from the snapshot of `from` to the live one.
    Available {
        /// Change in percent.
        percent: f64,
        /// The day compared against.
        from: NaiveDate,
    },
    /// Not enough history.
    Unavailable {
        /// Why, in one sentence.
        reason: String,
    },
}

impl History {
    /// A history of one snapshot, dated by its `ts`.
    pub fn single(snapshot: Snapshot) -> History {
        let date = snapshot.ts().date_naive();
        History {
            days: vec![Day::parsed(date, Arc::new(snapshot), Stamp::default())],
            dir: None,
            skipped: Vec::new(),
        }
    }

    /// Loads every `YYYY-MM-DD` folder of `dir`: the newest valid day is live, it and the
    /// [`HELD_DAYS`] before it are parsed and held, older days are read as summaries
    /// (their `index.json` alone is read and checked; [`History::snapshot_of`] reads and
    /// validates the whole day when asked). Invalid days are left out and described in
    /// the returned [`Skipped`] list, and so is a folder whose snapshot's `ts` falls on
    /// another day (it would be served under the wrong date). Fails when no day is valid.
    ///
    /// ```
    /// use datasets::{History, Trend, fs, reference};
    ///
    /// let dir = std::env::temp_dir().join(format!("dcx-doc-history-{}", std::process::id()));
    /// for (date, level) in [("2026-11-13", 1.0), ("2026-11-20", 1.05)] {
    ///     let files = reference::generate_variant(&format!("{date}T00:00:00Z"), level);
    ///     fs::write_dir_atomic(&dir.join(date), &files, true)?;
    /// }
    /// let (history, skipped) = History::load(&dir)?;
    /// assert!(skipped.is_empty());
    /// assert_eq!(history.live_date().to_string(), "2026-11-20");
    /// let Trend::Available { percent, from } = history.trend(7) else { panic!() };
    /// assert_eq!(from.to_string(), "2026-11-13");
    /// assert!((percent - 5.0).abs() < 0.01, "{percent}"); // every price 5 % up
    /// assert!(matches!(history.trend(30), Trend::Unavailable { .. }));
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), datasets::Error>(())
    /// ```
    pub fn load(dir: &Path) -> Result<(History, Vec<Skipped>), Error> {
        History::load_reusing(dir, None, None)
    }

    /// [`History::load`] for a reload, against the clock `now` when given (a day whose
    /// `ts` is more than a day ahead of it is skipped until it is due). A day whose
    /// folder and files have the same metadata as in `previous` (inode, length,
    /// modification time; the contents are not read) keeps that day's parsed snapshot or
    /// summary: a poll of an unchanged history costs a directory listing and a `stat` of
    /// the held days' files. The live day of `previous` stays live when its folder is
    /// still there but no longer valid (reported as skipped); when its folder is gone,
    /// the newest day left is live (an operator's rollback).
    pub fn load_reusing(
        dir: &Path,
        previous: Option<&History>,
        now: Option<DateTime<Utc>>,
    ) -> Result<(History, Vec<Skipped>), Error> {
        let plan = Plan { previous, now, before: None, held: HELD_DAYS, older: true };
        let (history, skipped) = History::scan(dir, &plan)?;
        let Some(history) = history else {
            let reason = if skipped.is_empty() {
                "no YYYY-MM-DD snapshot folders".to_owned()
            } else {
                skipped.iter().map(Skipped::to_string).collect::<Vec<_>>().join("; ")
            };
            return Err(Error::EmptyHistory { path: dir.to_path_buf(), reason });
        };
        Ok((history, skipped))
    }

    /// What a build of `date` reads of the history in `dir`: the valid days before
    /// `date` within `span` days of the newest of them, parsed, and nothing older (the
    /// newest valid day before `date` is found however old it is). `None` when no day
    /// before `date` is valid, or `dir` does not exist: a first build. Its cost does not
    /// grow with the length of the history beyond listing the folder.
    pub fn load_before(
        dir: &Path,
        date: NaiveDate,
        span: u64,
    ) -> Result<(Option<History>, Vec<Skipped>), Error> {
        if !dir.is_dir() {
            return Ok((None, Vec::new()));
        }
        let plan = Plan { previous: None, now: None, before: Some(date), held: span, older: false };
        History::scan(dir, &plan)
    }

    /// The live (newest) snapshot.
    #[inline(always)]
    pub fn live(&self) -> &Arc<Snapshot> {
        let live = &self.days[self.days.len() - 1];
        live.snapshot.as_ref().expect("the live day of a history is held parsed")
    }

    /// The live day.
    pub fn live_date(&self) -> NaiveDate {
        self.days[self.days.len() - 1].date
    }

    /// Every day, oldest first.
    pub fn days(&self) -> &[Day] {
        &self.days
    }

    /// The days from `from` on, oldest first.
    pub fn days_from(&self, from: NaiveDate) -> &[Day] {
        &self.days[self.days.partition_point(|day| day.date < from)..]
    }

    /// The folder the history was read from (`None` for [`History::single`]).
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The snapshot of `day`: the one held, or else its folder read and validated again
    /// (an older day; what it costs is reading and parsing one day's five feeds).
    pub fn snapshot_of(&self, day: &Day) -> Result<Arc<Snapshot>, Error> {
        if let Some(snapshot) = &day.snapshot {
            return Ok(Arc::clone(snapshot));
        }
        let Some(dir) = &self.dir else {
            return Err(Error::Io {
                path: PathBuf::from(day.date.to_string()),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the history was not read from a folder",
                ),
            });
        };
        let snapshot = fs::load_dir(&dir.join(day.date.format("%Y-%m-%d").to_string()))?;
        if snapshot.ts() == day.ts {
            return Ok(Arc::new(snapshot));
        }
        let (date, ts, loaded) = (day.date, snapshot.ts_text(), day.ts_text());
        let message = format!(
            "the folder of {date} changed since it was loaded (ts {ts} instead of {loaded})"
        );
        Err(Error::Invalid {
            issues: vec![crate::Issue { feed: "snapshot", pointer: String::new(), message }],
        })
    }

    /// Whether `other` holds the same days with the same contents as far as a load can
    /// tell (same dates, same stamps, same held snapshots).
    pub(crate) fn same_days(&self, other: &History) -> bool {
        self.days.len() == other.days.len()
            && self.days.iter().zip(&other.days).all(|(a, b)| {
                a.date == b.date
                    && a.ts == b.ts
                    && a.stamp == b.stamp
                    && match (&a.snapshot, &b.snapshot) {
                        (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x.files() == y.files(),
                        (None, None) => true,
                        _ => false,
                    }
            })
    }

    /// The DCX change over `days` days: against the newest snapshot on or before the
    /// target day, if it is at most a few days older than the target.
    pub fn trend(&self, days: u64) -> Trend {
        let live = self.live_date();
        let Some(target) = live.checked_sub_days(Days::new(days)) else {
            return Trend::Unavailable { reason: "date out of range".to_owned() };
        };
        let earliest = target.checked_sub_days(Days::new(TREND_SLACK_DAYS)).unwrap_or(target);
        let found = self.days.iter().rev().find(|day| day.date <= target);
        match found {
            Some(day) if day.date >= earliest => {
                let old = day.dcx;
                let new = self.live().index().dcx;
                match pricing::percent_change(old, new) {
                    Ok(percent) => Trend::Available { percent, from: day.date },
                    Err(err) => Trend::Unavailable { reason: err.to_string() },
                }
            }
            _ => Trend::Unavailable {
                reason: format!(
                    "the snapshot history ({} day{} from {}) has no snapshot between {earliest} and {target}",
                    self.days.len(),
                    if self.days.len() == 1 { "" } else { "s" },
                    self.days[0].date
                ),
            },
        }
    }
}
