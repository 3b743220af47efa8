//! Number formatting for tool texts and links: the very characters `{}` and `{:.N}` write
//! for an `f64`, by a faster route (shortest digits from `zmij`, fixed decimals by
//! integer arithmetic), falling back to the standard formatter where the routes could
//! differ.

use std::fmt;

#[cfg(test)]
mod tests;

/// Magnitudes where zmij writes the digits `{}` writes, without an exponent. Above
/// about 1e7, where 17 digits can be needed, zmij sometimes picks another last digit
/// (seen in a sweep of 60 million values; none below 7e7); tiny values get an exponent.
const SHORTEST_RANGE: std::ops::Range<f64> = 1e-4..1e6;

/// An `f64` as `{}` writes it: the shortest digits that read back as the same number, no
/// exponent (`1.35`, `1`, `0.0001`, `-0`, `NaN`, `inf`). Width and precision flags are
/// ignored.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decimal(pub(crate) f64);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if SHORTEST_RANGE.contains(&self.0.abs()) || self.0 == 0.0 {
            let mut buffer = zmij::Buffer::new();
            let text = buffer.format_finite(self.0);
            // zmij writes `1.0` for 1; `{}` writes `1`.
            return f.write_str(text.strip_suffix(".0").unwrap_or(text));
        }
        write!(f, "{}", self.0)
    }
}

/// An `f64` as `{:.N}` writes it, for `N` up to 8: rounded to `N` decimals, every
/// decimal written, a `-` for every negative number (even one that rounds to zero).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed {
    value: f64,
    decimals: u32,
}

/// `value` with `decimals` decimals (at most 8).
pub(crate) fn fixed(value: f64, decimals: u32) -> Fixed {
    Fixed { value, decimals: decimals.min(8) }
}

/// Scaled magnitudes below this are exact to better than 1e-7 after one multiplication,
/// far inside [`TIE_MARGIN`].
const SCALED_LIMIT: f64 = 1e9;
/// A scaled value whose fraction is this close to one half may round either way in exact
/// arithmetic: the standard formatter decides.
const TIE_MARGIN: f64 = 1e-6;

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = 10u64.pow(self.decimals);
        let scaled = self.value.abs() * scale as f64;
        let fraction = scaled - scaled.floor();
        let exact_enough = scaled < SCALED_LIMIT; // false for NaN and infinities
        if !exact_enough || (fraction - 0.5).abs() <= TIE_MARGIN {
            return write!(f, "{:.*}", self.decimals as usize, self.value);
        }
        // Below the limit the scaled value fits a u64 exactly.
        let units = scaled.floor() as u64 + u64::from(fraction > 0.5);
        if self.value.is_sign_negative() {
            f.write_str("-")?;
        }
        write!(f, "{}", units / scale)?;
        if self.decimals > 0 {
            write!(f, ".{:0width$}", units % scale, width = self.decimals as usize)?;
        }
        Ok(())
    }
}
