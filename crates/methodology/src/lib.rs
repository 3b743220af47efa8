//! Listings in, a validated daily snapshot out: the published methodology, step by step.
//!
//! [`ListingReader`] reads [`Listing`]s one at a time from a CSV stream (the native schema
//! or the `diamonds` data set), counting every unusable row by reason; [`read_listings`]
//! collects it from text. [`build_reader`] (or [`build`], from listings in memory) then
//! runs the steps of `docs/methodology.md` (each a [`Stage`]) while the listings stream
//! by, keeping per-cell state, never the rows. The five feeds it returns have passed
//! [`datasets::Snapshot::parse`]; a build whose output would not is an [`Error`].
//! [`publish`] writes a build into a history folder atomically, with the cells it observed
//! (`observed.json`, read back by [`read_observed`] for later look-backs). With the
//! `synthetic` feature, [`synthetic`] writes listings drawn from a market whose prices are
//! known, so that tests can check what a build recovers.
//!
//! **Architecture invariant:** this crate never prints and never reads the clock or the
//! environment: the caller passes the build date, the history and the input stream. Only
//! [`publish`] and [`read_observed`] touch the file system (through `datasets::fs`).
//! Output bytes depend on the inputs alone: nothing iterates a hash map, everything is
//! sorted.
//!
//! Tests: unit tests sit in each module's sibling `tests.rs`; `tests.rs` next to this
//! file builds the committed `diamonds` sample (or the full file named by
//! `DIAMONDS_CSV`) end to end.
#![deny(missing_docs)]

mod build;
mod carry;
mod cells;
mod csv;
mod cushion;
mod feeds;
mod fill;
mod gate;
mod listing;
mod market;
mod matched;
mod observed;
mod publish;
mod ratio;
mod read;
mod report;
mod scope;
mod select;
mod smooth;
mod spread;
#[cfg(any(test, feature = "synthetic"))]
pub mod synthetic;

use std::path::PathBuf;

use chrono::NaiveDate;
use datasets::{FeedFiles, History};
use pricing::{Clarity, Color};

pub use crate::{
    build::{build, build_csv, build_reader},
    cells::Provenance,
    cushion::{CUSHION_FACTOR, MIN_FACTOR_LISTINGS, MIN_OWN_CUSHION_ASKS},
    feeds::{HISTORY_SPAN_DAYS, TREND_SLACK_DAYS},
    fill::MIN_FIT_CELLS,
    gate::{
        Gates, MAX_BAD_SHARE, MAX_MOVE, MAX_PER_CARAT, MIN_OBSERVED_CELLS, MIN_PER_CARAT, Refusal,
    },
    listing::{Finish, Fluorescence, Listing},
    matched::MIN_REFERENCE_LISTINGS,
    observed::{OBSERVED_FILE, read_observed},
    publish::{history_summary, publish},
    ratio::{MIN_BAND_LISTINGS, ModelSource},
    read::{InputFormat, ListingReader, MAX_EXAMPLES, Reason, Rejected, RowCounts, read_listings},
    report::{BandReport, CellReport, MatrixReport, Report, ShapeReport},
    scope::{
        BAND_KEYS, MAX_ASK_PER_CARAT, MIN_ASK_PER_CARAT, SCOPE_MAX_CARAT, SCOPE_MIN_CARAT,
        WINDOW_DAYS,
    },
    select::{
        DEFAULT_THIN_OFFSET, MIN_CELL_LISTINGS, NEIGHBOUR_FACTOR, OFFSET_MIN_CELLS,
        OFFSET_MIN_LISTINGS, QUANTILE, SCREEN_FLOOR, SCREEN_MADS, SCREEN_MIN_LISTINGS,
    },
    smooth::{MAX_PASSES, pava},
    spread::{BAND_SHAPE_MIN_ASKS, MIN_SPREAD_ASKS, SPREAD_MIN_CELLS, SPREAD_MIN_LISTINGS},
};

/// One basket stone of the DCX.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BasketSpec {
    /// Carat weight, within 0.3..=6.0.
    pub carat: f64,
    /// Colour grade.
    pub color: Color,
    /// Clarity grade.
    pub clarity: Clarity,
    /// Weight; the basket's weights sum to 1.
    pub weight: f64,
}

/// The seven-spec basket of the reference snapshot (`datasets::reference::BASKET`).
pub fn default_basket() -> Vec<BasketSpec> {
    datasets::reference::BASKET
        .iter()
        .map(|&(carat, color, clarity, weight)| BasketSpec { carat, color, clarity, weight })
        .collect()
}

