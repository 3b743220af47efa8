//! MCP result helpers: [`Complete`] (and [`LegacyResult`] for 2025-era clients) wraps a
//! method result, `ToolCall` reads tools/call params.

use serde::Serialize;

use crate::{EMPTY_OBJECT, ErrorObject, Field, Object, Params, envelope::Sent};

#[cfg(test)]
mod tests;

/// `_meta` key under which every result names the server.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The server's identity, sent in every result's `_meta`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServerInfo {
    /// The implementation name.
    pub name: String,
    /// The implementation version.
    pub version: String,
}

impl ServerInfo {
    /// A server identity.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> ServerInfo {
        ServerInfo { name: name.into(), version: version.into() }
    }
}

/// A method result as MCP 2026-07-28 sends it: the method's own fields `R` (an object:
/// a struct or a map), then `"resultType": "complete"` and `_meta`.
///
/// It serializes straight to JSON, so a result is never built twice (once as a value tree,
/// once as bytes). `R` must not have its own `resultType` or `_meta` field.
#[derive(Debug, Serialize)]
pub struct Complete<'a, R> {
    /// The method's own fields.
    #[serde(flatten)]
    pub result: R,
    #[serde(rename = "resultType")]
    result_type: &'static str,
    /// The result's `_meta`.
    #[serde(rename = "_meta")]
    pub meta: ResultMeta<'a>,
}

impl<'a, R: Serialize> Complete<'a, R> {
    /// The complete result of `result` with `meta`.
    pub fn new(result: R, meta: ResultMeta<'a>) -> Complete<'a, R> {
        Complete { result, result_type: "complete", meta }
    }
}

/// A method result as the legacy (2025) revisions send it: the method's own fields `R`,
/// then `_meta`; no `resultType`, which those revisions do not define.
#[derive(Debug, Serialize)]
pub struct LegacyResult<'a, R> {
    /// The method's own fields.
    #[serde(flatten)]
    pub result: R,
    /// The result's `_meta`.
    #[serde(rename = "_meta")]
    pub meta: ResultMeta<'a>,
}

/// The `_meta` of every result: when it was made, by which public host, and the server's
/// identity under [`META_SERVER_INFO`].
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ResultMeta<'a> {
    /// When the result was made: UTC, RFC 3339 with milliseconds.
    pub timestamp: &'a str,
    /// The public host serving the result.
    pub source: &'a str,
    /// The server's identity.
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    pub server: &'a ServerInfo,
}

/// The params of a `tools/call` request, borrowed from them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToolCall<'a> {
    /// `params.name`: the tool to call. Whether it exists is the caller's question.
    pub name: &'a str,
    /// `params.arguments`; `{}` when absent.
    pub arguments: &'a Object<'a>,
}

impl<'a> ToolCall<'a> {
    /// Reads `name` (a string) and `arguments` (an object, `{}` when absent); anything else
    /// is -32602.
    #[inline(always)]
    pub fn from_params(params: &'a Params<'a>) -> Result<ToolCall<'a>, ErrorObject> {
        let name = match &params.name {
            Some(Field::Str(name)) => name.as_ref(),
            _ => return Err(ErrorObject::invalid_params("tools/call needs params.name, a string")),
        };
        let arguments = match &params.arguments {
            None => &EMPTY_OBJECT,
            Some(Sent::Object(arguments)) => arguments,
            Some(Sent::Other(other)) => {
                return Err(ErrorObject::invalid_params(format!(
                    "tools/call params.arguments must be an object, got {}",
                    other.type_name()
                )));
            }
        };
        Ok(ToolCall { name, arguments })
    }
}
