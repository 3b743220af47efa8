//! Gates before publishing (docs/methodology.md, section 12): a build that fails one is
//! refused, with one line a person understands, and nothing is published. In order: the
//! share of unparseable or impossible rows (counted by physical line, `read.rs`), the
//! coverage, plausible prices, the DCX move; each limit is a field of [`Gates`] (and a
//! `dcx build` flag).

use chrono::NaiveDate;
use datasets::History;
use serde::Serialize;

use crate::{
    read::{Rejected, RowCounts},
    report::Report,
};

/// The limits a build must meet to be published.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gates {
    /// The largest share (0..=1) of data rows that may be unparseable or impossible.
    pub max_bad_share: f64,
    /// The fewest round cells that must be observed today (observed or thin).
    pub min_observed_cells: usize,
    /// The lowest published per-carat price, USD, in either matrix.
    pub min_per_carat: f64,
    /// The highest published per-carat price, USD, in either matrix.
    pub max_per_carat: f64,
    /// The largest DCX move (0..=1) against the newest earlier published day.
    pub max_move: f64,
    /// Publish a larger move anyway (a person checked it).
    pub accept_move: bool,
}

/// Default of [`Gates::max_bad_share`]: 20 %.
pub const MAX_BAD_SHARE: f64 = 0.20;
/// Default of [`Gates::min_observed_cells`]: a fifth of a full band-by-band matrix of
/// the six populated bands, so the regression is fitted on real data and not on a corner.
pub const MIN_OBSERVED_CELLS: usize = 60;
/// Default of [`Gates::min_per_carat`], USD.
pub const MIN_PER_CARAT: f64 = 100.0;
/// Default of [`Gates::max_per_carat`], USD: the top of a 6 ct D FL far above any
/// real ask, yet totals stay far from overflow (6 ct x 1e6 USD).
pub const MAX_PER_CARAT: f64 = 1_000_000.0;
/// Default of [`Gates::max_move`]: 5 %.
pub const MAX_MOVE: f64 = 0.05;

impl Default for Gates {
    fn default() -> Gates {
        Gates {
            max_bad_share: MAX_BAD_SHARE,
            min_observed_cells: MIN_OBSERVED_CELLS,
            min_per_carat: MIN_PER_CARAT,
            max_per_carat: MAX_PER_CARAT,
            max_move: MAX_MOVE,
            accept_move: false,
        }
    }
}

/// A build that was not published: why, what was read, and the report when the build
/// ran to the end. `dcx build --report` writes it as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refusal {
    /// The build date, `YYYY-MM-DD`.
    pub date: String,
    /// Always false: nothing was published.
    pub published: bool,
    /// Why, in one line, e.g. "72.1 % of rows unparseable or impossible; the limit is 20 %".
    pub refused: String,
    /// Data rows read (or listings given).
    pub rows_in: u64,
    /// Listings in scope.
    pub rows_used: u64,
    /// Rejected rows by reason.
    pub rejected: Rejected,
    /// The first few rejections.
    pub rejected_examples: Vec<String>,
    /// Notes on how the input was read.
    pub notes: Vec<String>,
    /// The full report, when the build got that far.
    pub build: Option<Box<Report>>,
}

/// The share-of-bad-rows gate, checked before anything is built.
pub(crate) fn check_rows(rows: &RowCounts, gates: &Gates) -> Option<String> {
    if rows.rows == 0 {
        return Some("the input has no data rows".to_owned());
    }
    let bad = rows.rejected.unparseable + rows.rejected.impossible;
    let share = bad as f64 / rows.rows as f64;
    (share > gates.max_bad_share).then(|| {
        let swallowed = match rows.swallowed_lines {
            0 => String::new(),
            lines => format!(
                "; {lines} of them lines swallowed into records that span several lines, as a stray quote does"
            ),
        };
        format!(
            "{:.1} % of rows unparseable or impossible ({bad} of {}: {} unparseable, {} impossible{swallowed}); the limit is {} %",
            share * 100.0,
            rows.rows,
            rows.rejected.unparseable,
            rows.rejected.impossible,
            percent(gates.max_bad_share)
        )
    })
}

/// The gates on a finished build: coverage, plausible prices, the DCX move.
pub(crate) fn check_build(
    report: &Report,
    gates: &Gates,
    history: Option<&History>,
    date: NaiveDate,
) -> Option<String> {
    let [observed, thin, ..] = report.round.totals();
    if observed + thin < gates.min_observed_cells {
        return Some(format!(
            "coverage too thin: {} round cells observed today; the minimum is {}",
            observed + thin,
            gates.min_observed_cells
        ));
    }
    for (name, matrix) in [("round", &report.round), ("cushion", &report.cushion)] {
        let outside = matrix
            .cells
            .iter()
            .find(|cell| !(gates.min_per_carat..=gates.max_per_carat).contains(&cell.per_carat));
        if let Some(cell) = outside {
            return Some(format!(
                "implausible price: {name} {} ct {} {} published at {:.2} USD per carat ({:?}); the plausible range is {}..={}",
                cell.band,
                cell.color,
                cell.clarity,
                cell.per_carat,
                cell.provenance,
                gates.min_per_carat,
                gates.max_per_carat
            ));
        }
    }
    let previous = history?.days().iter().rev().find(|day| day.date < date)?;
    let old = previous.dcx();
    let change = report.dcx / old - 1.0;
    (change.abs() > gates.max_move && !gates.accept_move).then(|| {
        format!(
            "the DCX moves {:+.2} % against {} ({old:.2} -> {:.2}); the limit is {} % (accept the move to publish it)",
            change * 100.0,
            previous.date,
            report.dcx,
            percent(gates.max_move)
        )
    })
}

/// A share as a percentage without trailing zeros: 0.2 -> "20", 0.055 -> "5.5".
fn percent(share: f64) -> String {
    let text = format!("{:.2}", share * 100.0);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests;
