//! The price matrix: ln per-carat prices by colour x clarity at each carat band, and the
//! log-linear interpolation between bands (docs/decisions.md 2.1.3).

use std::fmt;

use crate::{
    error::{Error, ErrorKind, finite},
    exp::SIXTY_FOURTHS_PER_LN2,
    grade::{Clarity, Color},
};

/// Smallest carat weight the service prices (docs/decisions.md 5.1).
pub const CARAT_MIN: f64 = 0.3;
/// Largest carat weight the service prices (docs/decisions.md 5.1).
pub const CARAT_MAX: f64 = 6.0;
/// The largest magnitude of a matrix's ln price: per-carat prices from `e^-700` to
/// `e^700` USD (docs/decisions.md 2.1.2). A carat between two bands is priced between
/// their ln prices, so a quote's `exp` never meets an argument beyond `±708`, where its
/// table ends.
pub const LN_PRICE_LIMIT: f64 = 700.0;
/// The largest change of a cell's ln price per carat between two neighbouring bands (a
/// factor of `e^1000` per carat; the reference's steepest is 4.3). A quote evaluates a
/// segment's line as `intercept + carat * slope`, whose rounding grows with the slope:
/// within this limit a price is within about 1e-12 of the two-point formula's.
pub const LN_SLOPE_LIMIT: f64 = 1000.0;

/// A carat weight inside [`CARAT_MIN`]..=[`CARAT_MAX`].
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Carat(f64);

impl Carat {
    /// Accepts a weight within the priced range; anything else (NaN and infinities too)
    /// gets the message that names the range.
    ///
    /// ```
    /// use pricing::{Carat, ErrorKind};
    ///
    /// assert_eq!(Carat::new(1.23)?.get(), 1.23);
    /// let refused = Carat::new(7.5).unwrap_err();
    /// assert_eq!(refused.kind(), ErrorKind::OutOfRange);
    /// assert_eq!(refused.to_string(), "carat must be between 0.3 and 6, got 7.5");
    /// # Ok::<(), pricing::Error>(())
    /// ```
    #[inline]
    pub fn new(value: f64) -> Result<Carat, Error> {
        Carat::priced(value).ok_or_else(|| Carat::refused(value))
    }

    /// A weight within the range, or `None`: [`Self::new`] without building its error.
    /// Compared as bits, as [`CaratSteps`] reads them: for positive floats the bit
    /// patterns are in the order of the numbers, and every other value (negative, NaN)
    /// lies above the range once `CARAT_MIN`'s bits are taken off, wrapping.
    #[inline]
    pub(crate) fn priced(value: f64) -> Option<Carat> {
        let above_min = value.to_bits().wrapping_sub(CARAT_MIN.to_bits());
        (above_min <= CARAT_MAX.to_bits() - CARAT_MIN.to_bits()).then_some(Carat(value))
    }

    /// The error for a weight outside the range. NaN and infinities get the range
    /// message too: it says what is allowed.
    #[cold]
    fn refused(value: f64) -> Error {
        let kind = if value.is_finite() { ErrorKind::OutOfRange } else { ErrorKind::NotFinite };
        Error::new(kind, format!("carat must be between {CARAT_MIN} and {CARAT_MAX}, got {value}"))
    }

    /// The weight in carats.
    #[inline]
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A validated price matrix.
///
/// Invariants: `bands` strictly increasing, finite, covering
/// [`CARAT_MIN`]..=[`CARAT_MAX`]; every colour and every clarity present exactly once;
/// `ln_values.len() == bands.len() * rows * cols`, every value within [`LN_PRICE_LIMIT`],
/// neighbouring bands' values within [`LN_SLOPE_LIMIT`] per carat.
///
/// Laid out for the quote: each band starts a segment, which runs to the next band (the
/// top band's holds the top band alone). The values are kept cell after cell, and for
/// each segment the line through its two ends, `cell_start` says where each grade pair's
/// cell begins, and `segment_at` and `segments` find the segment of a carat with a table
/// instead of a binary search.
#[derive(Clone, PartialEq)]
pub struct PriceMatrix {
    bands: Vec<f64>,
    colors: Vec<Color>,
    clarities: Vec<Clarity>,
    /// Index in `ln_values` and `lines` of the first segment of each cell, by colour and
    /// clarity index.
    cell_start: [[usize; 8]; 10],
    /// `ln_values[cell_start[color][clarity] + segment]`: the cell's ln value at the
    /// segment's band, as given.
    ln_values: Vec<f64>,
    /// `lines[cell_start[color][clarity] + segment]`: the segment's line in 64ths of
    /// `ln 2`, the unit of the quote's `exp` (`exp::exp2_64ths`), as `[intercept, slope]`
    /// (slope 0 for the top band's segment): the ln price at `carat` is
    /// `(intercept + carat * slope) ln 2 / 64`.
    lines: Vec<[f64; 2]>,
    /// Counts the band carats after the first (`bands[1..]`) at or below a carat.
    segments: CaratSteps,
    /// For each carat step ([`CaratSteps`]), the segment of every carat of the step, or
    /// [`NO_SEGMENT`] when a band carat cuts the step: those carats take `segments`.
    segment_at: ByStep<u8>,
}

/// A step of [`PriceMatrix::segment_at`] that a band carat cuts.
const NO_SEGMENT: u8 = u8::MAX;

impl fmt::Debug for PriceMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PriceMatrix")
            .field("bands", &self.bands)
            .field("colors", &self.colors)
            .field("clarities", &self.clarities)
            .field("ln_values", &self.ln_values)
            .finish_non_exhaustive()
    }
}

