//! `classify`: one HTTP POST body plus its headers in, a request, a notification or a
//! ready error response out, checked in the order the MCP 2026-07-28 spec fixes.

use std::borrow::Cow;

use serde_json::Value;

use crate::{
    ArgumentFilter, ErrorObject, Field, ID_BYTES_MAX, JSONRPC_VERSION, Params, RequestId, Response,
    SUPPORTED_VERSIONS,
    envelope::{self, Body, Members, Sent},
    field::AN_OBJECT,
    headers::{self, HeaderView, Routing},
};

#[cfg(test)]
mod tests;

/// `params._meta` key of the protocol version (required, a string).
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `params._meta` key of the client capabilities (required, an object).
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `params._meta` key of the client identity (optional, never required).
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";

/// A request that passed every envelope, header and version check, borrowing from the
/// body it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Request<'a> {
    /// The request id, echoed in the response.
    pub id: RequestId,
    /// The method, borrowed from the body unless it had escapes; dispatching it (and
    /// answering -32601) is the caller's job.
    pub method: Cow<'a, str>,
    /// The params as sent, `_meta` included, read into their typed form.
    pub params: Params<'a>,
    /// The validated `params._meta` envelope.
    pub meta: RequestMeta,
}

/// The MCP per-request `_meta` envelope, checked. The client's capabilities (an object)
/// and identity are read and checked, not kept: no method reads them ([`crate::Meta`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RequestMeta {
    /// `io.modelcontextprotocol/protocolVersion`: the entry of [`SUPPORTED_VERSIONS`] the
    /// client named.
    pub protocol_version: &'static str,
}

/// What one POST body turned out to be.
#[derive(Clone, Debug, PartialEq)]
pub enum Inbound<'a> {
    /// A valid request; the caller dispatches on `method`.
    Request(Request<'a>),
    /// A valid envelope without `id`; the transport answers `202 Accepted` with no body.
    Notification {
        /// The notification method.
        method: String,
    },
    /// An error response to send as is, with status [`Response::http_status`].
    Rejected(Response),
}

/// Classifies one POST `body` and its `headers`. The checks run in this order, and the
/// first failure is answered:
///
/// 1. the body parses as JSON, else -32700 (id `null`);
/// 2. it is a single JSON-RPC 2.0 request object, else -32600: no batch, no response
///    object, `jsonrpc` is `"2.0"`, `method` is a string, `id` (if present) is a string or
///    an integer; a present `params` that is not an object is -32602;
/// 3. without `id` it is a notification, before any `_meta` or header check;
/// 4. `params._meta` holds the protocol version (a string) and client capabilities (an
///    object), else -32602;
/// 5. the `MCP-Protocol-Version`, `Mcp-Method` and (for `tools/call`, `prompts/get`,
///    `resources/read`) `Mcp-Name` headers match the body, else -32020;
/// 6. the protocol version is supported, else -32022.
///
/// Error responses echo the request id once it is known to be valid.
///
/// The body is read once into typed, borrowed parts (`Params`): it accepts exactly what
/// `serde_json::Value` accepts, with the same parse errors.
pub fn classify<'a>(headers: &HeaderView<'_>, body: &'a [u8]) -> Inbound<'a> {
    let Envelope { id, method, params } = match read(body, None) {
        Ok(envelope) => envelope,
        Err(response) => return Inbound::Rejected(response),
    };
    let Some(id) = id else {
        return Inbound::Notification { method: method.into_owned() };
    };
    modern(Some(headers), id, method, params).map_or_else(Inbound::Rejected, Inbound::Request)
}

/// Steps 1 and 2: the body as one JSON-RPC request or notification; `params.arguments`
/// kept as `filter` says (whole without one).
#[inline(always)]
pub(crate) fn read<'a>(
    body: &'a [u8],
    filter: Option<ArgumentFilter<'_>>,
) -> Result<Envelope<'a>, Response> {
    let body = envelope::read(body, filter)
        .map_err(|err| Response::err(None, ErrorObject::parse_error(err)))?;
    envelope(body)
}

/// Steps 4 to 6 for a request (`id` known): the `_meta` envelope, the routing headers
/// (skipped when `headers` is `None`: stdio has no header layer), the version.
#[inline(always)]
pub(crate) fn modern<'a>(
    headers: Option<&HeaderView<'_>>,
    id: RequestId,
    method: Cow<'a, str>,
    params: Option<Params<'a>>,
) -> Result<Request<'a>, Response> {
    let reject = |error: ErrorObject| Response::err(Some(id.clone()), error);
    let params = params.ok_or_else(|| {
        reject(ErrorObject::invalid_params(format!(
            "params is missing; every request needs params._meta with {META_PROTOCOL_VERSION} \
             (a string) and {META_CLIENT_CAPABILITIES} (an object)"
        )))
    })?;
    let meta = request_meta(&params).map_err(reject)?;
    if let Some(headers) = headers {
        check_headers(headers, &method, &params, &meta).map_err(reject)?;
    }
    let Some(&protocol_version) = SUPPORTED_VERSIONS.iter().find(|v| **v == meta.protocol_version)
    else {
        return Err(reject(ErrorObject::unsupported_version(meta.protocol_version)));
    };
    Ok(Request { id, method, params, meta: RequestMeta { protocol_version } })
}

/// `params._meta` as sent, before the version check.
struct RequestMetaSent<'a> {
    protocol_version: &'a str,
}

/// A structurally valid JSON-RPC request or notification.
pub(crate) struct Envelope<'a> {
    pub(crate) id: Option<RequestId>,
    pub(crate) method: Cow<'a, str>,
    pub(crate) params: Option<Params<'a>>,
}

