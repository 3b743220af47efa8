//! `ErrorCode` and `ErrorObject`: the JSON-RPC error codes MCP uses and the error body.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use words::{clip, quoted};

use crate::SUPPORTED_VERSIONS;

#[cfg(test)]
mod tests;

/// A JSON-RPC error code. The associated consts are every code this crate emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ErrorCode(pub i32);

impl ErrorCode {
    /// The body is not valid JSON.
    pub const PARSE_ERROR: ErrorCode = ErrorCode(-32700);
    /// The body is JSON but not a valid single JSON-RPC request or notification.
    pub const INVALID_REQUEST: ErrorCode = ErrorCode(-32600);
    /// The method is not offered by this server.
    pub const METHOD_NOT_FOUND: ErrorCode = ErrorCode(-32601);
    /// The params (including the MCP `_meta` envelope) are malformed.
    pub const INVALID_PARAMS: ErrorCode = ErrorCode(-32602);
    /// The server failed.
    pub const INTERNAL_ERROR: ErrorCode = ErrorCode(-32603);
    /// An MCP routing header is missing, duplicated, malformed or differs from the body.
    pub const HEADER_MISMATCH: ErrorCode = ErrorCode(-32020);
    /// The request needs a client capability the client did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: ErrorCode = ErrorCode(-32021);
    /// The requested protocol version is not supported.
    pub const UNSUPPORTED_PROTOCOL_VERSION: ErrorCode = ErrorCode(-32022);

    /// The HTTP status an error response with this code is sent with: `400` for
    /// -32700, -32600, -32602, -32020, -32021 and -32022; `404` for -32601; `200` otherwise.
    pub fn http_status(self) -> u16 {
        match self {
            ErrorCode::PARSE_ERROR
            | ErrorCode::INVALID_REQUEST
            | ErrorCode::INVALID_PARAMS
            | ErrorCode::HEADER_MISMATCH
            | ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
            | ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => 400,
            ErrorCode::METHOD_NOT_FOUND => 404,
            _ => 200,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A JSON-RPC error object: `{"code", "message", "data"?}`.
///
/// This is the crate's one error type (also exported as [`crate::Error`]): the code is its
/// kind, the message and `data` its context. Messages say what was wrong and what is allowed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("{message} (code {code})")]
pub struct ErrorObject {
    /// The error code.
    pub code: ErrorCode,
    /// A specific, human-readable description.
    pub message: String,
    /// Structured detail; omitted from the wire when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error with `code` and `message` and no `data`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorObject {
        ErrorObject { code, message: message.into(), data: None }
    }

    /// -32700: the body is not JSON; `detail` is the parser's explanation.
    pub fn parse_error(detail: impl fmt::Display) -> ErrorObject {
        ErrorObject::new(ErrorCode::PARSE_ERROR, format!("parse error: {detail}"))
    }

    /// -32600: the envelope is not a valid JSON-RPC request.
    pub fn invalid_request(message: impl Into<String>) -> ErrorObject {
        ErrorObject::new(ErrorCode::INVALID_REQUEST, message)
    }

    /// -32601: `method` is not one of `offered`, which the message lists.
    pub fn method_not_found(method: &str, offered: &[&str]) -> ErrorObject {
        let offered = if offered.is_empty() { "no methods".to_owned() } else { offered.join(", ") };
        ErrorObject::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("unknown method {}; this server offers {offered}", quoted(method)),
        )
    }

    /// -32602: the params are malformed.
    pub fn invalid_params(message: impl Into<String>) -> ErrorObject {
        ErrorObject::new(ErrorCode::INVALID_PARAMS, message)
    }

    /// -32603: the server failed.
    pub fn internal(message: impl Into<String>) -> ErrorObject {
        ErrorObject::new(ErrorCode::INTERNAL_ERROR, message)
    }

    /// -32020: a routing header does not match the body.
    pub fn header_mismatch(message: impl Into<String>) -> ErrorObject {
        ErrorObject::new(ErrorCode::HEADER_MISMATCH, message)
    }

    /// -32022 with `data: {"supported": SUPPORTED_VERSIONS, "requested": requested}`.
    pub fn unsupported_version(requested: &str) -> ErrorObject {
        ErrorObject::unsupported_version_of(requested, SUPPORTED_VERSIONS)
    }

    /// -32022 with `data: {"supported": supported, "requested": requested}`.
    pub fn unsupported_version_of(requested: &str, supported: &[&str]) -> ErrorObject {
        ErrorObject {
            code: ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            message: format!(
                "unsupported protocol version {}; this server supports {}",
                quoted(requested),
                supported.join(", ")
            ),
            data: Some(json!({ "supported": supported, "requested": clip(requested) })),
        }
    }

    /// -32021 with `data: {"requiredCapabilities": required}`; `required` is a
    /// `ClientCapabilities` object such as `{"sampling":{}}`.
    pub fn missing_capability(required: Value) -> ErrorObject {
        ErrorObject {
            code: ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
            message: format!(
                "this request needs client capabilities {required} that \
                 params._meta[\"io.modelcontextprotocol/clientCapabilities\"] does not declare"
            ),
            data: Some(json!({ "requiredCapabilities": required })),
        }
    }
}