impl PriceMatrix {
    /// Builds a matrix from band carats, the row (colour) and column (clarity) lists in
    /// feed order, and the ln per-carat values, band after band, each band row-major.
    pub fn new(
        bands: Vec<f64>,
        colors: Vec<Color>,
        clarities: Vec<Clarity>,
        ln_values: Vec<f64>,
    ) -> Result<PriceMatrix, Error> {
        for &band in &bands {
            finite("carat band", band)?;
        }
        if bands.len() < 2 {
            return Err(Error::new(
                ErrorKind::Shape,
                format!("a matrix needs at least 2 carat bands, got {}", bands.len()),
            ));
        }
        if let Some(pair) = bands.windows(2).find(|pair| pair[0] >= pair[1]) {
            return Err(Error::new(
                ErrorKind::NotIncreasing,
                format!(
                    "carat bands must be strictly increasing, got {} then {}",
                    pair[0], pair[1]
                ),
            ));
        }
        let (first, last) = (bands[0], bands[bands.len() - 1]);
        if first > CARAT_MIN || last < CARAT_MAX {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!(
                    "carat bands must cover {CARAT_MIN} to {CARAT_MAX}, they cover {first} to {last}"
                ),
            ));
        }
        let row_of = positions(&colors, Color::ALL, "color")?;
        let col_of = positions(&clarities, Clarity::ALL, "clarity")?;
        let expected = bands.len() * colors.len() * clarities.len();
        if ln_values.len() != expected {
            return Err(Error::new(
                ErrorKind::Shape,
                format!(
                    "expected {expected} values ({} bands x {} colors x {} clarities), got {}",
                    bands.len(),
                    colors.len(),
                    clarities.len(),
                    ln_values.len()
                ),
            ));
        }
        for &value in &ln_values {
            if finite("ln price", value)?.abs() > LN_PRICE_LIMIT {
                return Err(Error::new(
                    ErrorKind::OutOfRange,
                    format!(
                        "ln price {value} is outside -{LN_PRICE_LIMIT} to {LN_PRICE_LIMIT} \
                         (a per-carat price from e^-{LN_PRICE_LIMIT} to e^{LN_PRICE_LIMIT} USD)"
                    ),
                ));
            }
        }
        let (cells, segments) = (colors.len() * clarities.len(), bands.len());
        let mut cell_start = [[0; 8]; 10];
        for (color, row) in row_of.iter().enumerate() {
            for (clarity, col) in col_of.iter().enumerate() {
                cell_start[color][clarity] = (row * clarities.len() + col) * segments;
            }
        }
        // Band-major as given; cell-major as kept, each band's value with the line to the
        // next band's.
        let mut kept = vec![0.0; cells * segments];
        let mut lines = vec![[0.0; 2]; cells * segments];
        for (at, &value) in ln_values.iter().enumerate() {
            let (band, cell) = (at / cells, at % cells);
            let slope = match ln_values.get(at + cells) {
                Some(&next) => checked_slope(value, next, bands[band], bands[band + 1])?,
                None => 0.0,
            };
            let slope_64ths = slope * SIXTY_FOURTHS_PER_LN2;
            let intercept_64ths = value * SIXTY_FOURTHS_PER_LN2 - bands[band] * slope_64ths;
            kept[cell * segments + band] = value;
            lines[cell * segments + band] = [intercept_64ths, slope_64ths];
        }
        let segment_at = segments_by_step(&bands);
        let segments = CaratSteps::new(&bands[1..]);
        Ok(PriceMatrix {
            bands,
            colors,
            clarities,
            cell_start,
            ln_values: kept,
            lines,
            segments,
            segment_at,
        })
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

    /// The stored ln per-carat price of one cell of band number `band`.
    ///
    /// # Panics
    ///
    /// When `band` is not below `bands().len()`.
    pub fn ln_at_band(&self, band: usize, color: Color, clarity: Clarity) -> f64 {
        let bands = self.bands.len();
        assert!(band < bands, "band {band} of a matrix of {bands} bands");
        self.ln_values[self.cell_start[color.index()][clarity.index()] + band]
    }

    /// The segment of `carat`: the index of the last band at or below it (every priced
    /// carat has one: the first band is at or below [`CARAT_MIN`]).
    #[inline]
    pub(crate) fn segment(&self, carat: Carat) -> usize {
        match self.segment_at[CaratSteps::step(carat)] {
            NO_SEGMENT => self.segments.segment(&self.bands, carat),
            lower => usize::from(lower),
        }
    }

    /// Interpolated ln per-carat price (docs/decisions.md 2.1.3): log-linear between the two
    /// bands around `carat`; exactly the band's value at a band carat.
    pub fn ln_per_carat(&self, carat: Carat, color: Color, clarity: Clarity) -> f64 {
        let lower = self.segment(carat);
        let at = self.cell_start[color.index()][clarity.index()] + lower;
        let (ln, band) = (self.ln_values[at], self.bands[lower]);
        let slope = match self.bands.get(lower + 1) {
            Some(&next) => slope(ln, self.ln_values[at + 1], band, next),
            None => 0.0,
        };
        // At a band carat the product is 0 and the sum exactly that band's value.
        ln + (carat.get() - band) * slope
    }

    /// Interpolated per-carat price in USD: `e` to [`Self::ln_per_carat`], from the
    /// segment's line in 64ths of `ln 2` (one multiplication and one addition) and the
    /// crate's `exp2_64ths`. Within about 1e-12 of the two-point formula's price with
    /// `f64::exp` ([`LN_SLOPE_LIMIT`]; 3e-15 on the reference). The ln price lies between
    /// two of the matrix's, within [`LN_PRICE_LIMIT`], so the `exp` needs no check of its
    /// range.
    #[inline]
    pub fn per_carat(&self, carat: Carat, color: Color, clarity: Clarity) -> f64 {
        let at = self.cell_start[color.index()][clarity.index()] + self.segment(carat);
        let Some(&[intercept, slope]) = self.lines.get(at) else {
            unreachable!("every cell has a line for every band")
        };
        crate::exp::exp2_64ths(intercept + carat.get() * slope)
    }
}

