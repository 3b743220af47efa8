//! Publishing a build into a history folder, and the summary `dcx history` prints.

use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use datasets::{History, Snapshot, fs::Existing};

use crate::{Build, Error};

/// Writes `build` as `history_dir/YYYY-MM-DD/` durably and atomically
/// ([`datasets::fs::publish_dir`]): the five feeds, `observed.json` and `matrix_stats.json`, the day complete
/// or not at all, on disk when this returns. The feeds must be a valid snapshot whose
/// `ts` falls on `date`. What happens to an existing day is `existing`'s to say; a
/// failure leaves the history as it was. The caller holds the history's
/// [`datasets::fs::HistoryLock`] for the whole build.
pub fn publish(
    history_dir: &Path,
    date: NaiveDate,
    build: &Build,
    existing: Existing,
) -> Result<PathBuf, Error> {
    let files = &build.files;
    let snapshot = Snapshot::parse(files.clone())
        .map_err(|err| Error::Refused { date, reason: err.to_string() })?;
    let day = snapshot.ts().date_naive();
    if day != date {
        return Err(Error::Refused { date, reason: format!("the snapshot's ts is on {day}") });
    }
    let dir = history_dir.join(date.format("%Y-%m-%d").to_string());
    let extras = build.extras();
    datasets::fs::publish_dir(&dir, files, &extras, existing)
        .map_err(|source| Error::Publish { path: dir.clone(), source })?;
    Ok(dir)
}

/// Every published day, oldest first: date, DCX and 24-hour trend (percent).
pub fn history_summary(history: &History) -> Vec<(NaiveDate, f64, f64)> {
    history.days().iter().map(|day| (day.date, day.dcx(), day.trend())).collect()
}
