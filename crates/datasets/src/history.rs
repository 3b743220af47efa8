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
    os::unix::fs::{DirEntryExt, MetadataExt},
    path::{Path, PathBuf},
    sync::Arc,
};

use chrono::{DateTime, Days, NaiveDate, Utc};

use crate::{
    error::Error,
    fs,
    index::{self, Index},
    reader::Reader,
    snapshot::{Feed, Snapshot, format_ts},
};

#[cfg(test)]
mod tests;

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

/// What identifies a day folder's contents without reading them: the folder's inode
/// (a published day is renamed into place whole, so a new one has a new inode) and, for
/// a day held parsed, each feed file's inode, length and modification time.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Stamp {
    folder: u64,
    files: Option<Box<[FileStamp; 5]>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct FileStamp {
    inode: u64,
    len: u64,
    modified_ns: i128,
}

impl Stamp {
    /// The folder's and its feed files' metadata; a missing file stamps as zeros.
    fn of_files(folder: u64, dir: &Path) -> Stamp {
        let files = Feed::ALL.map(|feed| match std::fs::metadata(dir.join(feed.file_name())) {
            Ok(meta) => FileStamp {
                inode: meta.ino(),
                len: meta.len(),
                modified_ns: i128::from(meta.mtime()) * 1_000_000_000
                    + i128::from(meta.mtime_nsec()),
            },
            Err(_) => FileStamp::default(),
        });
        Stamp { folder, files: Some(Box::new(files)) }
    }
}

/// A skipped day remembered with its stamp, so that an unchanged bad day is not read
/// again on every poll (unless it was skipped for being ahead of the clock).
#[derive(Debug, Clone)]
struct SkippedDay {
    skipped: Skipped,
    stamp: Stamp,
    ahead: bool,
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

/// How a load treats the days it finds.
struct Plan<'a> {
    /// The history of the previous load: unchanged days are taken from it.
    previous: Option<&'a History>,
    /// The clock: a day whose `ts` is more than a day ahead of it is skipped.
    now: Option<DateTime<Utc>>,
    /// Only days before this one (a build's date).
    before: Option<NaiveDate>,
    /// Days held parsed before the live one.
    held: u64,
    /// Whether days older than the held ones are loaded as summaries (or left out).
    older: bool,
}

/// A dated folder found in a history folder.
struct Folder {
    date: NaiveDate,
    path: PathBuf,
    inode: u64,
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
        match history {
            Some(history) => Ok((history, skipped)),
            None => {
                let reason = if skipped.is_empty() {
                    "no YYYY-MM-DD snapshot folders".to_owned()
                } else {
                    skipped.iter().map(Skipped::to_string).collect::<Vec<_>>().join("; ")
                };
                Err(Error::EmptyHistory { path: dir.to_path_buf(), reason })
            }
        }
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

    fn scan(dir: &Path, plan: &Plan<'_>) -> Result<(Option<History>, Vec<Skipped>), Error> {
        let io = |source| Error::Io { path: dir.to_path_buf(), source };
        let mut folders = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name();
            let Some(date) = name
                .to_str()
                .filter(|name| name.len() == 10)
                .and_then(|name| NaiveDate::parse_from_str(name, "%Y-%m-%d").ok())
            else {
                continue;
            };
            if plan.before.is_some_and(|before| date >= before) {
                continue;
            }
            // The entry's type comes with the listing; only a link needs a `stat`.
            let is_dir = match entry.file_type() {
                Ok(kind) if kind.is_symlink() => entry.path().is_dir(),
                Ok(kind) => kind.is_dir(),
                Err(_) => false,
            };
            if is_dir {
                folders.push(Folder { date, path: entry.path(), inode: entry.ino() });
            }
        }
        folders.sort_by_key(|folder| folder.date);

        let mut skipped = Vec::new();
        let mut days = Vec::new();
        // The live day: the newest valid folder, read whole.
        let mut rest = folders.len();
        let mut live = None;
        while rest > 0 {
            rest -= 1;
            let (day, skip) = plan.full(&folders[rest]);
            skipped.extend(skip);
            if let Some(day) = day {
                live = Some(day);
                break;
            }
        }
        let Some(live) = live else {
            return Ok((None, skipped.into_iter().map(|s| s.skipped).collect()));
        };
        let held_from = live.date.checked_sub_days(Days::new(plan.held)).unwrap_or(live.date);
        for folder in folders[..rest].iter().rev() {
            let (day, skip) = match (folder.date >= held_from, plan.older) {
                (true, _) => plan.full(folder),
                (false, true) => plan.summary(folder),
                // A build reads nothing older than its span.
                (false, false) => break,
            };
            skipped.extend(skip);
            days.extend(day);
        }
        days.reverse();
        days.push(live);
        skipped.sort_by_key(|s| s.skipped.date);
        let reported = skipped.iter().map(|s| s.skipped.clone()).collect();
        let history = History { days, dir: Some(dir.to_path_buf()), skipped };
        Ok((Some(history), reported))
    }

    /// The live (newest) snapshot.
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
        match snapshot.ts() == day.ts {
            true => Ok(Arc::new(snapshot)),
            false => Err(Error::Invalid {
                issues: vec![crate::Issue {
                    feed: "snapshot",
                    pointer: String::new(),
                    message: format!(
                        "the folder of {} changed since it was loaded (ts {} instead of {})",
                        day.date,
                        snapshot.ts_text(),
                        day.ts_text()
                    ),
                }],
            }),
        }
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

