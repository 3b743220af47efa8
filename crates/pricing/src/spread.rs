//! The spread behind a price: per cell, how many screened asks there were and where they
//! lay (10th to 90th percentile per carat), and what a quote makes of it: a price range,
//! the asks behind it, how the price was made, and where a given ask falls.

use crate::{
    error::{Error, ErrorKind},
    grade::{Clarity, Color},
    matrix::{CARAT_MAX, CARAT_MIN},
    quote::{BaseMatrix, Quote},
};

mod asking;
mod basis;
mod normal;

pub use asking::{ASKING_PRICE, ASKING_PRICE_ALLOWED, asking_price, tenth};
pub use basis::{Basis, Verdict};

/// The percentiles a cell publishes, in the order of [`CellSpread::quantiles`].
pub const PERCENTILES: [f64; 5] = [10.0, 25.0, 50.0, 75.0, 90.0];

/// One cell of a spread matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellSpread {
    /// Screened asks in the cell that day (0 when its price is not its own).
    pub observations: u32,
    /// Per-carat USD at the 10th, 25th, 50th, 75th and 90th percentile ([`PERCENTILES`]):
    /// positive, finite, ascending.
    pub quantiles: [f64; 5],
    /// How the cell's price was made.
    pub basis: Basis,
}

impl CellSpread {
    /// Checks the quantiles: finite, positive, ascending (equal neighbours allowed).
    pub fn check(&self) -> Result<(), Error> {
        if let Some(bad) = self.quantiles.iter().find(|q| !q.is_finite()) {
            return Err(Error::new(
                ErrorKind::NotFinite,
                format!("a quantile must be a finite number, got {bad}"),
            ));
        }
        if let Some(bad) = self.quantiles.iter().find(|&&q| q <= 0.0) {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("a quantile must be positive, got {bad}"),
            ));
        }
        if let Some(pair) = self.quantiles.windows(2).find(|pair| pair[0] > pair[1]) {
            return Err(Error::new(
                ErrorKind::NotIncreasing,
                format!("quantiles must be ascending, got {} then {}", pair[0], pair[1]),
            ));
        }
        Ok(())
    }
}

/// A validated spread matrix of one family: a [`CellSpread`] per carat band, colour and
/// clarity. Invariants as [`PriceMatrix`](crate::PriceMatrix): bands strictly increasing,
/// covering [`CARAT_MIN`]..=[`CARAT_MAX`]; every grade once; every cell checked.
#[derive(Debug, Clone, PartialEq)]
pub struct SpreadMatrix {
    bands: Vec<f64>,
    colors: Vec<Color>,
    clarities: Vec<Clarity>,
    /// Band after band, each band row-major over `colors` x `clarities`.
    cells: Vec<CellSpread>,
    /// The natural log of each cell's quantiles, taken once here: a quote's range is
    /// interpolated in them.
    ln_quantiles: Vec<[f64; 5]>,
    /// Row of each colour and column of each clarity, by grade index.
    row_of: [usize; 10],
    col_of: [usize; 8],
}

impl SpreadMatrix {
    /// Builds a spread matrix from band carats, the row (colour) and column (clarity)
    /// lists in feed order, and the cells, band after band, each band row-major (the
    /// layout of [`PriceMatrix::new`](crate::PriceMatrix::new)).
    pub fn new(
        bands: Vec<f64>,
        colors: Vec<Color>,
        clarities: Vec<Clarity>,
        cells: Vec<CellSpread>,
    ) -> Result<SpreadMatrix, Error> {
        // The price matrix's own checks of bands and grades, on a flat stand-in matrix.
        let expected = bands.len() * colors.len() * clarities.len();
        crate::PriceMatrix::new(
            bands.clone(),
            colors.clone(),
            clarities.clone(),
            vec![0.0; expected],
        )?;
        if cells.len() != expected {
            return Err(Error::new(
                ErrorKind::Shape,
                format!(
                    "expected {expected} cells ({} bands x {} colors x {} clarities), got {}",
                    bands.len(),
                    colors.len(),
                    clarities.len(),
                    cells.len()
                ),
            ));
        }
        for cell in &cells {
            cell.check()?;
        }
        let (mut row_of, mut col_of) = ([0; 10], [0; 8]);
        for (row, color) in colors.iter().enumerate() {
            row_of[color.index()] = row;
        }
        for (col, clarity) in clarities.iter().enumerate() {
            col_of[clarity.index()] = col;
        }
        let ln_quantiles = cells.iter().map(|cell| cell.quantiles.map(f64::ln)).collect();
        Ok(SpreadMatrix { bands, colors, clarities, cells, ln_quantiles, row_of, col_of })
    }

    /// The band carats, ascending.
    pub fn bands(&self) -> &[f64] {
        &self.bands
    }

