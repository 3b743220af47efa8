//! `Response`: one JSON-RPC response, its HTTP status and its wire bytes.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::{ErrorObject, RequestId};

#[cfg(test)]
mod tests;

/// A JSON-RPC response: a result or an error, for a request id (`None` is sent as `null`).
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The id of the request answered; `None` when it was unknown or invalid.
    pub id: Option<RequestId>,
    /// The method result, or the error.
    pub result: Result<Value, ErrorObject>,
}

impl Response {
    /// A success response.
    pub fn ok(id: RequestId, result: Value) -> Response {
        Response { id: Some(id), result: Ok(result) }
    }

    /// An error response; `id` is `None` when the request id is unknown.
    pub fn err(id: Option<RequestId>, error: ErrorObject) -> Response {
        Response { id, result: Err(error) }
    }

    /// `200` for a result; [`crate::ErrorCode::http_status`] for an error.
    pub fn http_status(&self) -> u16 {
        match &self.result {
            Ok(_) => 200,
            Err(error) => error.code.http_status(),
        }
    }

    /// The body: `{"jsonrpc":"2.0","id":…,"result":…}` or `{"jsonrpc":"2.0","id":…,"error":{…}}`.
    pub fn to_json(&self) -> Vec<u8> {
        let (result, error) = match &self.result {
            Ok(value) => (Some(value), None),
            Err(error) => (None, Some(error)),
        };
        write(&Wire { jsonrpc: Version2, id: self.id.as_ref(), result, error }, 0)
    }

    /// The body of a success response whose result is any serializable object, written
    /// straight from it: `{"jsonrpc":"2.0","id":…,"result":…}`. The same bytes as
    /// [`Response::ok`] with the result as a value, without building that value.
    pub fn success_json(id: &RequestId, result: &impl Serialize) -> Vec<u8> {
        Response::success_json_sized(id, result, 0)
    }

    /// [`Response::success_json`] into a buffer made for `result_bytes` of result and the
    /// envelope around them, so that a large result is not copied as the buffer grows.
    pub fn success_json_sized(
        id: &RequestId,
        result: &impl Serialize,
        result_bytes: usize,
    ) -> Vec<u8> {
        let wire = Wire { jsonrpc: Version2, id: Some(id), result: Some(result), error: None };
        write(&wire, result_bytes)
    }
}

/// Serializes a response, into a buffer of at least 2 KiB or `result_bytes` and 1 KiB for
/// the rest; a result that cannot be serialized (a map with non-string keys, a failing
/// custom `Serialize`) becomes a -32603 error response.
fn write<R: Serialize>(wire: &Wire<'_, R>, result_bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(2048.max(result_bytes.saturating_add(1024)));
    match serde_json::to_writer(&mut out, wire) {
        Ok(()) => out,
        Err(_) => FALLBACK.to_vec(),
    }
}

const FALLBACK: &[u8] = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"response could not be serialized"}}"#;

/// The wire form; field order is the output order.
#[derive(Serialize)]
struct Wire<'a, R> {
    jsonrpc: Version2,
    id: Option<&'a RequestId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a R>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a ErrorObject>,
}

/// The JSON-RPC version marker: a unit type that is always written as `"2.0"`.
#[derive(Clone, Copy)]
struct Version2;

impl Serialize for Version2 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(crate::JSONRPC_VERSION)
    }
}
