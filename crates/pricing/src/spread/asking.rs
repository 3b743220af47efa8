//! The asking-price rule of `check_asking_price` and `/check`: one name, one rule, one
//! set of words for every front end, and the one-decimal rounding of what an
//! [`Assessment`](super::Assessment) publishes.

use crate::{rules::Given, shown::ShownNumber};

/// The asking price's name in every front end: the total asked for the stone, USD.
pub const ASKING_PRICE: &str = "asking_price_usd";

/// What [`ASKING_PRICE`] accepts, in words (the end of every message about it).
pub const ASKING_PRICE_ALLOWED: &str =
    "a finite number of US dollars greater than 0 (the total asked for the stone)";

/// The asking price rule: a finite number above 0, or the message saying what is allowed.
///
/// ```
/// use pricing::{Given, asking_price};
/// assert_eq!(asking_price(Given::Value(6500.0)), Ok(6500.0));
/// assert!(asking_price(Given::Value(0.0)).unwrap_err().contains("greater than 0"));
/// assert!(asking_price(Given::Missing).unwrap_err().contains("is required"));
/// ```
pub fn asking_price(given: Given<f64>) -> Result<f64, String> {
    match given {
        Given::Value(value) if value.is_finite() && value > 0.0 => Ok(value),
        Given::Value(value) => Err(format!(
            "{ASKING_PRICE} must be {ASKING_PRICE_ALLOWED}, got {}",
            ShownNumber(value)
        )),
        Given::Missing => Err(format!("{ASKING_PRICE} is required: {ASKING_PRICE_ALLOWED}")),
        Given::Unreadable(given) => {
            Err(format!("{ASKING_PRICE} must be {ASKING_PRICE_ALLOWED}, got {given}"))
        }
    }
}

/// `percentile` and `discount_pct` as published: one decimal (and never `-0.0`). An
/// absurd ask's discount, too large for tenths, is kept as it is, and never beyond the
/// largest finite number (JSON has no infinity).
///
/// ```
/// assert_eq!(pricing::tenth(-12.46), -12.5);
/// assert_eq!(pricing::tenth(-0.01), 0.0);
/// assert_eq!(pricing::tenth(f64::INFINITY), f64::MAX);
/// ```
pub fn tenth(value: f64) -> f64 {
    let value = value.clamp(-f64::MAX, f64::MAX);
    let scaled = value * 10.0;
    if scaled.is_finite() { scaled.round() / 10.0 + 0.0 } else { value }
}