    /// The colour list in feed (row) order.
    pub fn colors(&self) -> &[Color] {
        &self.colors
    }

    /// The clarity list in feed (column) order.
    pub fn clarities(&self) -> &[Clarity] {
        &self.clarities
    }

    /// The cell of band number `band`.
    ///
    /// # Panics
    ///
    /// When `band` is not below `bands().len()`.
    pub fn cell(&self, band: usize, color: Color, clarity: Clarity) -> &CellSpread {
        &self.cells[self.at(band, color, clarity)]
    }

    /// Where the cell of band number `band` is in `cells` (and `ln_quantiles`).
    fn at(&self, band: usize, color: Color, clarity: Clarity) -> usize {
        assert!(band < self.bands.len(), "band {band} of {}", self.bands.len());
        let per_band = self.colors.len() * self.clarities.len();
        band * per_band
            + self.row_of[color.index()] * self.clarities.len()
            + self.col_of[clarity.index()]
    }

    /// The cells used at `carat` with their weights in the log-linear interpolation:
    /// the two bands around it, or the one band when the carat is on it (or beyond the
    /// first or last band).
    fn bracket(&self, carat: f64) -> [(usize, f64); 2] {
        let upper =
            self.bands.partition_point(|&band| band <= carat).clamp(1, self.bands.len() - 1);
        let (c1, c2) = (self.bands[upper - 1], self.bands[upper]);
        let lambda = ((carat - c1) / (c2 - c1)).clamp(0.0, 1.0);
        [(upper - 1, 1.0 - lambda), (upper, lambda)]
    }
}

/// The spread matrices of both families, beside a [`PricingSet`](crate::PricingSet).
#[derive(Debug, Clone, PartialEq)]
pub struct SpreadSet {
    round: SpreadMatrix,
    cushion: SpreadMatrix,
}

/// A quote's price range: the 10th to 90th percentile of comparable asks, interpolated
/// across carat bands and scaled by the fancy-shape multiplier as the price is.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PriceRange {
    /// 10th percentile, per carat, USD (unrounded).
    pub low_per_carat_usd: f64,
    /// 90th percentile, per carat, USD (unrounded).
    pub high_per_carat_usd: f64,
    /// 10th percentile, total, USD (unrounded).
    pub low_usd: f64,
    /// 90th percentile, total, USD (unrounded).
    pub high_usd: f64,
}

/// What stands behind a quote: its range, the asks behind the cells used and how their
/// prices were made; and where an asking price falls among comparable asks.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Evidence {
    /// The 10th to 90th percentile band.
    pub range: PriceRange,
    /// Screened asks behind the cells used (the two bands around the carat, or one).
    pub observations: u32,
    /// The weaker basis of the cells used.
    pub basis: Basis,
    /// The quote's total price, the benchmark of [`Evidence::discount_pct`].
    pub benchmark_usd: f64,
    /// ln of the per-carat USD at each of [`PERCENTILES`], before the multiplier.
    ln_per_carat: [f64; 5],
    /// The quote's ratio multiplier (1 for a round stone).
    multiplier: f64,
    /// The quote's carat.
    carat: f64,
}

/// An asking price weighed against a quote's [`Evidence`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Assessment {
    /// [`Evidence::percentile`].
    pub percentile: f64,
    /// [`Evidence::discount_pct`].
    pub discount_pct: f64,
    /// [`Evidence::verdict`].
    pub verdict: Verdict,
}

impl SpreadSet {
    /// Bundles the spread matrices of both families.
    pub fn new(round: SpreadMatrix, cushion: SpreadMatrix) -> SpreadSet {
        SpreadSet { round, cushion }
    }

    /// The spread matrix of a family.
    pub fn matrix(&self, base: BaseMatrix) -> &SpreadMatrix {
        match base {
            BaseMatrix::Round => &self.round,
            BaseMatrix::Cushion => &self.cushion,
        }
    }

    /// The evidence behind a quote, from the family its base price came from: quantiles
    /// interpolated log-linearly across the bands around its carat exactly as the price
    /// is, times the quote's fancy-shape multiplier.
    #[inline(always)]
    pub fn evidence(&self, quote: &Quote) -> Evidence {
        let matrix = self.matrix(quote.base);
        let (carat, benchmark_usd) = (quote.carat, quote.total_usd);
        let multiplier = quote.fancy.map_or(1.0, |fancy| fancy.adjustment.multiplier);
        let mut ln_per_carat = [0.0; 5];
        let mut observations = 0u32;
        let mut basis = Basis::Observed;
        for (band, weight) in matrix.bracket(carat.clamp(CARAT_MIN, CARAT_MAX)) {
            if weight == 0.0 {
                continue;
            }
            let at = matrix.at(band, quote.color, quote.clarity);
            observations = observations.saturating_add(matrix.cells[at].observations);
            basis = basis.weaker(matrix.cells[at].basis);
            for (sum, ln) in ln_per_carat.iter_mut().zip(matrix.ln_quantiles[at]) {
                *sum += weight * ln;
            }
        }
        let per_carat = |at: usize| per_carat_usd(ln_per_carat[at], multiplier);
        let (low, high) = (per_carat(0), per_carat(4));
        let range = PriceRange {
            low_per_carat_usd: low,
            high_per_carat_usd: high,
            low_usd: low * carat,
            high_usd: high * carat,
        };
        Evidence { range, observations, basis, benchmark_usd, ln_per_carat, multiplier, carat }
    }
}

