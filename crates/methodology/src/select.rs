//! Per-cell price selection (docs/methodology.md, section 4): the asks that cannot belong
//! to a cell are screened out, first against what its neighbours predict, then within the
//! cell, and the [`QUANTILE`] of the rest is published: a competitive ask whose level does
//! not drift with the number of listings. A thin cell (fewer than [`MIN_CELL_LISTINGS`]
//! asks left) publishes its median plus the market's typical quantile-to-median offset,
//! so that it stands on the same footing as a full one instead of above it.

use crate::{
    cells::{Cells, Provenance},
    fill,
    market::CellAsks,
    scope::CELLS,
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

/// Selects one per-carat value per cell from its asks. Each cell's asks are laid out
/// (sorted) one cell at a time, twice: once for the neighbours' prediction, once to
/// screen and level them; what the level needs is kept per cell ([`Screened`]).
pub(crate) fn select(asks: &CellAsks) -> Cells {
    let predicted = neighbour_prediction(asks);
    let limit = NEIGHBOUR_FACTOR.ln();
    let mut cells = Cells::empty();
    let mut screened = Vec::with_capacity(CELLS);
    for cell in 0..CELLS {
        let mut list = asks.cell(cell).sorted();
        cells.listings[cell] = list.len() as u32;
        if let Some(predicted) = &predicted {
            list.retain(|x| (x - predicted[cell]).abs() <= limit);
        }
        if list.len() >= SCREEN_MIN_LISTINGS {
            screen_within(&mut list);
        }
        cells.screened[cell] = cells.listings[cell] - list.len() as u32;
        screened.push(Screened::of(&list));
    }
    let offset = thin_offset(&screened);
    for (cell, kept) in screened.iter().enumerate() {
        let Some((ln, provenance)) = kept.level(offset) else { continue };
        cells.ask[cell] = Some(ln.exp());
        cells.ln[cell] = ln;
        cells.provenance[cell] = Some(provenance);
    }
    cells
}

/// What the level of a cell needs of its screened asks.
#[derive(Debug, Clone, Copy)]
struct Screened {
    len: usize,
    /// The [`QUANTILE`] quantile (NaN when empty).
    quantile: f64,
    /// The median (NaN when empty).
    median: f64,
}

impl Screened {
    fn of(sorted: &[f64]) -> Screened {
        match sorted {
            [] => Screened { len: 0, quantile: f64::NAN, median: f64::NAN },
            _ => Screened {
                len: sorted.len(),
                quantile: quantile(sorted, QUANTILE),
                median: quantile(sorted, 0.5),
            },
        }
    }

    /// The published level of the cell.
    fn level(&self, thin_offset: f64) -> Option<(f64, Provenance)> {
        match self.len {
            0 => None,
            n if n >= MIN_CELL_LISTINGS => Some((self.quantile, Provenance::Observed)),
            _ => Some((self.median + thin_offset, Provenance::Thin)),
        }
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
pub(crate) fn screen_within(sorted: &mut Vec<f64>) {
    let median = quantile(sorted, 0.5);
    let mut deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    let spread = (1.4826 * quantile(&deviations, 0.5)).max(SCREEN_FLOOR);
    sorted.retain(|x| (x - median).abs() <= SCREEN_MADS * spread);
}

/// What the regression of `fill.rs` predicts for every cell (ln), fitted to the levels
/// of the cells that can screen themselves, after they did; `None` when no fit is
/// possible.
fn neighbour_prediction(asks: &CellAsks) -> Option<Vec<f64>> {
    let mut probe = Cells::empty();
    for cell in 0..CELLS {
        if asks.cell(cell).len() < SCREEN_MIN_LISTINGS {
            continue;
        }
        let mut list = asks.cell(cell).sorted();
        screen_within(&mut list);
        if let Some((ln, provenance)) = Screened::of(&list).level(DEFAULT_THIN_OFFSET) {
            probe.ln[cell] = ln;
            probe.provenance[cell] = Some(provenance);
        }
    }
    fill::regress(&mut probe).ok()?;
    Some(probe.ln)
}

/// The typical (quantile - median) of the well-filled cells; see the module notes.
fn thin_offset(cells: &[Screened]) -> f64 {
    let mut offsets: Vec<f64> = cells
        .iter()
        .filter(|cell| cell.len >= OFFSET_MIN_LISTINGS)
        .map(|cell| cell.quantile - cell.median)
        .collect();
    if offsets.len() < OFFSET_MIN_CELLS {
        return DEFAULT_THIN_OFFSET;
    }
    offsets.sort_by(f64::total_cmp);
    quantile(&offsets, 0.5)
}

#[cfg(test)]
mod tests;