/// What a build needs besides the listings.
#[derive(Debug, Clone)]
pub struct BuildOptions<'a> {
    /// The day the snapshot is published for; its `ts` is midnight UTC of this day.
    pub date: NaiveDate,
    /// The DCX basket (see [`default_basket`]).
    pub basket: Vec<BasketSpec>,
    /// Earlier published days: look-back, trends and ratio-model carry-over. Days on or
    /// after `date` are ignored.
    pub history: Option<&'a History>,
    /// The limits a build must meet to be published.
    pub gates: Gates,
    /// The `observed.json` of earlier published days, by day ([`read_observed`]): the
    /// asks the look-back may copy, and the previous day's asks that scale the carried
    /// bands. Days on or after `date` are ignored.
    pub observed: Vec<(NaiveDate, Vec<u8>)>,
}

impl BuildOptions<'_> {
    /// Options for `date` with the default basket and no history.
    pub fn new(date: NaiveDate) -> BuildOptions<'static> {
        BuildOptions {
            date,
            basket: default_basket(),
            history: None,
            gates: Gates::default(),
            observed: Vec::new(),
        }
    }
}

/// A step of the build, reported to the progress callback as it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the listings as they stream by: scope checks, duplicates, band
    /// assignment, each in-scope ask added to its cell.
    Filtering,
    /// Per-cell ask selection.
    Selecting,
    /// Look-back into earlier days.
    LookingBack,
    /// Regression fill.
    Modelling,
    /// Monotone smoothing.
    Smoothing,
    /// The cushion matrix.
    Cushion,
    /// Ratio models.
    RatioModels,
    /// DCX, trends and depth.
    Index,
    /// Validating the five feeds together.
    Validating,
}

/// A finished build: the five feeds (already validated) and the report.
#[derive(Debug, Clone)]
pub struct Build {
    /// The feeds' bytes, ready for [`publish`].
    pub files: FeedFiles,
    /// What the build did.
    pub report: Report,
    /// The bytes of `observed.json`: the cells observed today, which [`publish`] writes
    /// beside the feeds.
    pub observed: Vec<u8>,
    /// The bytes of `matrix_stats.json` (validated with the feeds): the spread of every
    /// cell, which [`publish`] writes beside the feeds.
    pub stats: Vec<u8>,
}

impl Build {
    /// The files a day's folder holds beside the five feeds: `observed.json` and
    /// `matrix_stats.json`, as `(file name, bytes)`.
    pub fn extras(&self) -> [(&'static str, &[u8]); 2] {
        [(OBSERVED_FILE, &self.observed), (datasets::MATRIX_STATS_FILE, &self.stats)]
    }
}

/// Why a build or a publication failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The build was refused by a gate (or its input is unusable); nothing may be
    /// published. The [`Refusal`] says why and holds what is known of the build.
    #[error("build refused: {}", .0.refused)]
    Gate(Box<Refusal>),
    /// The listings could not be read (the stream failed, not a row: bad rows are
    /// counted).
    #[error("cannot read the listings")]
    Read(#[source] std::io::Error),
    /// Too few observed cells to fill the matrix.
    #[error(
        "not enough data: {observed} observed cells and no band with {needed} of them spanning two colours and two clarities, the least a band needs to be fitted and to anchor the others"
    )]
    NotEnoughData {
        /// Observed cells in the whole matrix.
        observed: usize,
        /// The minimum for a fit.
        needed: usize,
    },
    /// The basket is unusable.
    #[error("invalid basket: {0}")]
    Basket(String),
    /// The built matrices still break a monotonicity rule (a bug; never published).
    #[error("{matrix} breaks monotonicity by {violation:.6} in ln price after smoothing")]
    NotMonotone {
        /// `matrix.json` or `matrix_cushion.json`.
        matrix: &'static str,
        /// The largest violation.
        violation: f64,
    },
    /// The five feeds failed validation (a bug; never published).
    #[error("the built snapshot fails validation")]
    Invalid(#[source] datasets::Error),
    /// The feeds to publish are not a valid snapshot for the date.
    #[error("refusing to publish {date}: {reason}")]
    Refused {
        /// The day.
        date: NaiveDate,
        /// Why.
        reason: String,
    },
    /// Writing the snapshot folder failed.
    #[error("cannot publish into {}", path.display())]
    Publish {
        /// The day's folder.
        path: PathBuf,
        /// The cause.
        #[source]
        source: datasets::Error,
    },
    /// An internal consistency check failed.
    #[error("internal error: {0}")]
    Internal(String),
}

#[cfg(test)]
mod tests;
