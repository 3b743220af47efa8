//! A quote request as a front end read it ([`QuoteInput`]) and the rules that need no
//! snapshot, applied to it all at once.

use super::*;

/// A quote request as a front end read it: each field [`Given`] or not, nothing checked.
///
/// ```
/// use pricing::{Given, QuoteField, QuoteInput, Shape};
///
/// let input = QuoteInput {
///     carat: Given::number_text("1.23"),
///     color: Given::Value("g"),
///     clarity: Given::Value("VS2"),
///     shape: Given::Value("oval"),
///     ratio: Given::Missing,
/// };
/// let request = input.validate().unwrap();
/// assert_eq!((request.carat, request.shape, request.ratio), (1.23, Shape::Oval, None));
///
/// let input = QuoteInput { carat: Given::Value(9.0), color: Given::Value("Z"), ..input };
/// let problems = input.validate().unwrap_err();
/// assert_eq!(problems[0].field, QuoteField::Carat);
/// assert_eq!(problems[0].message, "carat must be between 0.3 and 6, got 9");
/// assert_eq!(problems[1].message, r#"unknown color "Z"; allowed: D, E, F, G, H, I, J, K, L, M"#);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct QuoteInput<'a> {
    /// Carat weight; required.
    pub carat: Given<f64>,
    /// Colour grade name, any case; required.
    pub color: Given<&'a str>,
    /// Clarity grade name, any case; required.
    pub clarity: Given<&'a str>,
    /// Shape name, any case; round when missing.
    pub shape: Given<&'a str>,
    /// L/W ratio; the shape model's slider centre when missing.
    pub ratio: Given<f64>,
}

impl QuoteInput<'_> {
    /// Applies every rule that needs no snapshot and returns the request, or every
    /// problem found, one per field at most, in [`QuoteField::ALL`] order (never empty).
    /// A caller that shows only some of them may truncate the list.
    ///
    /// The rules: carat is required and within [`CARAT_MIN`]..=[`CARAT_MAX`]; colour and
    /// clarity are required grade names; shape is a shape name or missing; a ratio is 1
    /// (within [`ROUND_RATIO_TOLERANCE`]) for a round stone and a positive number for a
    /// fancy one. Each snapshot's slider is checked by
    /// [`PricingSet::quote`](crate::PricingSet::quote).
    #[inline(always)]
    pub fn validate(&self) -> Result<QuoteRequest, Vec<QuoteError>> {
        let mut problems = Vec::new();
        let carat = Carat::from_given(self.carat.clone())
            .and_then(|carat| carat.ok_or_else(|| QuoteField::Carat.required()));
        let carat = keep(&mut problems, carat);
        let color =
            keep(&mut problems, required_grade(QuoteField::Color, &self.color, Color::parse));
        let clarity =
            keep(&mut problems, required_grade(QuoteField::Clarity, &self.clarity, Clarity::parse));
        let shape = optional_grade(QuoteField::Shape, &self.shape, Shape::parse)
            .map(|shape| shape.unwrap_or(Shape::Round));
        let shape = keep(&mut problems, shape);
        let ratio = match self.ratio {
            Given::Missing => Ok(None),
            Given::Unreadable(ref given) => Err(QuoteField::Ratio.unreadable(given)),
            Given::Value(ratio) => match shape {
                Some(Shape::Round) => check_round_ratio(ratio).map(|()| Some(ratio)),
                // A fancy shape, or a shape not understood: the part of the rule that
                // holds for every fancy shape.
                _ => check_positive_ratio(ratio).map(|()| Some(ratio)),
            },
        };
        let ratio = keep(&mut problems, ratio);
        match (carat, color, clarity, shape, ratio) {
            (Some(carat), Some(color), Some(clarity), Some(shape), Some(ratio))
                if problems.is_empty() =>
            {
                Ok(QuoteRequest { carat: carat.get(), color, clarity, shape, ratio })
            }
            _ => Err(problems),
        }
    }
}

/// The value of a check that passed; a failed one's problem joins `problems`.
fn keep<T>(problems: &mut Vec<QuoteError>, checked: Result<T, QuoteError>) -> Option<T> {
    checked.map_err(|problem| problems.push(problem)).ok()
}

#[inline(always)]
fn optional_grade<T>(
    field: QuoteField,
    given: &Given<&str>,
    parse: fn(&str) -> Result<T, crate::Error>,
) -> Result<Option<T>, QuoteError> {
    match given {
        Given::Missing => Ok(None),
        Given::Value(text) => parse(text).map(Some).map_err(|err| field.error(err.to_string())),
        Given::Unreadable(given) => Err(field.unreadable(given)),
    }
}

#[inline(always)]
fn required_grade<T>(
    field: QuoteField,
    given: &Given<&str>,
    parse: fn(&str) -> Result<T, crate::Error>,
) -> Result<T, QuoteError> {
    optional_grade(field, given, parse)?.ok_or_else(|| field.required())
}
