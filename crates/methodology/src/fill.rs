//! Filling empty cells (docs/methodology.md, sections 5 and 6): first a bounded look-back
//! into the asks earlier days observed, then a log-linear regression on the cells
//! observed today inside the bands they support, and beyond those bands the carried curve
//! of `carry.rs`.
//!
//! Regression: ln(per-carat) = a + b·colour_index + c·clarity_index (+ d·ln carat). A band
//! is **supported** when it can be fitted on its own ([`MIN_FIT_CELLS`] cells observed
//! today, spanning two colours and two clarities). A band between supported bands widens
//! its window one band on each side at a time until it holds a supported band on each
//! side, so that its carat slope is measured on both sides of it (interpolation).

use chrono::{Days, NaiveDate};

use crate::{
    Error,
    carry::{self, Curve},
    cells::{Cells, Provenance},
    observed::{Day, Family},
    scope::{BAND_CARATS, BAND_KEYS, CELLS_PER_BAND, WINDOW_DAYS, cell_grades},
};

/// The fewest observed cells a regression is fitted on, and the fewest a band needs to
/// be supported (with two colours and two clarities among them).
pub const MIN_FIT_CELLS: usize = 6;

/// Fills empty cells with the newest ask observed for them on an earlier day of `days`
/// (newest first) at most [`WINDOW_DAYS`] before `date`. Returns the number of cells
/// filled.
pub(crate) fn look_back(cells: &mut Cells, days: &[Day], date: NaiveDate, family: Family) -> usize {
    let oldest = date.checked_sub_days(Days::new(WINDOW_DAYS)).unwrap_or(date);
    let mut filled = 0;
    for day in days.iter().filter(|d| d.date < date && d.date >= oldest) {
        for (cell, &seen) in day.cells(family).iter().enumerate() {
            let Some(ln) = seen else { continue };
            if cells.provenance[cell].is_none() {
                cells.ln[cell] = ln;
                cells.ask[cell] = Some(ln.exp());
                cells.provenance[cell] = Some(Provenance::LookedBack);
                cells.from[cell] = Some(day.date);
                filled += 1;
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

/// Today's observed (and thin) cells as regression points.
fn points(cells: &Cells) -> Vec<Point> {
    (0..cells.ln.len())
        .filter(|&cell| cells.provenance[cell].is_some_and(Provenance::is_observed))
        .map(|cell| {
            let (band, color, clarity) = cell_grades(cell);
            Point {
                band,
                color: color.index() as f64,
                clarity: clarity.index() as f64,
                ln_carat: BAND_CARATS[band].ln(),
                ln: cells.ln[cell],
            }
        })
        .collect()
}

/// Fills every still-empty cell from a regression on any window that allows a fit,
/// extrapolating the carat slope where it must (the neighbour screen of `select.rs`
/// needs a prediction for every cell). Fails only when no fit is possible at all.
pub(crate) fn regress(cells: &mut Cells) -> Result<usize, Error> {
    let points = points(cells);
    let mut filled = 0;
    for band in 0..BAND_KEYS.len() {
        filled += fill_band(cells, &points, band, |_, _| true)
            .ok_or(Error::NotEnoughData { observed: points.len(), needed: MIN_FIT_CELLS })?;
    }
    Ok(filled)
}

/// Fills every still-empty cell of a build's matrix: the regression inside the range of
/// supported bands, `curve` beyond it. Returns notes on the carried bands (`name` names
/// the matrix in them). Fails when no band is supported.
pub(crate) fn fill(cells: &mut Cells, curve: &Curve, name: &str) -> Result<Vec<String>, Error> {
    let points = points(cells);
    let supported: Vec<bool> = (0..BAND_KEYS.len())
        .map(|band| {
            let own: Vec<Point> = points.iter().copied().filter(|p| p.band == band).collect();
            fit(&own, false).is_some()
        })
        .collect();
    let not_enough = Error::NotEnoughData { observed: points.len(), needed: MIN_FIT_CELLS };
    let low = supported.iter().position(|&s| s).ok_or(not_enough)?;
    let high = supported.iter().rposition(|&s| s).unwrap_or(low);
    for band in low..=high {
        let accept = |lo: usize, hi: usize| {
            (lo == band && hi == band && supported[band])
                || (supported[lo..band].contains(&true) && supported[band + 1..=hi].contains(&true))
        };
        fill_band(cells, &points, band, accept).ok_or_else(|| {
            Error::Internal(format!(
                "band {} lies between supported bands but has no fit",
                BAND_KEYS[band]
            ))
        })?;
    }
    Ok(carry::carry(cells, curve, low, high, name))
}

/// Fills the empty cells of `band` from the narrowest window (`band` ± radius) that
/// `accept`s and allows a fit; the number filled, or `None` when no window does.
fn fill_band(
    cells: &mut Cells,
    points: &[Point],
    band: usize,
    accept: impl Fn(usize, usize) -> bool,
) -> Option<usize> {
    let range = band * CELLS_PER_BAND..(band + 1) * CELLS_PER_BAND;
    if cells.provenance[range.clone()].iter().all(Option::is_some) {
        return Some(0);
    }
    let (coef, pooled) = (0..BAND_KEYS.len()).find_map(|radius| {
        let lo = band.saturating_sub(radius);
        let hi = (band + radius).min(BAND_KEYS.len() - 1);
        if !accept(lo, hi) {
            return None;
        }
        let window: Vec<Point> =
            points.iter().copied().filter(|p| (lo..=hi).contains(&p.band)).collect();
        fit(&window, radius > 0).map(|coef| (coef, hi - lo + 1))
    })?;
    cells.pooled[band] = pooled;
    let ln_carat = BAND_CARATS[band].ln();
    let mut filled = 0;
    for cell in range {
        if cells.provenance[cell].is_none() {
            let (_, color, clarity) = cell_grades(cell);
            let x = [1.0, color.index() as f64, clarity.index() as f64, ln_carat];
            cells.ln[cell] = x.iter().zip(&coef).map(|(x, c)| x * c).sum();
            cells.provenance[cell] = Some(Provenance::Modelled);
            filled += 1;
        }
    }
    Some(filled)
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
