//! The MCP tool service: the three pricing tools (`get_diamond_price`, `get_dcx_index`,
//! `get_market_depth`), their schemas, and the JSON-RPC dispatch over HTTP.
//!
//! **Architecture invariant:** tool results are built from one [`datasets::Snapshot`]
//! taken once per request; no tool reads the clock (the caller passes `now`) or the file
//! system. `dcx quote --json` and the MCP tool share [`price::price`].
#![deny(missing_docs)]

pub mod args;
pub mod price;
