//! The quote rules in one place: what each field of a quote request may hold, and the
//! one set of messages every front end reports when it does not.
//!
//! A front end (the MCP tool, the `/track` route, `dcx quote`, a program of yours) only
//! reads its raw values into [`Given`]s; [`QuoteInput::validate`] applies every rule and
//! reports every problem at once. The rules that need a snapshot (a fancy shape's model
//! and its slider) are applied by [`PricingSet::quote`](crate::PricingSet::quote) with the
//! same words.

use std::fmt;

use crate::{
    grade::{Clarity, Color, Shape, shown},
    matrix::{CARAT_MAX, CARAT_MIN, Carat},
    quote::{PricingSet, QuoteRequest},
    ratio::Slider,
    shown::ShownNumber,
};

/// How far a round stone's given ratio may stray from 1 before it is refused.
pub const ROUND_RATIO_TOLERANCE: f64 = 0.05;

/// The ratios a round stone accepts, both ends included: 1 within [`ROUND_RATIO_TOLERANCE`].
const ROUND_RATIOS: (f64, f64) = (1.0 - ROUND_RATIO_TOLERANCE, 1.0 + ROUND_RATIO_TOLERANCE);

impl PricingSet {
    /// The L/W ratios a quote of `shape` accepts from this set, both ends included: 1
    /// within [`ROUND_RATIO_TOLERANCE`] for round, the model's slider for a fancy shape;
    /// `None` when the set has no model for the shape (it cannot be priced). Published
    /// schemas state these bounds, so that every ratio they allow is priced.
    ///
    /// ```
    /// use pricing::{PriceMatrix, PricingSet, RatioModels, Shape};
    ///
    /// let (colors, clarities) = (pricing::Color::ALL.to_vec(), pricing::Clarity::ALL.to_vec());
    /// let matrix = PriceMatrix::new(vec![0.3, 6.0], colors, clarities, vec![8.0; 160])?;
    /// let prices = PricingSet::new(matrix.clone(), matrix, RatioModels::default());
    /// assert_eq!(prices.accepted_ratios(Shape::Round), Some((0.95, 1.05)));
    /// assert_eq!(prices.accepted_ratios(Shape::Oval), None); // no oval model
    /// # Ok::<(), pricing::Error>(())
    /// ```
    pub fn accepted_ratios(&self, shape: Shape) -> Option<(f64, f64)> {
        if !shape.is_fancy() {
            return Some(ROUND_RATIOS);
        }
        let slider = self.ratios().get(shape)?.slider();
        Some((slider.min(), slider.max()))
    }
}

/// A field of a quote request, as [`QuoteRequest`] names it.
///
/// Front ends may call a field otherwise (the MCP tool's `shape_ratio` is `ratio` here);
/// they map [`QuoteError::field`] to their own parameter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QuoteField {
    /// Carat weight.
    Carat,
    /// Colour grade.
    Color,
    /// Clarity grade.
    Clarity,
    /// Shape.
    Shape,
    /// L/W (length-to-width) ratio.
    Ratio,
}

impl QuoteField {
    /// Every field, in the order problems are reported.
    pub const ALL: [QuoteField; 5] = [
        QuoteField::Carat,
        QuoteField::Color,
        QuoteField::Clarity,
        QuoteField::Shape,
        QuoteField::Ratio,
    ];

    /// The field's name in [`QuoteRequest`]: `carat`, `color`, `clarity`, `shape`, `ratio`.
    pub fn name(self) -> &'static str {
        match self {
            QuoteField::Carat => "carat",
            QuoteField::Color => "color",
            QuoteField::Clarity => "clarity",
            QuoteField::Shape => "shape",
            QuoteField::Ratio => "ratio",
        }
    }

    /// What the field accepts, in words (the end of every message about it).
    ///
    /// ```
    /// use pricing::QuoteField;
    ///
    /// assert_eq!(QuoteField::Carat.allowed(), "a number of carats from 0.3 to 6");
    /// assert_eq!(QuoteField::Color.allowed(), "one of D, E, F, G, H, I, J, K, L, M");
    /// ```
    pub fn allowed(self) -> String {
        fn one_of<T: fmt::Display>(all: &[T]) -> String {
            let names: Vec<String> = all.iter().map(T::to_string).collect();
            format!("one of {}", names.join(", "))
        }
        match self {
            QuoteField::Carat => format!("a number of carats from {CARAT_MIN} to {CARAT_MAX}"),
            QuoteField::Color => one_of(Color::ALL),
            QuoteField::Clarity => one_of(Clarity::ALL),
            QuoteField::Shape => format!("{} (default round)", one_of(Shape::ALL)),
            QuoteField::Ratio => "a positive number such as 1.35, within the shape's slider \
                                  range; omit it for round stones"
                .to_owned(),
        }
    }

    /// How messages call the field.
    fn noun(self) -> &'static str {
        match self {
            QuoteField::Ratio => "L/W ratio",
            other => other.name(),
        }
    }

    fn error(self, message: String) -> QuoteError {
        QuoteError { field: self, message }
    }

    fn required(self) -> QuoteError {
        self.error(format!("{} is required: {}", self.noun(), self.allowed()))
    }

    fn unreadable(self, given: &str) -> QuoteError {
        self.error(format!("{} must be {}, got {given}", self.noun(), self.allowed()))
    }
}

impl fmt::Display for QuoteField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A quote field the rules refused: which field, what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct QuoteError {
    /// The field at fault.
    pub field: QuoteField,
    /// What was wrong and what is allowed, the same words in every front end.
    pub message: String,
}

