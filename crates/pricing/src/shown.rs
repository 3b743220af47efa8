//! Numbers as messages echo them: short, exact, and bounded in length whatever was given.

use std::fmt;

/// Magnitudes a message writes as a plain decimal; others get an exponent (`5e-324`).
const PLAIN_RANGE: std::ops::Range<f64> = 1e-6..1e16;

/// A number as messages echo it: the shortest digits that read back as the same `f64`,
/// as a plain decimal from 1e-6 up to 1e16 (and for zero), with an exponent outside it,
/// so that no echoed number is longer than 24 characters (`-2.2250738585072014e-308`).
///
/// ```
/// use pricing::ShownNumber;
///
/// assert_eq!(ShownNumber(1.35).to_string(), "1.35");
/// assert_eq!(ShownNumber(5e-324).to_string(), "5e-324");
/// assert_eq!(ShownNumber(-1e300).to_string(), "-1e300");
/// assert_eq!(ShownNumber(f64::NAN).to_string(), "NaN");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShownNumber(pub f64);

impl fmt::Display for ShownNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.0;
        if value == 0.0 || !value.is_finite() || PLAIN_RANGE.contains(&value.abs()) {
            write!(f, "{value}")
        } else {
            write!(f, "{value:e}")
        }
    }
}
