//! Pricing math for diamonds: carat interpolation over price matrices, L/W ratio models
//! for fancy shapes, and DCX index arithmetic.
//!
//! A [`PricingSet`] (two [`PriceMatrix`]es and the [`RatioModels`] of one day) prices a
//! stone described by a [`QuoteRequest`]:
//!
//! ```
//! use pricing::{Clarity, Color, PriceMatrix, PricingSet, QuoteRequest, RatioModels, Shape};
//!
//! // Two carat bands spanning the priced range (0.3 to 6 ct), every colour x clarity cell
//! // in each: ln per-carat prices, D FL dearest, each grade step below it 5 % cheaper.
//! let mut ln_per_carat = Vec::new();
//! for d_fl_per_carat in [2_000.0_f64, 60_000.0] {
//!     for color in Color::ALL {
//!         for clarity in Clarity::ALL {
//!             let steps = (color.index() + clarity.index()) as i32;
//!             ln_per_carat.push((d_fl_per_carat * 0.95_f64.powi(steps)).ln());
//!         }
//!     }
//! }
//! let (bands, colors, clarities) = (vec![0.3, 6.0], Color::ALL.to_vec(), Clarity::ALL.to_vec());
//! let round = PriceMatrix::new(bands, colors, clarities, ln_per_carat)?;
//! let prices = PricingSet::new(round.clone(), round, RatioModels::default());
//!
//! let (color, clarity) = (Color::parse("G")?, Clarity::parse("VS2")?);
//! let request = QuoteRequest { carat: 1.0, color, clarity, shape: Shape::Round, ratio: None };
//! let quote = prices.quote(&request)?;
//! assert_eq!(pricing::round_cents(quote.per_carat_usd), 2014.74);
//! assert_eq!(pricing::round_cents(quote.total_usd), 2014.74);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What stands behind a price comes from the day's spread file: a [`SpreadSet`] (both
//! families' [`SpreadMatrix`], per cell the screened asks, their 10th to 90th percentile
//! and the [`Basis`] of the price) turns a [`Quote`] into its [`Evidence`] with
//! [`SpreadSet::evidence`]: a [`PriceRange`], the asks behind it, and for an asking price
//! its [`percentile`](Evidence::percentile), [`discount_pct`](Evidence::discount_pct) and
//! [`Verdict`].
//!
//! Real matrices and ratio models come from the daily feeds: the `dcx-datasets` crate
//! parses them into a `Snapshot` whose `pricing()` is a [`PricingSet`]. The examples
//! `hand_matrix` (a fancy shape through a hand-made [`RatioModel`]) and, in `dcx-datasets`,
//! `quote` and `history` show whole programs.
//!
//! Every public function is a pure function of its arguments.
//!
//! **Architecture invariant:** this crate never does I/O, never reads the clock, never
//! awaits, has no dependencies and no serde derives. Inputs are validated once, when the
//! types below are constructed ([`PriceMatrix::new`], [`RatioModel::new`], ...); after
//! that the math cannot fail. Money is rounded to cents once, at the edge
//! ([`round_cents`]), never inside the math.
//!
//! Compatibility: semantic versioning as `docs/compatibility.md` in the repository
//! describes; a change of any quoted number for the same inputs is a breaking change.
//!
//! Unit tests sit in `tests.rs` beside each module; property tests are in `src/props.rs`.
#![deny(missing_docs)]

mod dcx;
mod error;
mod exp;
mod grade;
mod matrix;
mod quote;
mod ratio;
mod rules;
mod shown;
mod spread;

/// The crate README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

#[cfg(test)]
mod props;
#[cfg(test)]
mod test_util;

pub use crate::{
    dcx::{BasketEntry, percent_change, weighted_geometric_mean},
    error::{Error, ErrorKind},
    grade::{Clarity, Color, Shape},
    matrix::{CARAT_MAX, CARAT_MIN, Carat, LN_PRICE_LIMIT, LN_SLOPE_LIMIT, PriceMatrix},
    quote::{BaseMatrix, FancyAdjustment, PricingSet, Quote, QuoteRequest, round_cents},
    ratio::{RatioAdjustment, RatioBand, RatioModel, RatioModels, RatioPoint, Slider, ValueMode},
    rules::{Given, QuoteError, QuoteField, QuoteInput, ROUND_RATIO_TOLERANCE},
    shown::ShownNumber,
    spread::{
        ASKING_PRICE, ASKING_PRICE_ALLOWED, Assessment, Basis, CellSpread, Evidence, PERCENTILES,
        PriceRange, SpreadMatrix, SpreadSet, Verdict, asking_price, tenth,
    },
};