impl fmt::Display for QuoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for QuoteError {}

/// What a front end was given for one field, before the rules are applied.
#[derive(Debug, Clone, PartialEq)]
pub enum Given<T> {
    /// Nothing (absent, or an explicit null).
    Missing,
    /// A value of the right type, not yet checked.
    Value(T),
    /// Something that is not of the field's type, described for the message: `"abc"`
    /// (a text that is not a number), `the boolean true`, `an array`.
    Unreadable(String),
}

impl<T> From<Option<T>> for Given<T> {
    fn from(value: Option<T>) -> Given<T> {
        value.map_or(Given::Missing, Given::Value)
    }
}

impl Given<f64> {
    /// Reads a number written as text (a query parameter, a command-line flag): a decimal
    /// such as `1.23`, surrounding whitespace ignored. Anything else is
    /// [`Given::Unreadable`], quoted (a long text cut, as grade names are).
    ///
    /// ```
    /// use pricing::Given;
    ///
    /// assert_eq!(Given::number_text(" 1.23 "), Given::Value(1.23));
    /// assert_eq!(Given::number_text("one"), Given::Unreadable(r#""one""#.to_owned()));
    /// ```
    pub fn number_text(text: &str) -> Given<f64> {
        match text.trim().parse::<f64>() {
            Ok(number) => Given::Value(number),
            Err(_) => Given::Unreadable(shown(text)),
        }
    }
}

impl Carat {
    /// Applies the carat rule to a given value: `Ok(None)` when it is missing, otherwise a
    /// carat within [`CARAT_MIN`]..=[`CARAT_MAX`] or the error every front end reports.
    ///
    /// ```
    /// use pricing::{Carat, Given, QuoteField};
    ///
    /// assert_eq!(Carat::from_given(Given::Value(1.5))?.map(Carat::get), Some(1.5));
    /// assert_eq!(Carat::from_given(Given::Missing)?, None);
    /// let refused = Carat::from_given(Given::Value(-1.0)).unwrap_err();
    /// assert_eq!(refused.field, QuoteField::Carat);
    /// assert_eq!(refused.message, "carat must be between 0.3 and 6, got -1");
    /// # Ok::<(), pricing::QuoteError>(())
    /// ```
    pub fn from_given(given: Given<f64>) -> Result<Option<Carat>, QuoteError> {
        match given {
            Given::Missing => Ok(None),
            Given::Value(value) => Ok(Some(checked_carat(value)?)),
            Given::Unreadable(given) => Err(QuoteField::Carat.unreadable(&given)),
        }
    }
}

/// The carat rule on a number: within the priced range, NaN and infinities included in
/// the same message.
#[inline]
pub(crate) fn checked_carat(value: f64) -> Result<Carat, QuoteError> {
    match Carat::priced(value) {
        Some(carat) => Ok(carat),
        None => Err(carat_refused(value)),
    }
}

#[cold]
fn carat_refused(value: f64) -> QuoteError {
    QuoteField::Carat.error(format!(
        "carat must be between {CARAT_MIN} and {CARAT_MAX}, got {}",
        ShownNumber(value)
    ))
}

/// The round-stone ratio rule: a given ratio must be 1 within [`ROUND_RATIO_TOLERANCE`]
/// (both ends of [`ROUND_RATIOS`] included).
#[inline]
pub(crate) fn check_round_ratio(ratio: f64) -> Result<(), QuoteError> {
    let (min, max) = ROUND_RATIOS;
    if ratio >= min && ratio <= max {
        return Ok(());
    }
    Err(round_ratio_refused(ratio))
}

#[cold]
fn round_ratio_refused(ratio: f64) -> QuoteError {
    QuoteField::Ratio.error(format!(
        "L/W ratio for a round stone must be 1 (within {ROUND_RATIO_TOLERANCE}), got {}; omit it for round stones",
        ShownNumber(ratio)
    ))
}

/// The fancy-shape ratio rule without a snapshot: a positive number.
fn check_positive_ratio(ratio: f64) -> Result<(), QuoteError> {
    if ratio.is_finite() && ratio > 0.0 {
        return Ok(());
    }
    Err(QuoteField::Ratio
        .error(format!("L/W ratio must be a positive number, got {}", ShownNumber(ratio))))
}

/// The fancy-shape ratio rule of one snapshot: within the shape model's slider (whose
/// bounds are finite, so NaN and infinities fall outside).
#[inline]
pub(crate) fn check_slider_ratio(
    shape: Shape,
    slider: Slider,
    ratio: f64,
) -> Result<(), QuoteError> {
    if ratio >= slider.min() && ratio <= slider.max() {
        return Ok(());
    }
    Err(slider_ratio_refused(shape, slider, ratio))
}

#[cold]
fn slider_ratio_refused(shape: Shape, slider: Slider, ratio: f64) -> QuoteError {
    QuoteField::Ratio.error(format!(
        "L/W ratio for {shape} must be between {} and {}, got {}",
        ShownNumber(slider.min()),
        ShownNumber(slider.max()),
        ShownNumber(ratio)
    ))
}

/// A fancy shape the snapshot has no ratio model for.
#[cold]
pub(crate) fn no_model(shape: Shape) -> QuoteError {
    QuoteField::Shape
        .error(format!("no ratio model for shape {shape} in this snapshot; it cannot be priced"))
}

mod input;
#[cfg(test)]
mod tests;

pub use self::input::QuoteInput;
