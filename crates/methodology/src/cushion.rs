//! The cushion matrix (docs/methodology.md, section 8): the round matrix times a
//! cushion-to-round factor per band, measured like with like (`matched.rs`), except in the
//! cushion cells with [`MIN_OWN_CUSHION_ASKS`] asks of their own, which keep their own
//! level (their empty neighbours may look back to earlier days' own levels). A cell of a
//! few asks does not: a low quantile of three asks sits above the same quantile of many,
//! so it would not be on the round matrix's footing, and the factor is.

use pricing::PriceMatrix;

use crate::{
    BuildOptions,
    cells::{Cells, Provenance},
    fill,
    market::CellAsks,
    matched::{RoundReference, counted_median},
    observed::{Day, Family},
    scope::{BAND_KEYS, CELLS, CELLS_PER_BAND},
    select, smooth,
};

/// The cushion factor used when too few cushion listings measure one: the reference
/// snapshot's ratio.
pub const CUSHION_FACTOR: f64 = 0.78;
/// The fewest asks, after screening, of a cushion cell that keeps its own level.
pub const MIN_OWN_CUSHION_ASKS: u32 = 10;
/// The fewest usable cushion listings that measure a cushion factor (of one band, or
/// of all bands pooled).
pub const MIN_FACTOR_LISTINGS: usize = 30;

/// The cushion-to-round factor of each band, in ln, and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Factors {
    /// ln factor per band.
    pub(crate) ln: Vec<f64>,
    /// True when measured from today's listings, false for [`CUSHION_FACTOR`].
    pub(crate) measured: bool,
    /// A sentence for the report.
    pub(crate) note: String,
}

/// Measures the factor of each band from today's cushion asks.
pub(crate) fn factors(
    cushion: &CellAsks,
    reference: Option<&RoundReference>,
    round: &PriceMatrix,
) -> Factors {
    // Relative values as (value, count) pairs, one per distinct ask.
    let mut bands: Vec<Vec<(f64, u64)>> = vec![Vec::new(); BAND_KEYS.len()];
    if let Some(reference) = reference {
        for cell in 0..CELLS {
            for (ask, count) in cushion.cell(cell).counted() {
                if let Some(value) = reference.relative_ask(cell, ask, round) {
                    bands[cell / CELLS_PER_BAND].push((value, count));
                }
            }
        }
    }
    let listings = |values: &[(f64, u64)]| values.iter().map(|&(_, count)| count).sum::<u64>();
    let mut pooled: Vec<(f64, u64)> = bands.iter().flatten().copied().collect();
    let count = listings(&pooled);
    if count < MIN_FACTOR_LISTINGS as u64 {
        let why = match reference {
            None => "no round listing to compare with".to_owned(),
            Some(_) => format!(
                "{count} cushion listings matched to rounds, fewer than {MIN_FACTOR_LISTINGS}"
            ),
        };
        return Factors {
            ln: vec![CUSHION_FACTOR.ln(); BAND_KEYS.len()],
            measured: false,
            note: format!("cushion factor {CUSHION_FACTOR} (reference): {why}"),
        };
    }
    let all = counted_median(&mut pooled);
    let mut own = 0;
    let ln = bands
        .iter_mut()
        .map(|values| {
            if listings(values) < MIN_FACTOR_LISTINGS as u64 {
                return all;
            }
            own += 1;
            counted_median(values)
        })
        .collect();
    Factors {
        ln,
        measured: true,
        note: format!(
            "cushion factor measured on {count} cushion listings matched to rounds: {:.3} pooled, {own} bands with a factor of their own",
            all.exp()
        ),
    }
}

/// The cushion cells (see the module notes), looking back into the observations of
/// `past` days, how smoothing went, and the reason when every cell is derived from the
/// round matrix.
pub(crate) fn cushion(
    asks: &CellAsks,
    round: &Cells,
    factors: &Factors,
    options: &BuildOptions<'_>,
    past: &[Day],
) -> (Cells, smooth::Outcome, Option<String>) {
    let mut cells = select::select(asks);
    for cell in 0..cells.ln.len() {
        if cells.listings[cell] - cells.screened[cell] < MIN_OWN_CUSHION_ASKS {
            cells.ln[cell] = f64::NAN;
            cells.ask[cell] = None;
            cells.provenance[cell] = None;
        }
    }
    let own = cells.observed_count();
    if own > 0 {
        fill::look_back(&mut cells, past, options.date, Family::Cushion);
    }
    let mut derived = 0;
    for (cell, ln) in cells.ln.iter_mut().enumerate() {
        if cells.provenance[cell].is_none() {
            *ln = round.ln[cell] + factors.ln[cell / CELLS_PER_BAND];
            cells.provenance[cell] = Some(Provenance::Derived);
            derived += 1;
        }
    }
    let fallback = (own == 0 && derived == cells.ln.len()).then(|| {
        let factor = match factors.measured {
            true => "the measured cushion factor".to_owned(),
            false => CUSHION_FACTOR.to_string(),
        };
        format!(
            "cushion matrix = round matrix x {factor}: no cushion cell has {MIN_OWN_CUSHION_ASKS} asks"
        )
    });
    let outcome = smooth::smooth(&mut cells);
    (cells, outcome, fallback)
}

#[cfg(test)]
mod tests;
