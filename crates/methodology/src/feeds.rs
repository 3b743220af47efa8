//! Writing the published feeds: the matrices (ln values rounded to 6 decimals), the
//! index computed from the **parsed** round matrix (exactly what validation will read),
//! the trends, and the depth counts.

use chrono::{Days, NaiveDate};
use datasets::{
    History,
    wire::{IndexFile, MatrixFile, Ordered, SpecFile},
};
use pricing::{BasketEntry, Carat, Clarity, Color, PriceMatrix};

use crate::{
    BasketSpec, Error,
    scope::{BAND_CARATS, BAND_KEYS},
};

/// How far before a trend's target day an older published day may stand in for it
/// (the same slack `datasets::History::trend` allows).
pub const TREND_SLACK_DAYS: u64 = 3;

/// How many days before the newest earlier day a build reads of its history
/// (`datasets::History::load_before`): the 30-day trend with its slack, which covers the
/// look-back window and the previous day too. A build reads nothing older, so its cost
/// does not grow with the history.
pub const HISTORY_SPAN_DAYS: u64 = 30 + TREND_SLACK_DAYS;
const _: () = assert!(HISTORY_SPAN_DAYS >= crate::scope::WINDOW_DAYS);

/// The publication time of a build for `date`: midnight UTC.
pub(crate) fn ts_text(date: NaiveDate) -> String {
    format!("{}T00:00:00Z", date.format("%Y-%m-%d"))
}

/// Rounds to 6 decimals, the precision of published ln values.
pub(crate) fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// A matrix feed from band-major, row-major ln values.
pub(crate) fn matrix_file(ln: &[f64], ts: &str) -> MatrixFile {
    let per_band = Color::ALL.len() * Clarity::ALL.len();
    MatrixFile {
        ts: ts.to_owned(),
        r: Color::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
        c: Clarity::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
        s: [Color::ALL.len(), Clarity::ALL.len()],
        l: Ordered(
            BAND_KEYS
                .iter()
                .zip(ln.chunks(per_band))
                .map(|(key, values)| {
                    ((*key).to_owned(), values.iter().map(|&v| round6(v)).collect())
                })
                .collect(),
        ),
    }
}

/// Reads a matrix feed back the way the validator does (through `serde_json::Value`), so
/// that the index is computed from exactly the numbers consumers will see.
pub(crate) fn parse_matrix(bytes: &[u8]) -> Result<PriceMatrix, Error> {
    let bad = |why: &str| Error::Internal(format!("written matrix unreadable: {why}"));
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| bad(&e.to_string()))?;
    let l = value.get("l").and_then(|l| l.as_object()).ok_or_else(|| bad("no `l`"))?;
    let mut values = Vec::new();
    for key in BAND_KEYS {
        let band = l.get(key).and_then(|v| v.as_array()).ok_or_else(|| bad(key))?;
        for v in band {
            values.push(v.as_f64().ok_or_else(|| bad("not a number"))?);
        }
    }
    PriceMatrix::new(BAND_CARATS.to_vec(), Color::ALL.to_vec(), Clarity::ALL.to_vec(), values)
        .map_err(|e| bad(&e.to_string()))
}

/// The DCX trends of a build.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Trends {
    pub(crate) trend: f64,
    pub(crate) trend_7d: Option<f64>,
    pub(crate) trend_30d: Option<f64>,
    pub(crate) notes: Vec<String>,
}

/// Percent changes of `dcx` against earlier published days: 1 day (reported as 0.0 when
/// missing), 7 and 30 days (null when missing). A day up to [`TREND_SLACK_DAYS`] older
/// than the target stands in for it. Rounded to 2 decimals.
pub(crate) fn trends(history: Option<&History>, date: NaiveDate, dcx: f64) -> Trends {
    let mut notes = Vec::new();
    let mut change = |days: u64| -> Option<f64> {
        let target = date.checked_sub_days(Days::new(days))?;
        let earliest = target.checked_sub_days(Days::new(TREND_SLACK_DAYS)).unwrap_or(target);
        let found = history
            .and_then(|h| h.days().iter().rev().find(|d| d.date <= target && d.date >= earliest));
        match found {
            Some(day) => {
                let old = day.dcx();
                let percent = pricing::percent_change(old, dcx).ok()?;
                Some((percent * 100.0).round() / 100.0)
            }
            None => {
                notes.push(format!(
                    "no published day between {earliest} and {target}: the {days}-day trend is {}",
                    if days == 1 { "0.0" } else { "null" }
                ));
                None
            }
        }
    };
    Trends { trend: change(1).unwrap_or(0.0), trend_7d: change(7), trend_30d: change(30), notes }
}

/// `index.json` from the parsed round matrix; returns the feed and the published DCX.
pub(crate) fn index_file(
    matrix: &PriceMatrix,
    basket: &[BasketSpec],
    history: Option<&History>,
    date: NaiveDate,
    ts: &str,
) -> Result<(IndexFile, Trends), Error> {
    let mut entries = Vec::with_capacity(basket.len());
    let mut specs = Vec::with_capacity(basket.len());
    for spec in basket {
        let carat = Carat::new(spec.carat).map_err(|e| Error::Basket(e.to_string()))?;
        let per_carat = matrix.per_carat(carat, spec.color, spec.clarity);
        entries.push(BasketEntry { weight: spec.weight, per_carat });
        let price = pricing::round_cents(per_carat * spec.carat);
        specs.push(SpecFile {
            carat: spec.carat,
            color: spec.color.as_str().to_owned(),
            clarity: spec.clarity.as_str().to_owned(),
            cut: "Excellent".to_owned(),
            price,
            per_carat: pricing::round_cents(per_carat),
            log: round6(price.ln()),
            weight: spec.weight,
        });
    }
    let dcx =
        pricing::weighted_geometric_mean(&entries).map_err(|e| Error::Basket(e.to_string()))?;
    let dcx = pricing::round_cents(dcx);
    let trends = trends(history, date, dcx);
    let file = IndexFile {
        dcx,
        trend: trends.trend,
        trend_7d: trends.trend_7d,
        trend_30d: trends.trend_30d,
        ts: ts.to_owned(),
        specs,
    };
    Ok((file, trends))
}

#[cfg(test)]
mod tests;
