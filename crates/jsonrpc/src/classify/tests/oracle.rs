//! The previous `classify`, which read the body into a `serde_json::Value` tree: kept as
//! the oracle the borrowed reader is held to (same outcome for every body and header set).

use serde_json::{Map, Value};

use crate::{
    ErrorObject, HeaderView, JSONRPC_VERSION, RequestId, Response, SUPPORTED_VERSIONS,
    classify::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION},
    headers,
};

/// What the oracle makes of a body: the request's parts, a notification, or the rejection.
#[derive(Debug, PartialEq)]
pub(super) enum Outcome {
    Request { id: RequestId, method: String, params: Map<String, Value>, protocol_version: String },
    Notification(String),
    Rejected(Response),
}

pub(super) fn classify(headers: &HeaderView<'_>, body: &[u8]) -> Outcome {
    match classify_inner(headers, body) {
        Ok(outcome) => outcome,
        Err(response) => Outcome::Rejected(response),
    }
}

struct RequestMeta {
    protocol_version: String,
}

fn classify_inner(headers: &HeaderView<'_>, body: &[u8]) -> Result<Outcome, Response> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|err| Response::err(None, ErrorObject::parse_error(err)))?;
    let Envelope { id, method, params } = envelope(value)?;
    let Some(id) = id else {
        return Ok(Outcome::Notification(method));
    };
    let reject = |error: ErrorObject| Response::err(Some(id.clone()), error);
    let params = params.ok_or_else(|| {
        reject(ErrorObject::invalid_params(format!(
            "params is missing; every request needs params._meta with {META_PROTOCOL_VERSION} \
             (a string) and {META_CLIENT_CAPABILITIES} (an object)"
        )))
    })?;
    let meta = request_meta(&params).map_err(reject)?;
    check_headers(headers, &method, &params, &meta).map_err(reject)?;
    if !SUPPORTED_VERSIONS.contains(&meta.protocol_version.as_str()) {
        return Err(reject(ErrorObject::unsupported_version(&meta.protocol_version)));
    }
    Ok(Outcome::Request { id, method, params, protocol_version: meta.protocol_version })
}

/// A structurally valid JSON-RPC request or notification.
struct Envelope {
    id: Option<RequestId>,
    method: String,
    params: Option<Map<String, Value>>,
}

fn envelope(value: Value) -> Result<Envelope, Response> {
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Err(Response::err(
                None,
                ErrorObject::invalid_request(
                    "batch requests are not supported; send one JSON-RPC object per POST",
                ),
            ));
        }
        other => {
            return Err(Response::err(
                None,
                ErrorObject::invalid_request(format!(
                    "the body must be one JSON-RPC request object, got {}",
                    type_name(&other)
                )),
            ));
        }
    };
    let id = object.get("id").and_then(id_from_value);
    let reject = |error: ErrorObject| Response::err(id.clone(), error);
    if !object.contains_key("method")
        && (object.contains_key("result") || object.contains_key("error"))
    {
        return Err(reject(ErrorObject::invalid_request(
            "the body is a JSON-RPC response; this endpoint accepts only requests and notifications",
        )));
    }
    match object.get("jsonrpc") {
        Some(Value::String(version)) if version == JSONRPC_VERSION => {}
        Some(other) => {
            return Err(reject(ErrorObject::invalid_request(format!(
                "jsonrpc must be \"2.0\", got {}",
                words::clip(&other.to_string())
            ))));
        }
        None => {
            return Err(reject(ErrorObject::invalid_request(
                "jsonrpc is missing; it must be \"2.0\"",
            )));
        }
    }
    let method = match object.get("method") {
        Some(Value::String(method)) => method.clone(),
        Some(other) => {
            return Err(reject(ErrorObject::invalid_request(format!(
                "method must be a string, got {}",
                type_name(other)
            ))));
        }
        None => {
            return Err(reject(ErrorObject::invalid_request(
                "method is missing; it must be a string",
            )));
        }
    };
    if let (Some(raw), None) = (object.get("id"), &id) {
        return Err(reject(ErrorObject::invalid_request(format!(
            "id must be a string of at most {} bytes or an integer, got {}",
            crate::ID_BYTES_MAX,
            words::clip(&raw.to_string())
        ))));
    }
    let params = match object.remove("params") {
        None => None,
        Some(Value::Object(params)) => Some(params),
        Some(other) => {
            return Err(reject(ErrorObject::invalid_params(format!(
                "params must be an object, got {}",
                type_name(&other)
            ))));
        }
    };
    Ok(Envelope { id, method, params })
}

fn request_meta(params: &Map<String, Value>) -> Result<RequestMeta, ErrorObject> {
    let meta = match params.get("_meta") {
        Some(Value::Object(meta)) => meta,
        Some(other) => {
            return Err(ErrorObject::invalid_params(format!(
                "params._meta must be an object, got {}",
                type_name(other)
            )));
        }
        None => {
            return Err(ErrorObject::invalid_params(format!(
                "params._meta is missing; it must be an object with {META_PROTOCOL_VERSION} \
                 (a string) and {META_CLIENT_CAPABILITIES} (an object)"
            )));
        }
    };
    let protocol_version = match meta.get(META_PROTOCOL_VERSION) {
        Some(Value::String(version)) => version.clone(),
        Some(other) => return Err(wrong_meta(META_PROTOCOL_VERSION, "a string", other)),
        None => return Err(missing_meta(META_PROTOCOL_VERSION, "a string such as \"2026-07-28\"")),
    };
    match meta.get(META_CLIENT_CAPABILITIES) {
        Some(Value::Object(_)) => {}
        Some(other) => return Err(wrong_meta(META_CLIENT_CAPABILITIES, "an object", other)),
        None => return Err(missing_meta(META_CLIENT_CAPABILITIES, "an object, {} for none")),
    }
    Ok(RequestMeta { protocol_version })
}

fn missing_meta(key: &str, wanted: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("params._meta is missing {key}; it must be {wanted}"))
}

fn wrong_meta(key: &str, wanted: &str, got: &Value) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "params._meta[{}] must be {wanted}, got {}",
        words::quoted(key),
        type_name(got)
    ))
}

/// Step 5. When `params.name` / `params.uri` is absent or not a string, the `Mcp-Name`
/// check is skipped: the method's own params check answers -32602, which names the problem.
fn check_headers(
    headers: &HeaderView<'_>,
    method: &str,
    params: &Map<String, Value>,
    meta: &RequestMeta,
) -> Result<(), ErrorObject> {
    headers::check_routing(
        headers,
        headers::Routing::ProtocolVersion,
        &meta.protocol_version,
        &format_args!("body params._meta[{}]", words::Quoted(META_PROTOCOL_VERSION)),
    )?;
    headers::check_routing(headers, headers::Routing::Method, method, &"body method")?;
    let name_field = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return Ok(()),
    };
    if let Some(Value::String(expected)) = params.get(name_field) {
        headers::check_routing(
            headers,
            headers::Routing::Name,
            expected,
            &format_args!("body params.{name_field}"),
        )?;
    }
    Ok(())
}

/// The previous `RequestId::from_json`: a string of at most `ID_BYTES_MAX` bytes or an
/// integer is an id.
fn id_from_value(value: &Value) -> Option<RequestId> {
    match value {
        Value::String(s) if s.len() <= crate::ID_BYTES_MAX => Some(RequestId::from(s.as_str())),
        Value::String(_) => None,
        Value::Number(n) => {
            n.as_i64().map(RequestId::from).or_else(|| n.as_u64().map(RequestId::from))
        }
        _ => None,
    }
}

/// The JSON type name of `value`, for "got <type>" in messages.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