/// A per-carat quantile in USD from its ln before the multiplier: the price's own `exp`,
/// then the multiplier, as the price is computed.
#[inline(always)]
fn per_carat_usd(ln: f64, multiplier: f64) -> f64 {
    crate::exp::exp(ln) * multiplier
}

impl Evidence {
    /// Total USD at each of [`PERCENTILES`] (unrounded), ascending: per carat, then times
    /// the carat, as the range's ends are (so they are the 10th and 90th here).
    pub fn quantiles_usd(&self) -> [f64; 5] {
        self.ln_per_carat.map(|ln| per_carat_usd(ln, self.multiplier) * self.carat)
    }

    /// Where an asking total price falls among comparable asks, 0 to 100: linear in ln
    /// price between the quantiles (10, 25, 50, 75, 90), a normal tail below the 10th
    /// (fitted to the 10th and 25th) and above the 90th (fitted to the 75th and 90th).
    /// At a quantile's price it is exactly that quantile's percentile (the middle one
    /// when several quantiles share a price). An ask of 0 or less is at 0; NaN gives NaN.
    pub fn percentile(&self, asking_total_usd: f64) -> f64 {
        if asking_total_usd.is_nan() {
            return f64::NAN;
        }
        if asking_total_usd <= 0.0 {
            return 0.0;
        }
        let y = asking_total_usd.ln();
        // ln of the quantiles themselves, so an ask of a quantile's price is on it exactly.
        let x = &self.quantiles_usd().map(f64::ln);
        let mut tied = x.iter().zip(PERCENTILES).filter(|&(&xk, _)| xk == y).map(|(_, p)| p);
        if let Some(first) = tied.next() {
            return (first + tied.next_back().unwrap_or(first)) / 2.0;
        }
        let percent = if y < x[0] {
            tail(y, x[0], x[1])
        } else if y > x[4] {
            100.0 - tail(-y, -x[4], -x[3])
        } else {
            // x[k] < y < x[k + 1] for the last k with x[k] < y.
            let k = x.iter().rposition(|&xk| xk < y).unwrap_or(0).min(3);
            let t = (y - x[k]) / (x[k + 1] - x[k]);
            PERCENTILES[k] + t * (PERCENTILES[k + 1] - PERCENTILES[k])
        };
        percent.clamp(0.0, 100.0)
    }

    /// The ask against the benchmark (the quote's total), in percent: -12.5 means 12.5 %
    /// below it.
    pub fn discount_pct(&self, asking_total_usd: f64) -> f64 {
        (asking_total_usd / self.benchmark_usd - 1.0) * 100.0
    }

    /// Below, within or above the range (its ends count as within).
    pub fn verdict(&self, asking_total_usd: f64) -> Verdict {
        if asking_total_usd < self.range.low_usd {
            Verdict::BelowMarket
        } else if asking_total_usd > self.range.high_usd {
            Verdict::AboveMarket
        } else {
            Verdict::WithinMarket
        }
    }

    /// [`Self::percentile`], [`Self::discount_pct`] and [`Self::verdict`] together.
    pub fn assess(&self, asking_total_usd: f64) -> Assessment {
        Assessment {
            percentile: self.percentile(asking_total_usd),
            discount_pct: self.discount_pct(asking_total_usd),
            verdict: self.verdict(asking_total_usd),
        }
    }
}

/// The percentile of `y` below the 10th-percentile point `x10` in a normal tail fitted
/// through it and the 25th-percentile point `x25` (`y < x10`; the upper tail is the same
/// with signs turned). A flat pair (no spread) puts everything below at 0.
fn tail(y: f64, x10: f64, x25: f64) -> f64 {
    let sigma = (x25 - x10) / (normal::Z25 - normal::Z10);
    if sigma <= 0.0 || !sigma.is_finite() {
        return 0.0;
    }
    100.0 * normal::cdf(normal::Z10 + (y - x10) / sigma)
}

#[cfg(test)]
mod tests;
