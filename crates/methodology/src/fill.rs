//! Filling empty cells: first a bounded look-back into earlier published days, then a
//! log-linear regression on the cells observed today.
//!
//! Regression: ln(per-carat) = a + b·colour_index + c·clarity_index (+ d·ln carat),
//! ordinary least squares on the observed (and thin) cells. A band is fitted on its own
//! cells when it has at least [`MIN_FIT_CELLS`] of them spanning two colours and two
//! clarities; otherwise the window widens one band on each side at a time, adding the
//! ln-carat term, until the fit is possible (a pooled window must hold observed cells of
//! at least two bands, so that the carat term is determined).

use chrono::{Days, NaiveDate};
use datasets::History;
use pricing::{Clarity, Color, PriceMatrix};

use crate::{
    Error,
    cells::{Cells, Provenance},
    scope::{BAND_CARATS, BAND_KEYS, CELLS_PER_BAND, WINDOW_DAYS, cell_index},
};

/// The fewest observed cells a regression is fitted on.
pub const MIN_FIT_CELLS: usize = 6;

/// Which published matrix a look-back reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Round,
    Cushion,
}

/// Fills empty cells from the newest earlier day (at most [`WINDOW_DAYS`] before
/// `date`) that published them. Returns the number of cells filled.
pub(crate) fn look_back(
    cells: &mut Cells,
    history: Option<&History>,
    date: NaiveDate,
    family: Family,
) -> usize {
    let Some(history) = history else { return 0 };
    let oldest = date.checked_sub_days(Days::new(WINDOW_DAYS)).unwrap_or(date);
    let mut filled = 0;
    for day in history.days().iter().rev().filter(|d| d.date < date && d.date >= oldest) {
        let pricing = day.snapshot.pricing();
        let matrix = match family {
            Family::Round => pricing.round(),
            Family::Cushion => pricing.cushion(),
        };
        filled += copy_from(cells, matrix, day.date);
    }
    filled
}

fn copy_from(cells: &mut Cells, matrix: &PriceMatrix, date: NaiveDate) -> usize {
    let mut filled = 0;
    for (band, &carat) in BAND_CARATS.iter().enumerate() {
        let Some(theirs) = matrix.bands().iter().position(|&b| b == carat) else { continue };
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                let cell = cell_index(band, color, clarity);
                if cells.provenance[cell].is_none() {
                    cells.ln[cell] = matrix.ln_at_band(theirs, color, clarity);
                    cells.provenance[cell] = Some(Provenance::LookedBack);
                    cells.from[cell] = Some(date);
                    filled += 1;
                }
            }
        }
    }
    filled
}

/// One observation for the regression.
#[derive(Debug, Clone, Copy)]
struct Point {
    band: usize,
    color: f64,
    clarity: f64,
    ln_carat: f64,
    ln: f64,
}

/// Fills every still-empty cell from a regression. Fails only when no fit is possible
/// at all (too few observed cells in the whole matrix).
pub(crate) fn regress(cells: &mut Cells) -> Result<usize, Error> {
    let points: Vec<Point> = (0..cells.ln.len())
        .filter(|&cell| cells.provenance[cell].is_some_and(Provenance::is_observed))
        .map(|cell| {
            let band = cell / CELLS_PER_BAND;
            let within = cell % CELLS_PER_BAND;
            Point {
                band,
                color: (within / Clarity::ALL.len()) as f64,
                clarity: (within % Clarity::ALL.len()) as f64,
                ln_carat: BAND_CARATS[band].ln(),
                ln: cells.ln[cell],
            }
        })
        .collect();
    let mut filled = 0;
    for (band, &key) in BAND_CARATS.iter().enumerate() {
        let range = band * CELLS_PER_BAND..(band + 1) * CELLS_PER_BAND;
        if cells.provenance[range.clone()].iter().all(Option::is_some) {
            continue;
        }
        let (coef, pooled) = (0..BAND_KEYS.len())
            .find_map(|radius| {
                let lo = band.saturating_sub(radius);
                let hi = (band + radius).min(BAND_KEYS.len() - 1);
                let window: Vec<Point> =
                    points.iter().copied().filter(|p| (lo..=hi).contains(&p.band)).collect();
                fit(&window, radius > 0).map(|coef| (coef, hi - lo + 1))
            })
            .ok_or(Error::NotEnoughData { observed: points.len(), needed: MIN_FIT_CELLS })?;
        cells.pooled[band] = pooled;
        let ln_carat = key.ln();
        for cell in range {
            if cells.provenance[cell].is_none() {
                let within = cell % CELLS_PER_BAND;
                let x = [
                    1.0,
                    (within / Clarity::ALL.len()) as f64,
                    (within % Clarity::ALL.len()) as f64,
                    ln_carat,
                ];
                cells.ln[cell] = x.iter().zip(&coef).map(|(x, c)| x * c).sum();
                cells.provenance[cell] = Some(Provenance::Modelled);
                filled += 1;
            }
        }
    }
    Ok(filled)
}

/// Least squares on `points`: `[a, b, c, d]` (d = 0 when all points share one band).
/// `None` when the points cannot determine the coefficients, or when `pooled` and they
/// come from a single band (a pooled fit must be able to carry prices across carats).
fn fit(points: &[Point], pooled: bool) -> Option<[f64; 4]> {
    let distinct = |f: fn(&Point) -> f64| {
        let mut values: Vec<f64> = points.iter().map(f).collect();
        values.sort_by(f64::total_cmp);
        values.dedup();
        values.len()
    };
    if points.len() < MIN_FIT_CELLS || distinct(|p| p.color) < 2 || distinct(|p| p.clarity) < 2 {
        return None;
    }
    let with_carat = distinct(|p| p.ln_carat) >= 2;
    if pooled && !with_carat {
        return None;
    }
    let p = if with_carat { 4 } else { 3 };
    let mut a = [[0.0; 5]; 4];
    for point in points {
        let x = [1.0, point.color, point.clarity, point.ln_carat];
        for i in 0..p {
            for j in 0..p {
                a[i][j] += x[i] * x[j];
            }
            a[i][4] += x[i] * point.ln;
        }
    }
    let solved = solve(&mut a, p)?;
    Some([solved[0], solved[1], solved[2], if with_carat { solved[3] } else { 0.0 }])
}

/// Gaussian elimination with partial pivoting on the `p` x `p` system in `a` (the last
/// column is the right-hand side).
fn solve(a: &mut [[f64; 5]; 4], p: usize) -> Option<[f64; 4]> {
    let scale = (0..p).map(|i| a[i][i].abs()).fold(0.0, f64::max).max(1.0);
    for col in 0..p {
        let pivot = (col..p).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-9 * scale {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col];
        for (row, values) in a.iter_mut().enumerate().take(p) {
            if row != col {
                let factor = values[col] / pivot_row[col];
                for k in (col..p).chain([4]) {
                    values[k] -= factor * pivot_row[k];
                }
            }
        }
    }
    let mut out = [0.0; 4];
    for i in 0..p {
        out[i] = a[i][4] / a[i][i];
    }
    out.iter().all(|v| v.is_finite()).then_some(out)
}

#[cfg(test)]
mod tests;
