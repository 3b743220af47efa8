//! Monotone smoothing (docs/methodology.md, section 7): a better grade is never cheaper,
//! and the per-carat price never falls as carat rises. Weighted isotonic regression
//! (pool-adjacent-violators) runs along colour, clarity and carat until no violation is
//! left (at most [`MAX_PASSES`] rounds); a violation still left is removed by lifting
//! every cell to the smallest monotone majorant, and a final check confirms it.

use pricing::{Clarity, Color};

use crate::{
    cells::{Cells, Provenance},
    scope::{BAND_KEYS, cell_index},
};

/// The most rounds of the three passes.
pub const MAX_PASSES: usize = 500;
/// A difference in ln price below this is no violation (far below the 1e-6 rounding).
const TOLERANCE: f64 = 1e-10;

/// Weighted isotonic regression: the non-decreasing sequence closest to `values` in
/// weighted least squares. `weights` must be positive and as long as `values`.
pub fn pava(values: &[f64], weights: &[f64]) -> Vec<f64> {
    // Blocks of (mean, weight, length).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(values.len());
    for (&value, &weight) in values.iter().zip(weights) {
        blocks.push((value, weight, 1));
        while blocks.len() >= 2 && blocks[blocks.len() - 2].0 > blocks[blocks.len() - 1].0 {
            let (v2, w2, n2) = blocks.pop().expect("two blocks");
            let (v1, w1, n1) = blocks.pop().expect("two blocks");
            let w = w1 + w2;
            blocks.push(((v1 * w1 + v2 * w2) / w, w, n1 + n2));
        }
    }
    blocks.into_iter().flat_map(|(value, _, n)| std::iter::repeat_n(value, n)).collect()
}

/// What smoothing did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Rounds of the three passes run.
    pub(crate) passes: usize,
    /// True when the majorant step was needed.
    pub(crate) lifted: bool,
}

/// The smoothing weight of a cell: observed cells count by their listings (capped at
/// 10), thin and looked-back cells 1, modelled and carried cells 0.2, so that the passes
/// move the least-supported values most.
pub(crate) fn weight(provenance: Option<Provenance>, listings: u32) -> f64 {
    match provenance {
        Some(Provenance::Observed) => f64::from(listings.min(10)),
        Some(Provenance::Thin | Provenance::LookedBack | Provenance::Derived) => 1.0,
        Some(Provenance::Modelled | Provenance::Carried) | None => 0.2,
    }
}

/// The three kinds of line along which prices must rise: cell indices from the
/// cheapest end to the dearest.
fn lines() -> Vec<Vec<usize>> {
    let mut lines = Vec::new();
    for band in 0..BAND_KEYS.len() {
        for &clarity in Clarity::ALL {
            lines.push(Color::ALL.iter().rev().map(|&c| cell_index(band, c, clarity)).collect());
        }
        for &color in Color::ALL {
            lines.push(Clarity::ALL.iter().rev().map(|&q| cell_index(band, color, q)).collect());
        }
    }
    for &color in Color::ALL {
        for &clarity in Clarity::ALL {
            lines.push((0..BAND_KEYS.len()).map(|b| cell_index(b, color, clarity)).collect());
        }
    }
    lines
}

/// The largest violation of any monotonicity rule in `ln` (0 when there is none).
pub(crate) fn worst_violation(ln: &[f64]) -> f64 {
    lines()
        .iter()
        .flat_map(|line| line.windows(2).map(|pair| ln[pair[0]] - ln[pair[1]]))
        .fold(0.0, f64::max)
}

/// Smooths `cells.ln` in place and marks the cells it changed.
pub(crate) fn smooth(cells: &mut Cells) -> Outcome {
    let before = cells.ln.clone();
    let weights: Vec<f64> = (0..cells.ln.len())
        .map(|i| weight(cells.provenance[i], cells.listings[i] - cells.screened[i]))
        .collect();
    let lines = lines();
    let mut passes = 0;
    while passes < MAX_PASSES && worst_violation(&cells.ln) > TOLERANCE {
        passes += 1;
        for line in &lines {
            let values: Vec<f64> = line.iter().map(|&i| cells.ln[i]).collect();
            let w: Vec<f64> = line.iter().map(|&i| weights[i]).collect();
            for (&i, value) in line.iter().zip(pava(&values, &w)) {
                cells.ln[i] = value;
            }
        }
    }
    let lifted = worst_violation(&cells.ln) > 0.0;
    if lifted {
        lift(&mut cells.ln);
    }
    for (i, (&old, &new)) in before.iter().zip(&cells.ln).enumerate() {
        cells.smoothed[i] = (old - new).abs() > 5e-7;
    }
    Outcome { passes, lifted }
}

/// The smallest monotone majorant: each cell becomes the maximum over itself and the
/// cells it must not be cheaper than (smaller band, worse colour, worse clarity).
fn lift(ln: &mut [f64]) {
    for band in 0..BAND_KEYS.len() {
        for &color in Color::ALL.iter().rev() {
            for &clarity in Clarity::ALL.iter().rev() {
                let here = cell_index(band, color, clarity);
                let mut value = ln[here];
                if band > 0 {
                    value = value.max(ln[cell_index(band - 1, color, clarity)]);
                }
                if let Some(&worse) = Color::ALL.get(color.index() + 1) {
                    value = value.max(ln[cell_index(band, worse, clarity)]);
                }
                if let Some(&worse) = Clarity::ALL.get(clarity.index() + 1) {
                    value = value.max(ln[cell_index(band, color, worse)]);
                }
                ln[here] = value;
            }
        }
    }
}

#[cfg(test)]
mod tests;
