//! What each published day observed, kept beside its feeds as `observed.json` (its format:
//! docs/data-formats.md): the cells selected from that day's own listings, with their
//! asks. A later build's look-back copies only these, dated by the day they were
//! observed, so nothing modelled, carried or itself looked back is ever copied, and no
//! value outlives its window (no chaining).

use std::path::Path;

use chrono::{Days, NaiveDate};
use datasets::History;
use pricing::{Clarity, Color};
use serde::{Deserialize, Serialize};

use crate::{
    BuildOptions,
    cells::{Cells, Provenance},
    scope::{
        BAND_KEYS, CELLS, MAX_ASK_PER_CARAT, MIN_ASK_PER_CARAT, WINDOW_DAYS, cell_grades,
        cell_index,
    },
};

/// The file a build writes beside the five feeds of a published day.
pub const OBSERVED_FILE: &str = "observed.json";

/// Which matrix of a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Round,
    Cushion,
}

#[derive(Debug, Serialize, Deserialize)]
struct File {
    date: String,
    round: Vec<Entry>,
    cushion: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    band: String,
    color: String,
    clarity: String,
    ln: f64,
    listings: u32,
    thin: bool,
}

/// One earlier day's observed cells, by cell index: the ln of each selected per-carat
/// ask.
#[derive(Debug, Clone)]
pub(crate) struct Day {
    pub(crate) date: NaiveDate,
    round: Vec<Option<f64>>,
    cushion: Vec<Option<f64>>,
}

impl Day {
    pub(crate) fn cells(&self, family: Family) -> &[Option<f64>] {
        match family {
            Family::Round => &self.round,
            Family::Cushion => &self.cushion,
        }
    }
}

/// The bytes of `observed.json` for a build of `date`: the observed and thin cells of
/// both matrices (a derived cushion matrix has none).
pub(crate) fn to_bytes(date: NaiveDate, round: &Cells, cushion: &Cells) -> Vec<u8> {
    let file = File { date: date.to_string(), round: entries(round), cushion: entries(cushion) };
    let mut bytes = serde_json::to_vec(&file).expect("plain data serializes");
    bytes.push(b'\n');
    bytes
}

fn entries(cells: &Cells) -> Vec<Entry> {
    (0..CELLS)
        .filter_map(|cell| {
            let provenance = cells.provenance[cell].filter(|p| p.is_observed())?;
            let ask = cells.ask[cell]?;
            let (band, color, clarity) = cell_grades(cell);
            Some(Entry {
                band: BAND_KEYS[band].to_owned(),
                color: color.as_str().to_owned(),
                clarity: clarity.as_str().to_owned(),
                ln: crate::feeds::round6(ask.ln()),
                listings: cells.listings[cell] - cells.screened[cell],
                thin: provenance == Provenance::Thin,
            })
        })
        .collect()
}

/// Parses the `observed.json` of the published day `date`, checking every value.
pub(crate) fn parse(date: NaiveDate, bytes: &[u8]) -> Result<Day, String> {
    let file: File = serde_json::from_slice(bytes).map_err(|e| format!("not readable: {e}"))?;
    if file.date != date.to_string() {
        return Err(format!("it is dated {}, not {date}", file.date));
    }
    Ok(Day {
        date,
        round: cells_of(&file.round, "round")?,
        cushion: cells_of(&file.cushion, "cushion")?,
    })
}

fn cells_of(entries: &[Entry], family: &str) -> Result<Vec<Option<f64>>, String> {
    let mut cells = vec![None; CELLS];
    let plausible = MIN_ASK_PER_CARAT.ln()..=MAX_ASK_PER_CARAT.ln();
    for entry in entries {
        let at = || format!("{family} {} {} {}", entry.band, entry.color, entry.clarity);
        let band = BAND_KEYS
            .iter()
            .position(|&key| key == entry.band)
            .ok_or_else(|| format!("{}: no such band", at()))?;
        let color = Color::parse(&entry.color).map_err(|e| format!("{}: {e}", at()))?;
        let clarity = Clarity::parse(&entry.clarity).map_err(|e| format!("{}: {e}", at()))?;
        if !plausible.contains(&entry.ln) {
            return Err(format!(
                "{}: ln {} is not a per-carat ask within {MIN_ASK_PER_CARAT}..={MAX_ASK_PER_CARAT} USD",
                at(),
                entry.ln
            ));
        }
        if entry.listings == 0 {
            return Err(format!("{}: an observed cell needs at least one listing", at()));
        }
        let cell = cell_index(band, color, clarity);
        if cells[cell].is_some() {
            return Err(format!("{}: listed twice", at()));
        }
        cells[cell] = Some(entry.ln);
    }
    Ok(cells)
}

/// The days whose `observed.json` a build of `date` reads: the published days of the
/// look-back window ([`WINDOW_DAYS`] before `date`) and the newest day before `date`
/// (whose per-carat curve carries the bands beyond the data).
pub(crate) fn days_wanted(history: &History, date: NaiveDate) -> Vec<NaiveDate> {
    let oldest = date.checked_sub_days(Days::new(WINDOW_DAYS)).unwrap_or(date);
    let earlier: Vec<NaiveDate> =
        history.days().iter().map(|day| day.date).filter(|&d| d < date).collect();
    let newest = earlier.last().copied();
    earlier.into_iter().filter(|&d| d >= oldest || Some(d) == newest).collect()
}

/// Reads the `observed.json` of the days a build of `date` needs from the history folder
/// `history_dir` (loaded as `history`), for [`BuildOptions::observed`]. A day without the
/// file (published before it existed, or by hand) is left out.
pub fn read_observed(
    history_dir: &Path,
    history: &History,
    date: NaiveDate,
) -> Result<Vec<(NaiveDate, Vec<u8>)>, datasets::Error> {
    let mut out = Vec::new();
    for day in days_wanted(history, date) {
        let dir = history_dir.join(day.format("%Y-%m-%d").to_string());
        if let Some(bytes) = datasets::fs::read_extra(&dir, OBSERVED_FILE)? {
            out.push((day, bytes));
        }
    }
    Ok(out)
}

/// The earlier days' observations of a build, newest first; a file that does not parse
/// is left out with a note.
pub(crate) fn parse_all(options: &BuildOptions<'_>, notes: &mut Vec<String>) -> Vec<Day> {
    let mut days: Vec<Day> = options
        .observed
        .iter()
        .filter(|(date, _)| *date < options.date)
        .filter_map(|(date, bytes)| match parse(*date, bytes) {
            Ok(day) => Some(day),
            Err(why) => {
                notes.push(format!(
                    "{OBSERVED_FILE} of {date} ignored ({why}): nothing is looked back from that day"
                ));
                None
            }
        })
        .collect();
    days.sort_by_key(|day| std::cmp::Reverse(day.date));
    days.dedup_by_key(|day| day.date);
    days
}

#[cfg(test)]
mod tests;
