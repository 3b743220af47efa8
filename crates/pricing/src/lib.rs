//! Pricing math: carat interpolation over price matrices, L/W ratio models and DCX index
//! arithmetic.
//!
//! Every public function is a pure function of its arguments.
//!
//! **Architecture invariant:** this crate never does I/O, never reads the clock, never
//! awaits, has no dependencies and no serde derives. Inputs are validated once, when the
//! types below are constructed ([`PriceMatrix::new`], [`RatioModel::new`], ...); after
//! that the math cannot fail. Money is rounded to cents once, at the edge
//! ([`round_cents`]), never inside the math.
//!
//! Unit tests sit in `tests.rs` beside each module; property tests are in `src/props.rs`.
//!
//! ```
//! use pricing::{Clarity, Color, PriceMatrix};
//!
//! // Two bands, one colour, one clarity: 1000 $/ct at 1.0 ct, 4000 $/ct at 2.0 ct.
//! let matrix = PriceMatrix::new(
//!     vec![1.0, 2.0],
//!     vec![Color::D],
//!     vec![Clarity::Fl],
//!     vec![1000f64.ln(), 4000f64.ln()],
//! );
//! // `new` insists on every grade, so this matrix is refused:
//! assert!(matrix.is_err());
//! ```
#![deny(missing_docs)]

mod dcx;
mod error;
mod grade;
mod matrix;
mod quote;
mod ratio;

#[cfg(test)]
mod props;
#[cfg(test)]
mod test_util;

pub use crate::{
    dcx::{BasketEntry, percent_change, weighted_geometric_mean},
    error::{Error, ErrorKind},
    grade::{Clarity, Color, Shape},
    matrix::{CARAT_MAX, CARAT_MIN, Carat, PriceMatrix},
    quote::{
        BaseMatrix, FancyAdjustment, PricingSet, Quote, QuoteError, QuoteRequest,
        ROUND_RATIO_TOLERANCE, round_cents,
    },
    ratio::{RatioAdjustment, RatioBand, RatioModel, RatioModels, RatioPoint, Slider, ValueMode},
};
