//! The five daily feeds of the dcx diamond pricing service: parse and validate them into
//! a [`Snapshot`], price stones from it, read dated [`History`] folders and DCX trends.
//! A reference snapshot is compiled in, so a program can price without any file:
//!
//! ```
//! use datasets::Snapshot;
//! use pricing::{Clarity, Color, QuoteRequest, Shape, round_cents};
//!
//! let snapshot = Snapshot::reference(); // or datasets::fs::load_dir(path)?
//! let request = QuoteRequest {
//!     carat: 1.0,
//!     color: Color::G,
//!     clarity: Clarity::Vs2,
//!     shape: Shape::Round,
//!     ratio: None,
//! };
//! let quote = snapshot.quote(&request)?;
//! assert_eq!(round_cents(quote.per_carat_usd), 5900.0);
//! assert_eq!(snapshot.ts_text(), "2026-11-20T00:00:00Z");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The quoting itself is `dcx-pricing`'s (imported as `pricing`); this crate turns
//! feeds into its types. The examples `quote` (a round and a fancy stone, from the
//! reference snapshot or a folder) and `history` (days, prices and trends) are whole
//! programs.
//!
//! Parsing reads JSON into `serde_json::Value` and walks it by hand, so that validation
//! reports **every** problem, each with its feed name and a JSON pointer
//! ([`Issue`]), instead of stopping at the first one as a serde derive would. The serde
//! types in [`wire`] are the published shapes; they are used to write feeds.
//!
//! **Architecture invariant:** this crate never prints, never reads the clock (callers
//! pass dates in), and knows nothing of HTTP or MCP. Only its `fs` module and
//! [`History::load`] touch the file system. A [`Snapshot`] exists only if all five of its
//! feeds passed validation together.
//!
//! Compatibility: semantic versioning as `docs/compatibility.md` in the repository
//! describes. [`Live`] and [`Source`] are the servers' reload plumbing, public so that a
//! long-running program can reload the same way.
//!
//! Tests: unit tests in `tests.rs` files; `fixtures/snapshot-err/` holds one invalid
//! snapshot per class of problem with its expected messages.
#![deny(missing_docs)]

mod depth;
mod error;
pub mod fs;
mod history;
mod index;
mod live;
mod matrix;
mod matrix_stats;
mod ratio_models;
mod reader;
pub mod reference;
pub mod schema;
mod snapshot;
pub mod wire;

/// The crate README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

pub use crate::{
    depth::{Depth, DepthPoint},
    error::{Error, Issue},
    history::{Day, HELD_DAYS, History, Skipped, Trend},
    index::{Index, IndexSpec},
    live::{Clock, Live, Refusal, Reload, Source},
    matrix_stats::{
        DEFAULT_SPREAD_LN, MATRIX_STATS_FILE, MODEL_WIDENING, modelled_quantiles, validate_stats,
    },
    snapshot::{Feed, FeedFiles, Snapshot},
};
