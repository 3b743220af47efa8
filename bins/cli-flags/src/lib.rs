//! The flags every server binary takes (`feed-server`, `tool-server`, `dcx serve`), defined
//! once: the data source ([`DataFlags`]), the connection caps and rate limit ([`ConnectionFlags`]), the log format
//! ([`LogFlags`]) and the metrics endpoint ([`MetricsFlags`], which also serves it). A
//! library for the bins only: it is the one crate outside a binary that may name clap.

mod connection;
mod data;
mod log;
mod metrics;

pub use connection::ConnectionFlags;
pub use data::DataFlags;
pub use log::LogFlags;
pub use metrics::MetricsFlags;
