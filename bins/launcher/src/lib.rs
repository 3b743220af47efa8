//! How a server process starts, in one place: the flags every serving command takes
//! ([`ServerFlags`], [`ToolFlags`], [`DataFlags`]), the runtime whose idle workers hand
//! memory back ([`block_on_workers`], with the `allocator` crate), the metrics endpoint
//! ([`MetricsFlags::start`]), the signals and the one reload loop of the live data
//! ([`spawn_reloads`]), and the start-up sequence itself ([`run`]): each binary's `main`
//! only says what it serves. A library of the bins: with them, the only crates that name
//! clap.

mod flags;
mod metrics;
mod runtime;
mod signals;
mod start;

pub use crate::{
    flags::{ConnectionFlags, DataFlags, LogFlags, ServerFlags, ToolFlags},
    metrics::MetricsFlags,
    runtime::block_on_workers,
    signals::{Hangups, Reloads, shutdown_signal, spawn_reloads},
    start::{DEFAULT_FEED_URL, FeedServer, Process, Services, ToolServer, run, tool_config},
};
