//! The five feeds of the service: wire types, parsing and validation into `pricing`
//! types, whole-day [`Snapshot`]s, dated [`History`] folders, and the embedded reference
//! snapshot.
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
mod ratio_models;
mod reader;
pub mod reference;
mod snapshot;
pub mod wire;

pub use crate::{
    depth::{Depth, DepthPoint},
    error::{Error, Issue},
    history::{History, Trend},
    index::{Index, IndexSpec},
    live::{Live, ReloadOutcome, Source},
    snapshot::{Feed, FeedFiles, Snapshot},
};
