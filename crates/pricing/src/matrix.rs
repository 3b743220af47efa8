//! The price matrix: ln per-carat prices by colour x clarity at each carat band, and the
//! log-linear interpolation between bands (docs/decisions.md 2.1.3).

use crate::{
    error::{Error, ErrorKind, finite},
    grade::{Clarity, Color},
};

/// Smallest carat weight the service prices (docs/decisions.md 5.1).
pub const CARAT_MIN: f64 = 0.3;
/// Largest carat weight the service prices (docs/decisions.md 5.1).
pub const CARAT_MAX: f64 = 6.0;

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
    pub fn new(value: f64) -> Result<Carat, Error> {
        if (CARAT_MIN..=CARAT_MAX).contains(&value) {
            return Ok(Carat(value));
        }
        // NaN and infinities get the range message too: it says what is allowed.
        let kind = if value.is_finite() { ErrorKind::OutOfRange } else { ErrorKind::NotFinite };
        Err(Error::new(
            kind,
            format!("carat must be between {CARAT_MIN} and {CARAT_MAX}, got {value}"),
        ))
    }

    /// The weight in carats.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A validated price matrix.
///
/// Invariants: `bands` strictly increasing, finite, covering
/// [`CARAT_MIN`]..=[`CARAT_MAX`]; every colour and every clarity present exactly once;
/// `ln_values.len() == bands.len() * rows * cols`, band-major then row-major
/// (colour x clarity), every value finite.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceMatrix {
    bands: Vec<f64>,
    colors: Vec<Color>,
    clarities: Vec<Clarity>,
    row_of: [usize; 10],
    col_of: [usize; 8],
    ln_values: Vec<f64>,
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
            finite("ln price", value)?;
        }
        Ok(PriceMatrix {
            bands,
            colors,
            clarities,
            row_of: row_of.try_into().expect("ten colours"),
            col_of: col_of.try_into().expect("eight clarities"),
            ln_values,
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
    pub fn ln_at_band(&self, band: usize, color: Color, clarity: Clarity) -> f64 {
        let cells = self.colors.len() * self.clarities.len();
        let cell = self.row_of[color.index()] * self.clarities.len() + self.col_of[clarity.index()];
        self.ln_values[band * cells + cell]
    }

    /// Interpolated ln per-carat price (docs/decisions.md 2.1.3): log-linear between the two
    /// bands around `carat`; exactly the band's value at a band carat.
    pub fn ln_per_carat(&self, carat: Carat, color: Color, clarity: Clarity) -> f64 {
        let carat = carat.get();
        // Index of the upper band of the segment: the first band above `carat`, kept
        // inside 1..len so that the top band itself is reached with lambda = 1.
        let upper =
            self.bands.partition_point(|&band| band <= carat).clamp(1, self.bands.len() - 1);
        let (c1, c2) = (self.bands[upper - 1], self.bands[upper]);
        let lambda = (carat - c1) / (c2 - c1);
        let (ln1, ln2) =
            (self.ln_at_band(upper - 1, color, clarity), self.ln_at_band(upper, color, clarity));
        // At a band carat lambda is 0 (or 1 at the top band), and the sum is exactly
        // that band's value: `x * 1.0 + y * 0.0 == x` in IEEE arithmetic.
        (1.0 - lambda) * ln1 + lambda * ln2
    }

    /// Interpolated per-carat price in USD: `exp` of [`Self::ln_per_carat`].
    pub fn per_carat(&self, carat: Carat, color: Color, clarity: Clarity) -> f64 {
        self.ln_per_carat(carat, color, clarity).exp()
    }
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

#[cfg(test)]
mod tests;
