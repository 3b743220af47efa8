//! Per-cell price selection: screen the asks that cannot belong to a cell, then take a
//! low quantile of the rest (a competitive ask whose level does not drift with the
//! number of listings).
//!
//! All in ln per-carat USD (steps run in the order 2, 1, 3):
//! 1. **Screen within the cell** (cells of at least [`SCREEN_MIN_LISTINGS`] asks): drop
//!    every ask more than [`SCREEN_MADS`] robust spreads from the cell's median, the
//!    spread being 1.4826 x the median absolute deviation, at least [`SCREEN_FLOOR`].
//! 2. **Screen against the neighbours**, first: the cells of at least
//!    [`SCREEN_MIN_LISTINGS`] asks screen themselves (step 1) and are levelled (step 3);
//!    the regression of `fill.rs` is fitted to those levels and predicts every cell; any
//!    ask further than a factor [`NEIGHBOUR_FACTOR`] from its cell's prediction is
//!    dropped. This catches what a cell cannot catch itself: an absurd ask alone in its
//!    cell, or junk that outnumbers the real asks of a small cell. Skipped when no fit is
//!    possible. Step 1 then runs on what is left.
//! 3. **Level**: with at least [`MIN_CELL_LISTINGS`] asks left, the [`QUANTILE`]
//!    quantile (linear interpolation between order statistics, Hyndman and Fan type 7).
//!    With fewer (a **thin** cell), the median of the asks plus the market's typical
//!    quantile-to-median offset: the median over cells of at least
//!    [`OFFSET_MIN_LISTINGS`] asks of (quantile - median), or [`DEFAULT_THIN_OFFSET`]
//!    when fewer than [`OFFSET_MIN_CELLS`] such cells exist. So a thin cell is put on
//!    the same footing as a full one instead of above it.

use crate::{
    cells::{Cells, Provenance},
    fill,
    scope::{CELLS, Used},
};

/// The quantile of the screened asks a cell publishes: the lower quartile.
pub const QUANTILE: f64 = 0.25;
/// The fewest screened asks for a quantile; below, the cell is thin.
pub const MIN_CELL_LISTINGS: usize = 3;
/// The fewest asks for a cell to screen itself (a median and a spread need four).
pub const SCREEN_MIN_LISTINGS: usize = 4;
/// How many robust spreads from the median an ask may lie.
pub const SCREEN_MADS: f64 = 4.0;
/// The smallest robust spread assumed, in ln units (about 8 %): a cell of near-equal
/// asks does not screen a stone a little dearer or cheaper than the rest.
pub const SCREEN_FLOOR: f64 = 0.08;
/// How far (a factor either way) an ask of a small cell may lie from what its
/// neighbours predict.
pub const NEIGHBOUR_FACTOR: f64 = 2.5;
/// The fewest asks of a cell that measures the quantile-to-median offset.
pub const OFFSET_MIN_LISTINGS: usize = 10;
/// The fewest measuring cells for a measured offset.
pub const OFFSET_MIN_CELLS: usize = 5;
/// The offset (ln) used when too few cells measure it: the value measured on the full
/// `diamonds` data set (the median over its 278 cells of ten asks or more).
pub const DEFAULT_THIN_OFFSET: f64 = -0.045;

/// Selects one per-carat value per cell from `used`.
pub(crate) fn select(used: &[Used<'_>]) -> Cells {
    let mut asks: Vec<Vec<f64>> = vec![Vec::new(); CELLS];
    for entry in used {
        asks[entry.cell()].push(entry.listing.per_carat().ln());
    }
    let mut cells = Cells::empty();
    for (cell, list) in asks.iter_mut().enumerate() {
        cells.listings[cell] = list.len() as u32;
        list.sort_by(f64::total_cmp);
    }
    if let Some(predicted) = neighbour_prediction(&asks) {
        let limit = NEIGHBOUR_FACTOR.ln();
        for (list, predicted) in asks.iter_mut().zip(predicted) {
            list.retain(|x| (x - predicted).abs() <= limit);
        }
    }
    for list in asks.iter_mut().filter(|list| list.len() >= SCREEN_MIN_LISTINGS) {
        screen_within(list);
    }
    let offset = thin_offset(&asks);
    for (cell, list) in asks.iter().enumerate() {
        cells.screened[cell] = cells.listings[cell] - list.len() as u32;
        let Some((ln, provenance)) = level(list, offset) else { continue };
        cells.ask[cell] = Some(ln.exp());
        cells.ln[cell] = ln;
        cells.provenance[cell] = Some(provenance);
    }
    cells
}

/// The published level of a cell's screened, sorted asks.
fn level(sorted: &[f64], thin_offset: f64) -> Option<(f64, Provenance)> {
    match sorted.len() {
        0 => None,
        n if n >= MIN_CELL_LISTINGS => Some((quantile(sorted, QUANTILE), Provenance::Observed)),
        _ => Some((quantile(sorted, 0.5) + thin_offset, Provenance::Thin)),
    }
}

/// The `q` quantile of sorted values, interpolating linearly (Hyndman and Fan type 7).
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    let fraction = position - below as f64;
    sorted[below] + (sorted[above] - sorted[below]) * fraction
}

/// Drops the asks of one sorted cell that lie more than [`SCREEN_MADS`] robust spreads
/// from its median.
fn screen_within(sorted: &mut Vec<f64>) {
    let median = quantile(sorted, 0.5);
    let mut deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    let spread = (1.4826 * quantile(&deviations, 0.5)).max(SCREEN_FLOOR);
    sorted.retain(|x| (x - median).abs() <= SCREEN_MADS * spread);
}

/// What the regression of `fill.rs` predicts for every cell (ln), fitted to the levels
/// of the cells that can screen themselves, after they did; `None` when no fit is
/// possible.
fn neighbour_prediction(asks: &[Vec<f64>]) -> Option<Vec<f64>> {
    let mut probe = Cells::empty();
    for (cell, list) in asks.iter().enumerate() {
        if list.len() < SCREEN_MIN_LISTINGS {
            continue;
        }
        let mut list = list.clone();
        screen_within(&mut list);
        if let Some((ln, provenance)) = level(&list, DEFAULT_THIN_OFFSET) {
            probe.ln[cell] = ln;
            probe.provenance[cell] = Some(provenance);
        }
    }
    fill::regress(&mut probe).ok()?;
    Some(probe.ln)
}

/// The typical (quantile - median) of the well-filled cells; see the module notes.
fn thin_offset(asks: &[Vec<f64>]) -> f64 {
    let mut offsets: Vec<f64> = asks
        .iter()
        .filter(|list| list.len() >= OFFSET_MIN_LISTINGS)
        .map(|list| quantile(list, QUANTILE) - quantile(list, 0.5))
        .collect();
    if offsets.len() < OFFSET_MIN_CELLS {
        return DEFAULT_THIN_OFFSET;
    }
    offsets.sort_by(f64::total_cmp);
    quantile(&offsets, 0.5)
}

#[cfg(test)]
mod tests;
