//! JSON-RPC 2.0 plus the MCP 2026-07-28 envelope rules, as pure functions, and the
//! legacy (2025) era beside it ([`classify_any_era`]).
//!
//! One HTTP POST (headers and body bytes) goes into [`classify`], which answers with a
//! validated [`Request`], a notification, or a ready error [`Response`]; a method result
//! goes through [`Complete`] and [`Response::success_json`] back to bytes. The checks follow
//! the order the spec (and the official conformance suite) fixes; see [`classify`].
//! Error codes map to HTTP statuses through [`ErrorCode::http_status`].
//!
//! **Architecture invariant:** this crate never does I/O, never awaits, and knows no tool,
//! no pricing concept and no route. It depends on serde, serde_json, thiserror and
//! base64 (the `=?base64?…?=` header form) only. Method
//! dispatch, and therefore -32601, belongs to the caller.
//!
//! Unit tests sit next to each module (`<module>/tests.rs`), with an example of each rule
//! of [`classify`]; property tests (no panics on arbitrary input, statuses stay in
//! {400, 404, 200}, a body a `Value` read refuses is -32700, a request made from parts
//! reads back as them, repeats keep the last value) are in `src/tests.rs`.

#![deny(missing_docs)]

mod classify;
mod envelope;
mod era;
mod error;
mod field;
mod filter;
mod headers;
mod id;
mod mcp;
mod response;
#[cfg(test)]
mod tests;

pub use crate::{
    classify::{
        Inbound, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, Request,
        RequestMeta, classify,
    },
    envelope::{Meta, Params, Sent},
    era::{
        ALL_VERSIONS, Classified, Era, LEGACY_ASSUMED, LEGACY_LATEST, LEGACY_VERSIONS,
        LegacyRequest, Transport, classify_any_era, classify_any_era_filtered, negotiate,
    },
    error::{ErrorCode, ErrorObject},
    field::{EMPTY_OBJECT, Field, Object, type_name},
    filter::{ArgumentFilter, LeftOut},
    headers::{HEADER_METHOD, HEADER_NAME, HEADER_PROTOCOL_VERSION, HeaderView},
    id::{ID_BYTES_MAX, RequestId},
    mcp::{Complete, LegacyResult, META_SERVER_INFO, ResultMeta, ServerInfo, ToolCall},
    response::Response,
};

/// The crate's one error type: a JSON-RPC error object (see [`ErrorObject`]).
pub type Error = ErrorObject;

/// The MCP protocol revision this crate implements.
pub const PROTOCOL_VERSION: &str = "2026-07-28";

/// Every protocol version a request may name in `_meta`.
pub const SUPPORTED_VERSIONS: &[&str] = &[PROTOCOL_VERSION];

/// The JSON-RPC version every message carries.
pub const JSONRPC_VERSION: &str = "2.0";
