//! `matrix_stats.json`: for every cell of both matrices, the screened asks behind the
//! price, their spread (10th to 90th percentile per carat) and how the price was made;
//! parsed into a [`pricing::SpreadSet`] and checked against the matrices of its snapshot.
//!
//! The file is optional: a day published before it existed is valid without it, and its
//! quotes then have no spread ([`Snapshot::spreads`] is `None`).

use chrono::{DateTime, Utc};
use pricing::{
    Basis, CellSpread, Clarity, Color, Evidence, PERCENTILES, PriceMatrix, Quote, SpreadMatrix,
    SpreadSet,
};
use serde_json::Value;

use crate::{
    error::Error,
    matrix::{carat_bands, grade_list},
    reader::{Reader, child, item},
    snapshot::{Snapshot, format_ts},
};

#[cfg(test)]
mod tests;

/// The file name of the spread feed, published in a day's folder beside the five feeds.
pub const MATRIX_STATS_FILE: &str = "matrix_stats.json";

/// A snapshot's spread feed: its bytes as published and what they say.
#[derive(Debug, Clone)]
pub(crate) struct Stats {
    pub(crate) bytes: Vec<u8>,
    pub(crate) spreads: SpreadSet,
}

/// A parsed spread feed, before the checks against the matrices.
struct StatsFeed {
    ts: DateTime<Utc>,
    colors: Vec<Color>,
    clarities: Vec<Clarity>,
    round: SpreadMatrix,
    cushion: SpreadMatrix,
}

/// Parses and validates `matrix_stats.json` on its own: syntax, grades, band keys, every
/// cell (`n` a non-negative integer, five positive ascending quantiles, a known basis),
/// but not the checks against the matrices ([`Snapshot::with_stats`] does those).
///
/// ```
/// let stats = datasets::reference::embedded_stats();
/// assert!(datasets::validate_stats(stats).is_ok());
/// let err = datasets::validate_stats(br#"{"ts": "2026-11-20T00:00:00Z"}"#).unwrap_err();
/// assert_eq!(err.issues()[0].feed, "matrix_stats.json");
/// ```
pub fn validate_stats(bytes: &[u8]) -> Result<(), Error> {
    let mut reader = Reader::new(MATRIX_STATS_FILE);
    match parse(&mut reader, bytes) {
        Some(_) if reader.issues.is_empty() => Ok(()),
        _ => Err(Error::Invalid { issues: reader.issues }),
    }
}

impl Snapshot {
    /// This snapshot with its spread feed, `matrix_stats.json`, checked on its own and
    /// against the snapshot: the same `ts`, the same grades in the same order as
    /// `matrix.json`, and each family's band keys those of its matrix (`round` of
    /// `matrix.json`, `cushion` of `matrix_cushion.json`). The error lists every problem.
    ///
    /// ```
    /// use datasets::{Snapshot, reference};
    ///
    /// let bare = Snapshot::parse(reference::embedded())?;
    /// assert!(bare.spreads().is_none());
    /// let with = bare.with_stats(reference::embedded_stats().to_vec())?;
    /// assert!(with.spreads().is_some());
    /// # Ok::<(), datasets::Error>(())
    /// ```
    pub fn with_stats(mut self, bytes: Vec<u8>) -> Result<Snapshot, Error> {
        let mut reader = Reader::new(MATRIX_STATS_FILE);
        let parsed = parse(&mut reader, &bytes);
        if let Some(feed) = &parsed {
            if feed.ts != self.ts() {
                let (ts, own) = (format_ts(feed.ts), self.ts_text());
                reader.issue("/ts", format!("ts {ts} is not the snapshot's ts {own}"));
            }
            let round = self.pricing().round();
            if feed.colors != round.colors() || feed.clarities != round.clarities() {
                reader.issue("", "`r` and `c` must list the grades of matrix.json in its order");
            }
            same_bands(&mut reader, "/round", &feed.round, round);
            same_bands(&mut reader, "/cushion", &feed.cushion, self.pricing().cushion());
        }
        match parsed {
            Some(feed) if reader.issues.is_empty() => {
                let spreads = SpreadSet::new(feed.round, feed.cushion);
                self.stats = Some(Box::new(Stats { bytes, spreads }));
                Ok(self)
            }
            _ => Err(Error::Invalid { issues: reader.issues }),
        }
    }

    /// The spread of every cell, when the snapshot has `matrix_stats.json`.
    pub fn spreads(&self) -> Option<&SpreadSet> {
        self.stats.as_ref().map(|stats| &stats.spreads)
    }

    /// `matrix_stats.json` as published, when the snapshot has it.
    pub fn stats_file(&self) -> Option<&[u8]> {
        self.stats.as_ref().map(|stats| stats.bytes.as_slice())
    }

    /// The evidence behind a quote of this snapshot (its range, the asks behind it, how
    /// its price was made), when the snapshot has spreads.
    #[inline(always)]
    pub fn evidence(&self, quote: &Quote) -> Option<Evidence> {
        self.spreads().map(|spreads| spreads.evidence(quote))
    }
}

fn same_bands(reader: &mut Reader, pointer: &str, spread: &SpreadMatrix, matrix: &PriceMatrix) {
    if spread.bands() != matrix.bands() {
        let feed = if pointer == "/round" { "matrix.json" } else { "matrix_cushion.json" };
        reader.issue(pointer, format!("band keys must be those of {feed}"));
    }
}