impl Plan<'_> {
    fn previous_day(&self, date: NaiveDate) -> Option<&Day> {
        let days = &self.previous?.days;
        days.binary_search_by_key(&date, |day| day.date).ok().map(|at| &days[at])
    }

    /// A skip of the previous load this folder still earns without being read.
    fn previous_skip(&self, folder: &Folder, stamp: &Stamp) -> Option<SkippedDay> {
        let skips = &self.previous?.skipped;
        let at = skips.binary_search_by_key(&folder.date, |s| s.skipped.date).ok()?;
        let skip = &skips[at];
        (!skip.ahead && skip.stamp == *stamp).then(|| skip.clone())
    }

    fn skip(&self, folder: &Folder, stamp: Stamp, reason: String) -> SkippedDay {
        SkippedDay { skipped: Skipped { date: folder.date, reason }, stamp, ahead: false }
    }

    /// Why a day with this `ts` is not served, if it is not: another day's snapshot, or
    /// one ahead of the clock.
    fn refuse_ts(&self, folder: &Folder, ts: DateTime<Utc>) -> Option<(String, bool)> {
        let date = folder.date;
        if ts.date_naive() != date {
            return Some((
                format!(
                    "the folder is dated {date} but holds the snapshot of {} (ts {})",
                    ts.date_naive(),
                    format_ts(ts)
                ),
                false,
            ));
        }
        let now = self.now?;
        (ts > now + FUTURE_SLACK).then(|| {
            let reason = format!(
                "its ts {} is more than a day ahead of the clock ({}); it is served once it is due",
                format_ts(ts),
                format_ts(now)
            );
            (reason, true)
        })
    }

    /// The folder read whole, or the previous load's day when nothing changed. The
    /// previous live day whose folder turned invalid stays, reported as skipped.
    fn full(&self, folder: &Folder) -> (Option<Day>, Option<SkippedDay>) {
        let stamp = Stamp::of_files(folder.inode, &folder.path);
        let previous = self.previous_day(folder.date);
        if let Some(day) = previous
            && day.snapshot.is_some()
            && day.stamp == stamp
        {
            return (Some(day.clone()), None);
        }
        let was_live = previous.is_some_and(|day| {
            day.snapshot.is_some() && self.previous.is_some_and(|h| h.live_date() == day.date)
        });
        let refused = |skip: SkippedDay| match (was_live, previous) {
            (true, Some(day)) => {
                let mut skip = skip;
                skip.skipped.reason.push_str("; the day as loaded before stays live");
                (Some(day.clone()), Some(skip))
            }
            _ => (None, Some(skip)),
        };
        if let Some(skip) = self.previous_skip(folder, &stamp) {
            return refused(skip);
        }
        let loaded = match fs::read_files(&folder.path) {
            Ok(files) => Snapshot::parse(files),
            // A feed is missing: `load_dir` also reports what is wrong with the others.
            Err(_) => fs::load_dir(&folder.path),
        };
        match loaded {
            Ok(snapshot) => match self.refuse_ts(folder, snapshot.ts()) {
                None => (Some(Day::parsed(folder.date, Arc::new(snapshot), stamp)), None),
                Some((reason, ahead)) => {
                    let mut skip = self.skip(folder, stamp, reason);
                    skip.ahead = ahead;
                    refused(skip)
                }
            },
            Err(err) => refused(self.skip(folder, stamp, err.to_string().replace('\n', ";"))),
        }
    }

    /// The folder's summary (its `index.json` read and checked alone), or the previous
    /// load's day when the folder is the same one.
    fn summary(&self, folder: &Folder) -> (Option<Day>, Option<SkippedDay>) {
        let stamp = Stamp { folder: folder.inode, files: None };
        if let Some(day) = self.previous_day(folder.date)
            && day.stamp.folder == folder.inode
        {
            let mut day = day.clone();
            // An older day is held as a summary only.
            day.snapshot = None;
            day.stamp = stamp;
            return (Some(day), None);
        }
        if let Some(skip) = self.previous_skip(folder, &stamp) {
            return (None, Some(skip));
        }
        let path = folder.path.join(Feed::Index.file_name());
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) => {
                // The day is named by the report; the folder's path is the operator's.
                let reason = format!("cannot read {}: {err}", Feed::Index.file_name());
                return (None, Some(self.skip(folder, stamp, reason)));
            }
        };
        let mut reader = Reader::new(Feed::Index.file_name());
        let index = index::parse(&mut reader, &bytes);
        let index = match index {
            Some(index) if reader.issues.is_empty() => index,
            _ => {
                let err = Error::Invalid { issues: reader.issues };
                return (None, Some(self.skip(folder, stamp, err.to_string().replace('\n', ";"))));
            }
        };
        match self.refuse_ts(folder, index.ts) {
            None => (Some(Day::summary(folder.date, &index, stamp)), None),
            Some((reason, ahead)) => {
                let mut skip = self.skip(folder, stamp, reason);
                skip.ahead = ahead;
                (None, Some(skip))
            }
        }
    }
}