/// The slope of ln prices `value` at carat `band` and `next` at `next_band`, per carat:
/// the same number for the line a matrix checks and keeps and the one
/// [`PriceMatrix::ln_per_carat`] computes.
fn slope(value: f64, next: f64, band: f64, next_band: f64) -> f64 {
    (next - value) / (next_band - band)
}

/// [`slope`], refused beyond [`LN_SLOPE_LIMIT`] (an infinite one too).
fn checked_slope(value: f64, next: f64, band: f64, next_band: f64) -> Result<f64, Error> {
    let slope = slope(value, next, band, next_band);
    if slope.abs() <= LN_SLOPE_LIMIT {
        return Ok(slope);
    }
    let kind = if slope.is_finite() { ErrorKind::OutOfRange } else { ErrorKind::NotFinite };
    Err(Error::new(
        kind,
        format!(
            "ln prices {value} at {band} ct and {next} at {next_band} ct are too far apart to \
             interpolate: they change by {} per carat, at most {LN_SLOPE_LIMIT} is allowed",
            slope.abs()
        ),
    ))
}

/// [`PriceMatrix::segment_at`] for `bands`: a step's segment when its first and last
/// carat share one (the segment never decreases as the carat grows, so all between do).
fn segments_by_step(bands: &[f64]) -> ByStep<u8> {
    let segment = |carat: f64| bands.partition_point(|&band| band <= carat).max(1) - 1;
    let mut segment_at = [NO_SEGMENT; CaratSteps::STEPS];
    for (step, slot) in segment_at.iter_mut().enumerate() {
        let first = segment(CaratSteps::first_carat(step));
        if first == segment(CaratSteps::first_carat(step + 1).next_down()) {
            *slot = u8::try_from(first).unwrap_or(NO_SEGMENT);
        }
    }
    segment_at
}

/// Maps each grade of `all` to its position in `list`; every grade must appear once.
fn positions<T: Copy + PartialEq + std::fmt::Display>(
    list: &[T],
    all: &[T],
    what: &str,
) -> Result<Vec<usize>, Error> {
    let mut out = Vec::with_capacity(all.len());
    for grade in all {
        let found: Vec<usize> =
            list.iter().enumerate().filter(|(_, it)| *it == grade).map(|(i, _)| i).collect();
        match found.as_slice() {
            [one] => out.push(*one),
            [] => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    format!("{what} list misses grade {grade}; every grade must appear once"),
                ));
            }
            _ => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    format!("{what} list repeats grade {grade}; every grade must appear once"),
                ));
            }
        }
    }
    Ok(out)
}

mod steps;
#[cfg(test)]
mod tests;

pub(crate) use self::steps::{ByStep, CaratSteps};
