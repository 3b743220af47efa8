//! Per-cell price selection: the 2nd-lowest per-carat ask for FL..VS1, the 3rd-lowest
//! for VS2..SI2 (the lowest asks are treated as atypical stones or listing errors).
//!
//! A cell with at least one listing but fewer than its rank needs is **thin**: it takes
//! the highest of its asks (the order statistic nearest the target rank) and is flagged.

use pricing::Clarity;

use crate::{
    cells::{Cells, Provenance},
    scope::{CELLS, CELLS_PER_BAND, Used},
};

/// The ask rank (1 = lowest) used for a clarity.
pub fn rank(clarity: Clarity) -> usize {
    if clarity <= Clarity::Vs1 { 2 } else { 3 }
}

/// Selects one per-carat ask per cell from `used`.
pub(crate) fn select(used: &[Used<'_>]) -> Cells {
    let mut asks: Vec<Vec<f64>> = vec![Vec::new(); CELLS];
    for entry in used {
        asks[entry.cell()].push(entry.listing.per_carat());
    }
    let mut cells = Cells::empty();
    for (cell, mut list) in asks.into_iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        list.sort_by(f64::total_cmp);
        let clarity = Clarity::ALL[cell % CELLS_PER_BAND % Clarity::ALL.len()];
        let want = rank(clarity);
        let (ask, provenance) = if list.len() >= want {
            (list[want - 1], Provenance::Observed)
        } else {
            (list[list.len() - 1], Provenance::Thin)
        };
        cells.listings[cell] = list.len() as u32;
        cells.ask[cell] = Some(ask);
        cells.ln[cell] = ask.ln();
        cells.provenance[cell] = Some(provenance);
    }
    cells
}

#[cfg(test)]
mod tests;
