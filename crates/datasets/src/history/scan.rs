//! Reading a history folder: which dated folders it holds, what identifies each one's
//! contents without reading them ([`Stamp`]), and how a load treats each day ([`Plan`]):
//! taken unchanged from the previous load, parsed whole, read as a summary, or skipped.

use std::{
    os::unix::fs::{DirEntryExt, MetadataExt},
    path::{Path, PathBuf},
    sync::Arc,
};

use chrono::{DateTime, Days, NaiveDate, Utc};

use super::{Day, FUTURE_SLACK, History, Skipped};
use crate::{
    error::Error,
    fs, index,
    reader::Reader,
    snapshot::{Feed, Snapshot, format_ts},
};

/// What identifies a day folder's contents without reading them: the folder's inode
/// (a published day is renamed into place whole, so a new one has a new inode) and, for
/// a day held parsed, the inode, length and modification time of each feed file and of
/// its spread file (`matrix_stats.json`), so a file edited in place is read again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Stamp {
    folder: u64,
    files: Option<Box<[FileStamp; 6]>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct FileStamp {
    inode: u64,
    len: u64,
    modified_ns: i128,
}

impl Stamp {
    /// The folder's, its feed files' and its spread file's metadata; a missing file
    /// stamps as zeros.
    fn of_files(folder: u64, dir: &Path) -> Stamp {
        let [a, b, c, d, e] = Feed::ALL.map(Feed::file_name);
        let files = [a, b, c, d, e, crate::MATRIX_STATS_FILE].map(|name| {
            match std::fs::metadata(dir.join(name)) {
                Ok(meta) => FileStamp {
                    inode: meta.ino(),
                    len: meta.len(),
                    modified_ns: i128::from(meta.mtime()) * 1_000_000_000
                        + i128::from(meta.mtime_nsec()),
                },
                Err(_) => FileStamp::default(),
            }
        });
        Stamp { folder, files: Some(Box::new(files)) }
    }
}

/// A skipped day remembered with its stamp, so that an unchanged bad day is not read
/// again on every poll (unless it was skipped for being ahead of the clock).
#[derive(Debug, Clone)]
pub(super) struct SkippedDay {
    skipped: Skipped,
    stamp: Stamp,
    ahead: bool,
}

/// How a load treats the days it finds.
pub(super) struct Plan<'a> {
    /// The history of the previous load: unchanged days are taken from it.
    pub(super) previous: Option<&'a History>,
    /// The clock: a day whose `ts` is more than a day ahead of it is skipped.
    pub(super) now: Option<DateTime<Utc>>,
    /// Only days before this one (a build's date).
    pub(super) before: Option<NaiveDate>,
    /// Days held parsed before the live one.
    pub(super) held: u64,
    /// Whether days older than the held ones are loaded as summaries (or left out).
    pub(super) older: bool,
}

/// A dated folder found in a history folder.
struct Folder {
    date: NaiveDate,
    path: PathBuf,
    inode: u64,
}

impl History {
    pub(super) fn scan(
        dir: &Path,
        plan: &Plan<'_>,
    ) -> Result<(Option<History>, Vec<Skipped>), Error> {
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
            Ok(files) => {
                Snapshot::parse(files).and_then(|parsed| fs::with_stats(&folder.path, parsed))
            }
            // A feed is missing: `load_dir` also reports what is wrong with the others.
            Err(_) => fs::load_dir(&folder.path),
        };
        match loaded {
            Ok(snapshot) => match self.refuse_ts(folder, snapshot.ts()) {
                None => (Some(Day::parsed(folder.date, Arc::new(snapshot), stamp)), None),
                Some((reason, ahead)) => {
                    refused(SkippedDay { ahead, ..self.skip(folder, stamp, reason) })
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
                (None, Some(SkippedDay { ahead, ..self.skip(folder, stamp, reason) }))
            }
        }
    }
}
