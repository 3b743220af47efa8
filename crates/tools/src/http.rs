//! HTTP details of the MCP endpoint: media-type checks, the JSON-RPC response with its
//! headers, and the public host.

use std::cell::RefCell;

use bytes::Bytes;
use hyper::{
    HeaderMap, Response, StatusCode,
    header::{self, HeaderValue},
};
use jsonrpc::{ErrorObject, HeaderView};
use serve::Body;

#[cfg(test)]
mod tests;

/// `Cache-Control` of discovery and tool-list answers: public, 24 hours.
pub(crate) const CACHE_PUBLIC_DAY: &str = "public, max-age=86400";

/// `MCP-Protocol-Version` as a ready header name (lower case, as HTTP/1 names are
/// case-insensitive), so answers do not parse it each time.
const PROTOCOL_VERSION_HEADER: header::HeaderName =
    header::HeaderName::from_static("mcp-protocol-version");

/// `2026-07-28` as a ready header value.
const MODERN_VERSION_VALUE: HeaderValue = HeaderValue::from_static(jsonrpc::PROTOCOL_VERSION);

/// The JSON-RPC answer as HTTP: status from the error code, `application/json`,
/// `MCP-Protocol-Version`, and `Cache-Control` (`public, max-age=86400` when
/// `cacheable`, else `no-store`).
pub(crate) fn rpc_response(response: &jsonrpc::Response, cacheable: bool) -> Response<Body> {
    let status = StatusCode::from_u16(response.http_status()).unwrap_or(StatusCode::OK);
    let cacheable = cacheable && response.result.is_ok();
    rpc_http(status, response.to_json(), cacheable, jsonrpc::PROTOCOL_VERSION)
}

/// A JSON-RPC response body as HTTP, with the headers of [`rpc_response`];
/// `MCP-Protocol-Version` is `version`, the one the answer was made under.
#[inline(always)]
pub(crate) fn rpc_http(
    status: StatusCode,
    body: Vec<u8>,
    cacheable: bool,
    version: &'static str,
) -> Response<Body> {
    serve::with_prebuilt_headers(
        status,
        Body::new(Bytes::from(body)),
        rpc_headers(cacheable, version),
    )
}

/// The headers of [`rpc_http`]: made once per thread for each `cacheable` and `version`
/// and cloned after (a clone copies the map, where inserting hashes each name again).
#[inline(always)]
fn rpc_headers(cacheable: bool, version: &'static str) -> HeaderMap {
    thread_local! {
        static MADE: RefCell<Vec<(bool, &'static str, HeaderMap)>> =
            const { RefCell::new(Vec::new()) };
    }
    MADE.with_borrow_mut(|made| {
        if let Some((.., headers)) = made.iter().find(|m| m.0 == cacheable && m.1 == version) {
            return headers.clone();
        }
        let mut headers = serve::json_response(StatusCode::OK, Bytes::new()).headers().clone();
        let value = if version == jsonrpc::PROTOCOL_VERSION {
            MODERN_VERSION_VALUE
        } else {
            HeaderValue::from_static(version)
        };
        headers.insert(PROTOCOL_VERSION_HEADER, value);
        if cacheable {
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_PUBLIC_DAY));
        }
        made.push((cacheable, version, headers.clone()));
        headers
    })
}

/// An error answer with `id: null` and an explicit HTTP status (403, 406, 415).
pub(crate) fn rejection(status: StatusCode, error: ErrorObject) -> Response<Body> {
    let mut http = rpc_response(&jsonrpc::Response::err(None, error), false);
    *http.status_mut() = status;
    http
}

/// The `Accept` ranges of a client that can read a JSON answer.
const JSON_ANSWER: [&str; 3] = ["application/json", "application/*", "*/*"];

/// The `Accept` values most clients send, answered without parsing (a test checks that
/// `serve::accepts` accepts them too).
const COMMON_JSON_ACCEPT: [&[u8]; 3] =
    [b"application/json, text/event-stream", b"application/json", b"*/*"];

/// What the MCP endpoint reads of a request's header fields, in one pass that also picks
/// out the MCP routing headers for the JSON-RPC checks.
pub(crate) struct Fields<'h> {
    /// The first `Origin` field.
    pub(crate) origin: Option<&'h HeaderValue>,
    /// Whether the body is declared JSON: a `Content-Type` of `application/json`,
    /// parameters allowed, ASCII case ignored.
    pub(crate) content_is_json: bool,
    /// How many `Accept` fields were sent.
    accept_fields: usize,
    /// Whether one of them is a common JSON `Accept` value ([`COMMON_JSON_ACCEPT`]).
    accept_common: bool,
    /// The MCP routing headers.
    pub(crate) routing: HeaderView<'h>,
}

impl<'h> Fields<'h> {
    /// Reads `headers` once.
    pub(crate) fn read(headers: &'h HeaderMap) -> Fields<'h> {
        let (mut origin, mut content_is_json) = (None, false);
        let (mut accept_fields, mut accept_common) = (0, false);
        let routing = HeaderView::new(headers.iter().map(|(name, value)| {
            if name == header::CONTENT_TYPE {
                let media = value.as_bytes().split(|&b| b == b';').next().unwrap_or_default();
                content_is_json |= media.trim_ascii().eq_ignore_ascii_case(b"application/json");
            } else if name == header::ACCEPT {
                accept_fields += 1;
                accept_common |= COMMON_JSON_ACCEPT.contains(&value.as_bytes());
            } else if name == header::ORIGIN {
                origin.get_or_insert(value);
            }
            (name.as_str(), value.as_bytes())
        }));
        Fields { origin, content_is_json, accept_fields, accept_common, routing }
    }

    /// Whether the client accepts a JSON answer: no `Accept` field accepts anything, a
    /// common value is taken as it is, and any other is read by `serve::accepts` (the
    /// services' one `Accept` reader) from `headers`, the fields this was read from.
    pub(crate) fn accepts_json(&self, headers: &HeaderMap) -> bool {
        self.accept_fields == 0 || self.accept_common || serve::accepts(headers, &JSON_ANSWER)
    }
}

/// The host of `url` (no scheme, user info, port or path), lower case, for
/// `_meta.source`; empty if `url` is not a URI.
pub(crate) fn host_of(url: &str) -> String {
    let uri = url.parse::<hyper::Uri>().ok();
    uri.and_then(|uri| Some(uri.host()?.to_ascii_lowercase())).unwrap_or_default()
}
