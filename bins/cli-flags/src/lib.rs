//! The flags every server binary takes (`feed-server`, `tool-server`, `dcx serve`), defined
//! once: the data source ([`DataFlags`]), the connection caps and rate limit ([`ConnectionFlags`]) and the log format
//! ([`LogFlags`]). A library for the bins only: it is the one crate outside a binary that
//! may name clap.

mod connection;
mod data;
mod log;

pub use connection::ConnectionFlags;
pub use data::DataFlags;
pub use log::LogFlags;
