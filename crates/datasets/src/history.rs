//! A [`History`]: dated snapshot folders (`YYYY-MM-DD/`), the newest valid one live, the
//! older ones read for trends and price tracking.

use std::{fmt, path::Path, sync::Arc};

use chrono::{Days, NaiveDate};

use crate::{error::Error, fs, snapshot::Snapshot};

/// How far before a trend's target day an older snapshot may stand in for it.
const TREND_SLACK_DAYS: u64 = 3;

/// One published day.
#[derive(Debug, Clone)]
pub struct Day {
    /// The day the snapshot was published for.
    pub date: NaiveDate,
    /// Its feeds.
    pub snapshot: Arc<Snapshot>,
}

/// A dated folder of a history left out, and why: its feeds are not a valid snapshot, or
/// they are the snapshot of another day than the folder's name says.
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
        History {
            days: vec![Day { date: snapshot.ts().date_naive(), snapshot: Arc::new(snapshot) }],
        }
    }

    /// Loads every `YYYY-MM-DD` folder of `dir`. Invalid days are left out and described
    /// in the returned [`Skipped`] list, and so is a folder whose snapshot's `ts` falls on
    /// another day (it would be served under the wrong date); the newest valid day is live.
    /// Fails when no day is valid.
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
        History::load_reusing(dir, None)
    }

    /// [`History::load`] for a reload: a day whose five files are byte for byte those of
    /// the same day in `previous` keeps that day's parsed snapshot (the same `Arc`),
    /// instead of being parsed and validated again. A poll of an unchanged history then
    /// costs reading the files, not parsing a year of snapshots.
    pub fn load_reusing(
        dir: &Path,
        previous: Option<&History>,
    ) -> Result<(History, Vec<Skipped>), Error> {
        let entries = std::fs::read_dir(dir)
            .map_err(|source| Error::Io { path: dir.to_path_buf(), source })?;
        let mut dated = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|source| Error::Io { path: dir.to_path_buf(), source })?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Ok(date) = NaiveDate::parse_from_str(&name, "%Y-%m-%d")
                && name.len() == 10
                && entry.path().is_dir()
            {
                dated.push((date, entry.path()));
            }
        }
        dated.sort();
        let mut days = Vec::with_capacity(dated.len());
        let mut skipped = Vec::new();
        // A history's days are sorted by date.
        let known = |date: NaiveDate| {
            let days = &previous?.days;
            days.binary_search_by_key(&date, |day| day.date).ok().map(|at| &days[at])
        };
        for (date, path) in dated {
            let loaded = match fs::read_files(&path) {
                Ok(files) => match known(date) {
                    Some(day) if *day.snapshot.files() == files => Ok(Arc::clone(&day.snapshot)),
                    _ => Snapshot::parse(files).map(Arc::new),
                },
                // A feed is missing: `load_dir` also reports what is wrong with the others.
                Err(_) => fs::load_dir(&path).map(Arc::new),
            };
            match loaded {
                Ok(snapshot) if snapshot.ts().date_naive() == date => {
                    days.push(Day { date, snapshot })
                }
                Ok(snapshot) => skipped.push(Skipped {
                    date,
                    reason: format!(
                        "the folder is dated {date} but holds the snapshot of {} (ts {})",
                        snapshot.ts().date_naive(),
                        snapshot.ts_text()
                    ),
                }),
                Err(err) => {
                    skipped.push(Skipped { date, reason: err.to_string().replace('\n', ";") })
                }
            }
        }
        if days.is_empty() {
            let reason = if skipped.is_empty() {
                "no YYYY-MM-DD snapshot folders".to_owned()
            } else {
                skipped.iter().map(Skipped::to_string).collect::<Vec<_>>().join("; ")
            };
            return Err(Error::EmptyHistory { path: dir.to_path_buf(), reason });
        }
        Ok((History { days }, skipped))
    }

    /// The live (newest) snapshot.
    pub fn live(&self) -> &Arc<Snapshot> {
        &self.days[self.days.len() - 1].snapshot
    }

    /// The live day.
    pub fn live_date(&self) -> NaiveDate {
        self.days[self.days.len() - 1].date
    }

    /// Every day, oldest first.
    pub fn days(&self) -> &[Day] {
        &self.days
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
                let old = day.snapshot.index().dcx;
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