fn parse(reader: &mut Reader, bytes: &[u8]) -> Option<StatsFeed> {
    let root = reader.parse(bytes)?;
    let object = reader.object(&root, "")?;
    let ts = reader.ts(object);
    let colors = grade_list(reader, object.get("r"), "r", Color::parse);
    let clarities = grade_list(reader, object.get("c"), "c", Clarity::parse);
    if let (Some(colors), Some(clarities)) = (&colors, &clarities) {
        let expected = Value::from(vec![colors.len(), clarities.len()]);
        if object.get("s") != Some(&expected) {
            reader.issue("/s", format!("expected [len(r), len(c)] = {expected}"));
        }
    }
    let expected = Value::from(PERCENTILES.map(|p| p as u64).to_vec());
    if object.get("percentiles") != Some(&expected) {
        reader.issue("/percentiles", format!("expected {expected}"));
    }
    let (colors, clarities) = (colors?, clarities?);
    let read_family = |reader: &mut Reader, key: &str| {
        let Some(value) = object.get(key) else {
            reader.issue("", format!("missing field `{key}`"));
            return None;
        };
        family(reader, value, &format!("/{key}"), &colors, &clarities)
    };
    let (round, cushion) = (read_family(reader, "round"), read_family(reader, "cushion"));
    Some(StatsFeed { ts: ts?, round: round?, cushion: cushion?, colors, clarities })
}

/// One family: band key -> the cells of that band, row-major.
fn family(
    reader: &mut Reader,
    value: &Value,
    pointer: &str,
    colors: &[Color],
    clarities: &[Clarity],
) -> Option<SpreadMatrix> {
    let per_band = colors.len() * clarities.len();
    let mut bands = carat_bands(reader, value, pointer, Some(per_band), "cells", cell)?;
    bands.sort_by(|a, b| a.0.total_cmp(&b.0));
    let carats = bands.iter().map(|band| band.0).collect();
    let cells = bands.into_iter().flat_map(|band| band.2).collect();
    reader.ok(pointer, SpreadMatrix::new(carats, colors.to_vec(), clarities.to_vec(), cells))
}

/// One cell: `{"n": 12, "q": [p10, p25, p50, p75, p90], "basis": "observed"}`.
fn cell(reader: &mut Reader, value: &Value, pointer: &str) -> Option<CellSpread> {
    let object = reader.object(value, pointer)?;
    let n = reader.field(object, pointer, "n").and_then(|n| reader.count(n, &child(pointer, "n")));
    let observations = n.and_then(|n| {
        let fits = u32::try_from(n).ok();
        if fits.is_none() {
            reader.issue(&child(pointer, "n"), format!("count {n} is too large"));
        }
        fits
    });
    let at = child(pointer, "q");
    let q = reader.field(object, pointer, "q").and_then(|q| reader.array(q, &at));
    let quantiles = q.and_then(|q| {
        let numbers: Option<Vec<f64>> =
            q.iter().enumerate().map(|(i, v)| reader.number(v, &item(&at, i))).collect();
        let array = numbers.and_then(|numbers| <[f64; 5]>::try_from(numbers).ok());
        if array.is_none() && q.iter().all(Value::is_number) {
            reader.issue(&at, format!("expected 5 quantiles, got {}", q.len()));
        }
        array
    });
    let at_basis = child(pointer, "basis");
    let basis = reader.field(object, pointer, "basis").and_then(|b| reader.string(b, &at_basis));
    let basis = basis.and_then(|text| reader.ok(&at_basis, Basis::parse(text)));
    let cell = CellSpread { observations: observations?, quantiles: quantiles?, basis: basis? };
    reader.ok(&at, cell.check())?;
    Some(cell)
}

/// The typical ln distance of a cell's 10th, 25th, 50th, 75th and 90th percentile ask from
/// its published price, used when a build's own cells are too few to measure it: the
/// figures measured on the full `diamonds` data set (the median over its 234 round cells
/// of 20 screened asks or more; `docs/methodology.md`).
pub const DEFAULT_SPREAD_LN: [f64; 5] = [-0.120, -0.068, -0.009, 0.063, 0.146];

/// How much wider than the typical spread the range of a cell without asks of its own
/// is drawn (about its centre): its price is a model's, so its range says so.
pub const MODEL_WIDENING: f64 = 1.5;

/// The model range of a cell whose published ln per-carat price is `ln_price`: per-carat
/// USD at each percentile, from `typical` (each quantile's ln distance from the published
/// price in well-filled cells), the distances from the typical median widened by
/// `widening`. So the published price sits where it sits in a well-filled cell, and the
/// range around it is `widening` times as wide.
///
/// ```
/// use datasets::{DEFAULT_SPREAD_LN, modelled_quantiles};
///
/// let q = modelled_quantiles(8.0, DEFAULT_SPREAD_LN, 1.0);
/// assert!((q[0] - (8.0 + DEFAULT_SPREAD_LN[0]).exp()).abs() < 1e-9);
/// let wide = modelled_quantiles(8.0, DEFAULT_SPREAD_LN, 1.5);
/// assert!(wide[0] < q[0] && q[2] == wide[2] && wide[4] > q[4]);
/// ```
pub fn modelled_quantiles(ln_price: f64, typical: [f64; 5], widening: f64) -> [f64; 5] {
    let centre = ln_price + typical[2];
    typical.map(|offset| (centre + widening * (offset - typical[2])).exp())
}
