//! Like with like (docs/methodology.md, section 9a): a listing's price relative to round
//! stones of the same colour, clarity and carat band, measured with the same statistic on
//! both sides (a published cell is a low quantile of its asks, not a typical ask). The
//! ratio models and the cushion factor are refitted from these relative values.
//!
//! A listing's **offset** is ln(its per-carat ask) minus its cell's value in a matrix; the
//! **round reference** of a cell is the median offset of its round asks (at least
//! [`MIN_REFERENCE_LISTINGS`], else of its band's, else of all); a listing's **relative
//! value** is its offset minus its cell's reference: ln(its ask over the median round ask
//! of its cell), whatever the matrix's level and however many listings there are.
//! Offsets further than [`NEIGHBOUR_FACTOR`] from the matrix are
//! junk and count on neither side.

use pricing::PriceMatrix;

use crate::{
    NEIGHBOUR_FACTOR,
    listing::Listing,
    market::{CellAsks, quantile_counted},
    scope::{BAND_KEYS, CELLS, CELLS_PER_BAND, band_of, cell_index, cell_value},
    select::quantile,
};

/// The fewest round listings of a cell whose median offset is the cell's reference.
pub const MIN_REFERENCE_LISTINGS: usize = 3;

/// The round reference: median offsets of round listings against the round matrix.
#[derive(Debug, Clone)]
pub(crate) struct RoundReference {
    cell: Vec<Option<f64>>,
    band: Vec<Option<f64>>,
    all: f64,
}

impl RoundReference {
    /// The reference of today's round asks (per cell, ln per-carat); `None` without any
    /// usable ask.
    pub(crate) fn new(asks: &CellAsks, round: &PriceMatrix) -> Option<RoundReference> {
        // Offsets as (value, count) pairs, one per distinct ask: the size of the asks'
        // counted state, however many listings repeat them.
        let mut cells: Vec<Vec<(f64, u64)>> = vec![Vec::new(); CELLS];
        let mut bands: Vec<Vec<(f64, u64)>> = vec![Vec::new(); BAND_KEYS.len()];
        let mut all = Vec::new();
        for (cell, offsets) in cells.iter_mut().enumerate() {
            let value = cell_value(round, cell);
            for (ask, count) in asks.cell(cell).counted() {
                let Some(offset) = screened(ask - value) else { continue };
                offsets.push((offset, count));
                bands[cell / CELLS_PER_BAND].push((offset, count));
                all.push((offset, count));
            }
        }
        let median_of = |values: &mut Vec<(f64, u64)>| {
            let len: u64 = values.iter().map(|&(_, count)| count).sum();
            (len >= MIN_REFERENCE_LISTINGS as u64).then(|| counted_median(values))
        };
        let all = if all.is_empty() { return None } else { counted_median(&mut all) };
        Some(RoundReference {
            cell: cells.iter_mut().map(median_of).collect(),
            band: bands.iter_mut().map(median_of).collect(),
            all,
        })
    }

    /// The relative ln value of an ask of `cell` (ln per-carat; see the module notes),
    /// `round` being the matrix the reference was measured against; `None` for junk.
    pub(crate) fn relative_ask(&self, cell: usize, ask: f64, round: &PriceMatrix) -> Option<f64> {
        let offset = screened(ask - cell_value(round, cell))?;
        let reference = self.cell[cell].or(self.band[cell / CELLS_PER_BAND]).unwrap_or(self.all);
        Some(offset - reference)
    }

    /// The relative ln value of one listing; see [`RoundReference::relative_ask`].
    pub(crate) fn relative(&self, listing: &Listing, round: &PriceMatrix) -> Option<f64> {
        let cell = cell_index(band_of(listing.carat), listing.color, listing.clarity);
        self.relative_ask(cell, listing.per_carat().ln(), round)
    }
}

/// An offset, or `None` when it lies beyond [`NEIGHBOUR_FACTOR`] either way.
fn screened(offset: f64) -> Option<f64> {
    (offset.abs() <= NEIGHBOUR_FACTOR.ln()).then_some(offset)
}

/// The median of (value, count) pairs (sorted in place); `values` is not empty.
pub(crate) fn counted_median(values: &mut [(f64, u64)]) -> f64 {
    values.sort_by(|a, b| a.0.total_cmp(&b.0));
    quantile_counted(values, 0.5)
}

/// The median of `values` (sorted in place); `values` is not empty.
pub(crate) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    quantile(values, 0.5)
}

#[cfg(test)]
mod tests;
