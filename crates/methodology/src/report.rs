//! The build report: rows in, used and rejected by reason; per band how many cells were
//! observed, looked back, modelled, carried or changed by smoothing; every cell's
//! provenance (with the day a looked-back ask was observed and whose curve a carried
//! cell follows); the ratio model sources; the DCX and its trends. Serializable to JSON.

use std::fmt::Write as _;

use serde::Serialize;

use crate::{
    cells::{Cells, Provenance},
    ratio::ModelSource,
    read::Rejected,
    scope::{BAND_KEYS, CELLS_PER_BAND, cell_grades},
};

/// What a build did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The build date, `YYYY-MM-DD`.
    pub date: String,
    /// Rows read (or listings given), before any rejection.
    pub rows_in: u64,
    /// Listings in scope and used.
    pub rows_used: u64,
    /// Rejected rows by reason (reading and filtering together).
    pub rejected: Rejected,
    /// The first few rejections, for a human to check.
    pub rejected_examples: Vec<String>,
    /// The round matrix.
    pub round: MatrixReport,
    /// The cushion matrix.
    pub cushion: MatrixReport,
    /// Where each fancy shape's ratio model came from.
    pub ratio_models: Vec<ShapeReport>,
    /// The published DCX.
    pub dcx: f64,
    /// 24-hour change, percent.
    pub trend: f64,
    /// 7-day change, percent.
    pub trend_7d: Option<f64>,
    /// 30-day change, percent.
    pub trend_30d: Option<f64>,
    /// Anything worth a human's attention (missing trends, fallbacks).
    pub notes: Vec<String>,
}

/// One matrix's cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatrixReport {
    /// In-scope listings of this shape family.
    pub listings: u64,
    /// Set when the matrix was not built from its own listings, with the reason.
    pub fallback: Option<String>,
    /// Rounds of the smoothing passes.
    pub smoothing_passes: usize,
    /// True when smoothing needed the final majorant step.
    pub smoothing_lifted: bool,
    /// Per band counts.
    pub bands: Vec<BandReport>,
    /// Every cell, band by band, colour by colour, clarity by clarity.
    pub cells: Vec<CellReport>,
}

/// Cell counts of one band.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BandReport {
    /// Band key, e.g. `1.0`.
    pub band: String,
    /// In-scope listings in the band.
    pub listings: u64,
    /// Asks screened out as outliers in the band.
    pub screened: u64,
    /// Cells selected from enough listings.
    pub observed: usize,
    /// Cells selected from one or two screened asks.
    pub thin: usize,
    /// Cells holding an ask observed on an earlier day.
    pub looked_back: usize,
    /// Cells filled by the regression.
    pub modelled: usize,
    /// Cells derived from the round matrix.
    pub derived: usize,
    /// Cells carried beyond the supported bands (the curve of an earlier day or of the
    /// reference snapshot).
    pub carried: usize,
    /// Cells changed by smoothing.
    pub smoothed: usize,
    /// Bands pooled by the regression fit of this band (0 when none was needed).
    pub pooled_bands: usize,
}

/// One published cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellReport {
    /// Band key.
    pub band: &'static str,
    /// Colour grade.
    pub color: &'static str,
    /// Clarity grade.
    pub clarity: &'static str,
    /// Where the value came from.
    pub provenance: Provenance,
    /// In-scope listings in the cell.
    pub listings: u32,
    /// Of those, asks screened out as outliers (see `select.rs`).
    pub screened: u32,
    /// The selected per-carat level, USD, for observed and thin cells; for looked-back
    /// cells, the ask observed on `looked_back_from`.
    pub ask: Option<f64>,
    /// The published per-carat price, USD (exp of the rounded ln value), to the cent.
    pub per_carat: f64,
    /// True when smoothing changed the value.
    pub smoothed: bool,
    /// For looked-back cells, the day the ask was observed (`YYYY-MM-DD`).
    pub looked_back_from: Option<String>,
    /// For carried cells, whose per-carat curve they follow: the published day
    /// (`YYYY-MM-DD`) or `reference`.
    pub carried_from: Option<String>,
}

/// Where one fancy shape's ratio model came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShapeReport {
    /// Shape name.
    pub shape: &'static str,
    /// Its source.
    pub source: ModelSource,
}

