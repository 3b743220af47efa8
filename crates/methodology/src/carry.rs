//! Beyond the data (docs/methodology.md, section 6, "carried bands"): the bands outside the
//! range today's listings support take the shape of the newest earlier published day's
//! per-carat curve (else the reference snapshot's), shifted per side to today's level at
//! the nearest supported band. The shift compares today's asks with that day's asks, so
//! the same input on two days gives a shift of zero: the carried bands cannot creep.

use chrono::NaiveDate;
use datasets::History;
use pricing::{Clarity, Color, PriceMatrix};

use crate::{
    cells::{Cells, Provenance},
    observed::{Day, Family},
    scope::{BAND_CARATS, BAND_KEYS, CELLS, CELLS_PER_BAND, cell_value},
    smooth,
};

/// A per-carat curve to carry bands from.
#[derive(Debug, Clone)]
pub(crate) struct Curve {
    /// Published ln per-carat values, band-major.
    ln: Vec<f64>,
    /// The curve day's observed asks (ln), where it observed the cell.
    asks: Vec<Option<f64>>,
    /// The published day (`YYYY-MM-DD`) or `reference`.
    pub(crate) from: String,
}

impl Curve {
    /// The curve of the newest day of `history` before `date` (with that day's
    /// observations from `observed`, newest first), or the reference snapshot's when
    /// there is no such day or its matrix has other bands or grades.
    pub(crate) fn before(
        history: Option<&History>,
        observed: &[Day],
        date: NaiveDate,
        family: Family,
    ) -> Curve {
        let from_day = history.and_then(|h| {
            let day = h.days().iter().rev().find(|d| d.date < date)?;
            let snapshot = h.snapshot_of(day).ok()?;
            let ln = values(pick(snapshot.pricing(), family))?;
            let seen = observed.iter().find(|o| o.date == day.date);
            let asks = seen.map_or(vec![None; CELLS], |seen| seen.cells(family).to_vec());
            Some(Curve { ln, asks, from: day.date.to_string() })
        });
        from_day.unwrap_or_else(|| {
            let reference = datasets::Snapshot::reference();
            let ln = values(pick(reference.pricing(), family))
                .expect("the reference snapshot has the published bands and grades");
            Curve { ln, asks: vec![None; CELLS], from: "reference".to_owned() }
        })
    }

    /// The curve day's value of `cell` to compare today's ask with: its ask, else its price.
    fn compared(&self, cell: usize) -> f64 {
        self.asks[cell].unwrap_or(self.ln[cell])
    }
}

fn pick(pricing: &pricing::PricingSet, family: Family) -> &PriceMatrix {
    match family {
        Family::Round => pricing.round(),
        Family::Cushion => pricing.cushion(),
    }
}

/// A matrix's ln values in our cell order, when it has exactly the published bands and
/// grades.
fn values(matrix: &PriceMatrix) -> Option<Vec<f64>> {
    let same = matrix.bands() == BAND_CARATS.as_slice()
        && matrix.colors() == Color::ALL
        && matrix.clarities() == Clarity::ALL;
    same.then(|| (0..CELLS).map(|cell| cell_value(matrix, cell)).collect())
}

/// Fills the empty cells of the bands below `low` and above `high` (the outermost
/// supported bands) from `curve`; returns a note per side carried.
pub(crate) fn carry(
    cells: &mut Cells,
    curve: &Curve,
    low: usize,
    high: usize,
    name: &str,
) -> Vec<String> {
    let mut notes = Vec::new();
    let sides = [(0..low, low), (high + 1..BAND_KEYS.len(), high)];
    for (bands, anchor) in sides {
        if bands.is_empty() {
            continue;
        }
        let shift = shift(cells, curve, anchor);
        let mut filled = 0;
        for cell in bands.start * CELLS_PER_BAND..bands.end * CELLS_PER_BAND {
            if cells.provenance[cell].is_none() {
                cells.ln[cell] = curve.ln[cell] + shift;
                cells.provenance[cell] = Some(Provenance::Carried);
                filled += 1;
            }
        }
        if filled > 0 {
            cells.carried_from = Some(curve.from.clone());
        }
        notes.push(format!(
            "{name} bands {}..{} ct carried ({filled} cells): the per-carat curve of {}, scaled at {} ct by {:+.1} %",
            BAND_KEYS[bands.start],
            BAND_KEYS[bands.end - 1],
            curve.from,
            BAND_KEYS[anchor],
            shift.exp_m1() * 100.0
        ));
    }
    notes
}

/// The ln shift that puts `curve` on today's level at band `anchor`: the weighted median
/// of (today's ask - the curve day's value) over the cells observed today in the band,
/// weighted as smoothing weighs them. 0 when the band has no observed cell.
fn shift(cells: &Cells, curve: &Curve, anchor: usize) -> f64 {
    let mut pairs: Vec<(f64, f64)> = (anchor * CELLS_PER_BAND..(anchor + 1) * CELLS_PER_BAND)
        .filter(|&cell| cells.provenance[cell].is_some_and(Provenance::is_observed))
        .map(|cell| {
            let kept = cells.listings[cell] - cells.screened[cell];
            (cells.ln[cell] - curve.compared(cell), smooth::weight(cells.provenance[cell], kept))
        })
        .collect();
    weighted_median(&mut pairs).unwrap_or(0.0)
}

/// The weighted median of `(value, weight)` pairs: the smallest value at which the
/// cumulative weight reaches half the total (the mean of two values when it is exactly
/// half). Weights that sum to zero count equally. `None` when empty.
pub(crate) fn weighted_median(pairs: &mut [(f64, f64)]) -> Option<f64> {
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    if pairs.iter().map(|p| p.1).sum::<f64>() <= 0.0 {
        pairs.iter_mut().for_each(|p| p.1 = 1.0);
    }
    let total: f64 = pairs.iter().map(|p| p.1).sum();
    let mut cumulative = 0.0;
    for (i, &(value, weight)) in pairs.iter().enumerate() {
        cumulative += weight;
        if (cumulative - total / 2.0).abs() <= 1e-12 * total {
            return Some(pairs.get(i + 1).map_or(value, |next| (value + next.0) / 2.0));
        }
        if cumulative > total / 2.0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests;
