//! The working matrix of one shape family: one cell per band x colour x clarity, with
//! its ln per-carat value and where that value came from.

use chrono::NaiveDate;
use serde::Serialize;

use crate::scope::CELLS;

/// Where a published cell value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// Selected from enough of today's listings (the lower quartile of the screened asks).
    Observed,
    /// Selected from one or two screened asks (their median plus the market's typical
    /// quartile-to-median offset).
    Thin,
    /// An ask observed on an earlier day (at most [`crate::WINDOW_DAYS`] before), copied
    /// with the day it was observed.
    LookedBack,
    /// Filled by the log-linear regression.
    Modelled,
    /// Derived from the round matrix (the cushion fallback).
    Derived,
    /// Beyond the bands today's listings support: the per-carat curve of the previous
    /// published day (or of the reference snapshot), scaled to the nearest supported band.
    Carried,
}

impl Provenance {
    /// True for values that came from today's listings.
    pub fn is_observed(self) -> bool {
        matches!(self, Provenance::Observed | Provenance::Thin)
    }
}

/// The cells of one matrix, band-major then row-major.
#[derive(Debug, Clone)]
pub(crate) struct Cells {
    /// ln per-carat USD; NaN while empty.
    pub(crate) ln: Vec<f64>,
    /// Set once the cell holds a value.
    pub(crate) provenance: Vec<Option<Provenance>>,
    /// In-scope listings in the cell.
    pub(crate) listings: Vec<u32>,
    /// Of those, the asks screened out as outliers.
    pub(crate) screened: Vec<u32>,
    /// The selected per-carat level, USD (see `select.rs`).
    pub(crate) ask: Vec<Option<f64>>,
    /// The day a looked-back ask was observed.
    pub(crate) from: Vec<Option<NaiveDate>>,
    /// Whose per-carat curve the carried cells follow: a published day or `reference`.
    pub(crate) carried_from: Option<String>,
    /// Bands pooled by the regression that filled each band (0: no fit needed).
    pub(crate) pooled: Vec<usize>,
    /// Cells changed by smoothing (by more than the 6-decimal rounding step).
    pub(crate) smoothed: Vec<bool>,
}

impl Cells {
    pub(crate) fn empty() -> Cells {
        Cells {
            ln: vec![f64::NAN; CELLS],
            provenance: vec![None; CELLS],
            listings: vec![0; CELLS],
            screened: vec![0; CELLS],
            ask: vec![None; CELLS],
            from: vec![None; CELLS],
            carried_from: None,
            pooled: vec![0; crate::scope::BAND_KEYS.len()],
            smoothed: vec![false; CELLS],
        }
    }

    /// Cells that came from today's listings.
    pub(crate) fn observed_count(&self) -> usize {
        self.provenance.iter().filter(|p| p.is_some_and(Provenance::is_observed)).count()
    }
}