impl MatrixReport {
    pub(crate) fn new(
        cells: &Cells,
        published: &[f64],
        listings: u64,
        fallback: Option<String>,
        outcome: crate::smooth::Outcome,
    ) -> MatrixReport {
        let mut bands = Vec::new();
        let mut list = Vec::new();
        for (band, key) in BAND_KEYS.iter().enumerate() {
            let range = band * CELLS_PER_BAND..(band + 1) * CELLS_PER_BAND;
            let count = |p: Provenance| {
                cells.provenance[range.clone()].iter().filter(|&&x| x == Some(p)).count()
            };
            bands.push(BandReport {
                band: (*key).to_owned(),
                listings: cells.listings[range.clone()].iter().map(|&n| u64::from(n)).sum(),
                screened: cells.screened[range.clone()].iter().map(|&n| u64::from(n)).sum(),
                observed: count(Provenance::Observed),
                thin: count(Provenance::Thin),
                looked_back: count(Provenance::LookedBack),
                modelled: count(Provenance::Modelled),
                derived: count(Provenance::Derived),
                carried: count(Provenance::Carried),
                smoothed: cells.smoothed[range.clone()].iter().filter(|&&s| s).count(),
                pooled_bands: cells.pooled[band],
            });
            for cell in range {
                let (_, color, clarity) = cell_grades(cell);
                list.push(CellReport {
                    band: key,
                    color: color.as_str(),
                    clarity: clarity.as_str(),
                    provenance: cells.provenance[cell].unwrap_or(Provenance::Modelled),
                    listings: cells.listings[cell],
                    screened: cells.screened[cell],
                    ask: cells.ask[cell].map(pricing::round_cents),
                    per_carat: pricing::round_cents(published[cell].exp()),
                    smoothed: cells.smoothed[cell],
                    looked_back_from: cells.from[cell].map(|d| d.to_string()),
                    carried_from: (cells.provenance[cell] == Some(Provenance::Carried))
                        .then(|| cells.carried_from.clone())
                        .flatten(),
                });
            }
        }
        MatrixReport {
            listings,
            fallback,
            smoothing_passes: outcome.passes,
            smoothing_lifted: outcome.lifted,
            bands,
            cells: list,
        }
    }

    /// Cells by provenance over all bands: observed, thin, looked back, modelled,
    /// derived, carried.
    pub fn totals(&self) -> [usize; 6] {
        let each =
            |b: &BandReport| [b.observed, b.thin, b.looked_back, b.modelled, b.derived, b.carried];
        self.bands.iter().map(each).fold([0; 6], |sum, n| std::array::from_fn(|i| sum[i] + n[i]))
    }
}

impl Report {
    /// A readable multi-line summary: rows, cells by provenance, ratio models, DCX.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let r = &self.rejected;
        let _ = writeln!(out, "build {}", self.date);
        let _ = writeln!(
            out,
            "rows: {} in, {} used, {} rejected ({} unparseable, {} impossible, {} out of scope, {} duplicate)",
            self.rows_in,
            self.rows_used,
            r.total(),
            r.unparseable,
            r.impossible,
            r.out_of_scope,
            r.duplicate
        );
        for (name, matrix) in [("round", &self.round), ("cushion", &self.cushion)] {
            let [observed, thin, back, modelled, derived, carried] = matrix.totals();
            let smoothed: usize = matrix.bands.iter().map(|b| b.smoothed).sum();
            let _ = write!(
                out,
                "{name}: {} listings ({} screened as outliers); cells {observed} observed, {thin} thin, {back} looked back, {modelled} modelled, {carried} carried",
                matrix.listings,
                matrix.bands.iter().map(|b| b.screened).sum::<u64>()
            );
            if derived > 0 {
                let _ = write!(out, ", {derived} derived");
            }
            let _ = writeln!(out, "; {smoothed} changed by smoothing");
            if let Some(fallback) = &matrix.fallback {
                let _ = writeln!(out, "  {fallback}");
            }
        }
        for band in &self.round.bands {
            let _ = writeln!(
                out,
                "  {:>4} ct: {:>5} listings, {:>2} observed, {:>2} thin, {:>2} looked back, {:>2} modelled, {:>2} carried, {:>2} smoothed",
                band.band,
                band.listings,
                band.observed,
                band.thin,
                band.looked_back,
                band.modelled,
                band.carried,
                band.smoothed
            );
        }
        let refit = self
            .ratio_models
            .iter()
            .filter(|s| matches!(s.source, ModelSource::Refit { .. }))
            .count();
        let _ = writeln!(
            out,
            "ratio models: {refit} refitted, {} kept",
            self.ratio_models.len() - refit
        );
        let fmt = |t: Option<f64>| t.map_or("null".to_owned(), |t| format!("{t:+.2} %"));
        let _ = writeln!(
            out,
            "dcx {:.2} (24h {:+.2} %, 7d {}, 30d {})",
            self.dcx,
            self.trend,
            fmt(self.trend_7d),
            fmt(self.trend_30d)
        );
        for note in &self.notes {
            let _ = writeln!(out, "note: {note}");
        }
        out
    }
}