#[inline(always)]
fn envelope(body: Body<'_>) -> Result<Envelope<'_>, Response> {
    let members = match body {
        Body::Object(members) => members,
        Body::Batch => {
            return Err(Response::err(
                None,
                ErrorObject::invalid_request(
                    "batch requests are not supported; send one JSON-RPC object per POST",
                ),
            ));
        }
        Body::Other(type_name) => {
            return Err(Response::err(
                None,
                ErrorObject::invalid_request(format!(
                    "the body must be one JSON-RPC request object, got {type_name}"
                )),
            ));
        }
    };
    let Members { jsonrpc, id: sent_id, method, params, answer } = members;
    let id = sent_id.as_ref().and_then(RequestId::from_json);
    let reject = |error: ErrorObject| Response::err(id.clone(), error);
    if method.is_none() && answer {
        return Err(reject(ErrorObject::invalid_request(
            "the body is a JSON-RPC response; this endpoint accepts only requests and notifications",
        )));
    }
    match &jsonrpc {
        Some(Field::Str(version)) if version == JSONRPC_VERSION => {}
        Some(other) => {
            return Err(reject(ErrorObject::invalid_request(format!(
                "jsonrpc must be \"2.0\", got {}",
                shown(other)
            ))));
        }
        None => {
            return Err(reject(ErrorObject::invalid_request(
                "jsonrpc is missing; it must be \"2.0\"",
            )));
        }
    }
    let method = match method {
        // Borrowed from the body (no copy) unless it had escapes.
        Some(Field::Str(method)) => method,
        Some(other) => {
            return Err(reject(ErrorObject::invalid_request(format!(
                "method must be a string, got {}",
                other.type_name()
            ))));
        }
        None => {
            return Err(reject(ErrorObject::invalid_request(
                "method is missing; it must be a string",
            )));
        }
    };
    if let (Some(raw), None) = (&sent_id, &id) {
        return Err(reject(ErrorObject::invalid_request(format!(
            "id must be a string of at most {ID_BYTES_MAX} bytes or an integer, got {}",
            shown(raw)
        ))));
    }
    let params = match params {
        None => None,
        Some(Sent::Object(params)) => Some(params),
        Some(Sent::Other(other)) => {
            return Err(reject(ErrorObject::invalid_params(format!(
                "params must be an object, got {}",
                other.type_name()
            ))));
        }
    };
    Ok(Envelope { id, method, params })
}

/// A value sent by the client as it appears in a message: its JSON text, cut by
/// [`words::clip`] so that no input makes an error large.
fn shown(value: &Field<'_>) -> String {
    words::clip(&value.to_string()).into_owned()
}

#[inline(always)]
fn request_meta<'p>(params: &'p Params<'_>) -> Result<RequestMetaSent<'p>, ErrorObject> {
    let meta = match &params.meta {
        Some(Sent::Object(meta)) => meta,
        Some(Sent::Other(other)) => {
            return Err(ErrorObject::invalid_params(format!(
                "params._meta must be an object, got {}",
                other.type_name()
            )));
        }
        None => {
            return Err(ErrorObject::invalid_params(format!(
                "params._meta is missing; it must be an object with {META_PROTOCOL_VERSION} \
                 (a string) and {META_CLIENT_CAPABILITIES} (an object)"
            )));
        }
    };
    let protocol_version = match &meta.protocol_version {
        Some(Field::Str(version)) => version.as_ref(),
        Some(other) => {
            return Err(wrong_meta(META_PROTOCOL_VERSION, "a string", other.type_name()));
        }
        None => return Err(missing_meta(META_PROTOCOL_VERSION, "a string such as \"2026-07-28\"")),
    };
    match meta.client_capabilities {
        Some(AN_OBJECT) => {}
        Some(other) => return Err(wrong_meta(META_CLIENT_CAPABILITIES, AN_OBJECT, other)),
        None => return Err(missing_meta(META_CLIENT_CAPABILITIES, "an object, {} for none")),
    }
    Ok(RequestMetaSent { protocol_version })
}

fn missing_meta(key: &str, wanted: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("params._meta is missing {key}; it must be {wanted}"))
}

/// `got` is the JSON type name of what was sent.
fn wrong_meta(key: &str, wanted: &str, got: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "params._meta[{}] must be {wanted}, got {got}",
        words::quoted(key)
    ))
}

/// Step 5. When `params.name` / `params.uri` is absent or not a string, the `Mcp-Name`
/// check is skipped: the method's own params check answers -32602, which names the problem.
#[inline(always)]
fn check_headers(
    headers: &HeaderView<'_>,
    method: &str,
    params: &Params<'_>,
    meta: &RequestMetaSent<'_>,
) -> Result<(), ErrorObject> {
    headers::check_routing(
        headers,
        Routing::ProtocolVersion,
        meta.protocol_version,
        &format_args!("body params._meta[{}]", words::Quoted(META_PROTOCOL_VERSION)),
    )?;
    headers::check_routing(headers, Routing::Method, method, &"body method")?;
    let (name_field, sent) = match method {
        "tools/call" | "prompts/get" => ("name", params.name.as_ref().and_then(Field::as_str)),
        "resources/read" => ("uri", params.get("uri").and_then(Value::as_str)),
        _ => return Ok(()),
    };
    if let Some(expected) = sent {
        headers::check_routing(
            headers,
            Routing::Name,
            expected,
            &format_args!("body params.{name_field}"),
        )?;
    }
    Ok(())
}
