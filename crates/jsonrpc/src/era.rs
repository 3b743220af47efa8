//! The two protocol eras on one endpoint: [`classify_any_era`] tells a 2026-07-28
//! (modern, stateless, per-request `_meta`) request from a legacy one (2025-11-25,
//! 2025-06-18, 2025-03-26: the `initialize` handshake), and [`negotiate`] answers a
//! legacy `initialize`.
//!
//! A request is modern when it says so: the `MCP-Protocol-Version` header is
//! `2026-07-28`, or `params._meta` carries an `io.modelcontextprotocol/` envelope key, or
//! the method exists only in that era (`server/discover`, `subscriptions/listen`).
//! Everything else is legacy. The body is read once, as [`classify`] reads it; a modern
//! request then gets exactly the checks [`classify`] makes.

use std::borrow::Cow;

use serde_json::Value;

use crate::{
    ArgumentFilter, ErrorObject, HeaderView, PROTOCOL_VERSION, Params, Request, RequestId,
    Response,
    classify::{self, Envelope},
    envelope::Sent,
    field::type_name,
    headers::{HEADER_PROTOCOL_VERSION, Routing, is_visible_ascii, trim},
};

#[cfg(test)]
mod tests;

/// The legacy revisions, newest first, each written once: the constants below are views of it.
const LEGACY: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];

/// The legacy revisions served, newest first: `initialize` negotiates one of them.
pub const LEGACY_VERSIONS: &[&str] = &LEGACY;

/// What a legacy `initialize` is answered with when it asks for a version not in
/// [`LEGACY_VERSIONS`]: the newest legacy revision.
pub const LEGACY_LATEST: &str = LEGACY[0];

/// The version a legacy HTTP request without `MCP-Protocol-Version` is served under, as
/// the 2025-06-18 and 2025-11-25 transports say ("the server SHOULD assume 2025-03-26").
pub const LEGACY_ASSUMED: &str = LEGACY[LEGACY.len() - 1];

/// Every version this server speaks, both eras, newest first.
pub const ALL_VERSIONS: &[&str] = &[PROTOCOL_VERSION, LEGACY[0], LEGACY[1], LEGACY[2]];
// Every legacy version is in `ALL_VERSIONS`: adding one to `LEGACY` fails here until it is.
const _: () = assert!(ALL_VERSIONS.len() == LEGACY.len() + 1);

/// Methods that exist only in the 2026-07-28 era: without `_meta` they are still modern
/// requests (and get its -32602 for the missing envelope), never legacy ones.
const MODERN_ONLY_METHODS: &[&str] = &["server/discover", "subscriptions/listen"];

/// The transport a message came over: stdio has no header layer, so its modern requests
/// carry everything in `_meta` and no routing header is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// Streamable HTTP: the routing headers are checked.
    Http,
    /// stdio: newline-delimited JSON-RPC, no headers.
    Stdio,
}

/// Which era a message is served in; for legacy, the revision its answer is sent under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28.
    Modern,
    /// A revision of [`LEGACY_VERSIONS`].
    Legacy(&'static str),
}

impl Era {
    /// The protocol version of the era.
    pub fn version(self) -> &'static str {
        match self {
            Era::Modern => PROTOCOL_VERSION,
            Era::Legacy(version) => version,
        }
    }
}

/// A legacy request: no `_meta` envelope, `params` optional.
#[derive(Clone, Debug, PartialEq)]
pub struct LegacyRequest<'a> {
    /// The request id, echoed in the response.
    pub id: RequestId,
    /// The method; dispatching it is the caller's job.
    pub method: Cow<'a, str>,
    /// The params as sent, read into their typed form; `{}` when absent.
    pub params: Params<'a>,
    /// The revision it is served under: the `MCP-Protocol-Version` header's, else
    /// [`LEGACY_ASSUMED`].
    pub version: &'static str,
}

/// What one message turned out to be, in either era.
#[derive(Clone, Debug, PartialEq)]
pub enum Classified<'a> {
    /// A valid 2026-07-28 request, as `classify` returns it.
    Modern(Request<'a>),
    /// A valid legacy request.
    Legacy(LegacyRequest<'a>),
    /// A notification (either era): nothing is answered (HTTP: `202 Accepted`).
    Notification {
        /// The notification method.
        method: String,
    },
    /// An error response to send as is, and the era it is sent under.
    Rejected(Response, Era),
}

/// Classifies one message of either era (see the module documentation for the rule).
///
/// The body is read once: notifications are accepted; a modern request (by the
/// `MCP-Protocol-Version` header, `_meta` or method) gets the 2026-07-28 checks (over HTTP
/// the routing headers included, so a legacy header beside a modern body is -32020); a
/// legacy request over HTTP must name a supported revision in `MCP-Protocol-Version`
/// (absent means [`LEGACY_ASSUMED`]), else 400 -32022 naming [`ALL_VERSIONS`].
pub fn classify_any_era<'a>(
    transport: Transport,
    headers: &HeaderView<'_>,
    body: &'a [u8],
) -> Classified<'a> {
    classify_any_era_inner(transport, headers, body, None)
}

/// [`classify_any_era`], keeping of `params.arguments` only what `filter` says: the
/// members it names, and of the others a count and the first few names
/// ([`crate::LeftOut`]). The answer is the same as without the filter; a request with
/// 100,000 unknown arguments costs their parsing, not 100,000 members held in memory.
pub fn classify_any_era_filtered<'a>(
    transport: Transport,
    headers: &HeaderView<'_>,
    body: &'a [u8],
    filter: ArgumentFilter<'_>,
) -> Classified<'a> {
    classify_any_era_inner(transport, headers, body, Some(filter))
}

fn classify_any_era_inner<'a>(
    transport: Transport,
    headers: &HeaderView<'_>,
    body: &'a [u8],
    filter: Option<ArgumentFilter<'_>>,
) -> Classified<'a> {
    let http = transport == Transport::Http;
    let Envelope { id, method, params } = match classify::read(body, filter) {
        Ok(envelope) => envelope,
        Err(response) => return Classified::Rejected(response, Era::Modern),
    };
    let Some(id) = id else {
        return Classified::Notification { method: method.into_owned() };
    };
    if http && says_2026(headers) || is_modern(&method, params.as_ref()) {
        return match classify::modern(http.then_some(headers), id, method, params) {
            Ok(request) => Classified::Modern(request),
            Err(response) => Classified::Rejected(response, Era::Modern),
        };
    }
    let header = if http { version_header(headers) } else { VersionHeader::Absent };
    let version = match header {
        VersionHeader::Absent => LEGACY_ASSUMED,
        VersionHeader::Value(value) => match LEGACY_VERSIONS.iter().find(|v| **v == value) {
            Some(version) => version,
            None => return unsupported(id, value),
        },
        VersionHeader::Invalid(problem) => {
            let error = ErrorObject::invalid_request(format!(
                "header {HEADER_PROTOCOL_VERSION} {problem}; send one of {}",
                ALL_VERSIONS.join(", ")
            ));
            return Classified::Rejected(
                Response::err(Some(id), error),
                Era::Legacy(LEGACY_LATEST),
            );
        }
    };
    let params = params.unwrap_or_default();
    Classified::Legacy(LegacyRequest { id, method, params, version })
}

fn unsupported(id: RequestId, requested: &str) -> Classified<'static> {
    let error = ErrorObject::unsupported_version_of(requested, ALL_VERSIONS);
    Classified::Rejected(Response::err(Some(id), error), Era::Legacy(LEGACY_LATEST))
}

/// Whether `MCP-Protocol-Version` is sent once, as `2026-07-28`: the hot path's test,
/// on the raw bytes.
fn says_2026(headers: &HeaderView<'_>) -> bool {
    matches!(headers.routing(Routing::ProtocolVersion), (Some(raw), 1) if trim(raw) == PROTOCOL_VERSION.as_bytes())
}

/// Whether a request without the 2026-07-28 header is a modern one all the same.
fn is_modern(method: &str, params: Option<&Params<'_>>) -> bool {
    MODERN_ONLY_METHODS.contains(&method)
        || params.is_some_and(|params| match &params.meta {
            Some(Sent::Object(meta)) => {
                meta.protocol_version.is_some() || meta.client_capabilities.is_some()
            }
            _ => false,
        })
}

/// `MCP-Protocol-Version` as sent.
#[derive(Debug, PartialEq, Eq)]
enum VersionHeader<'h> {
    Absent,
    /// One value, trimmed.
    Value(&'h str),
    /// Sent twice, or not visible ASCII; the text completes "header X …".
    Invalid(String),
}

fn version_header<'h>(headers: &HeaderView<'h>) -> VersionHeader<'h> {
    match headers.routing(Routing::ProtocolVersion) {
        (None, _) => VersionHeader::Absent,
        (Some(_), times @ 2..) => VersionHeader::Invalid(format!("is sent {times} times")),
        (Some(raw), _) => match std::str::from_utf8(trim(raw)) {
            Ok(text) if is_visible_ascii(text.as_bytes()) => VersionHeader::Value(text),
            _ => VersionHeader::Invalid("is not a visible ASCII version string".to_owned()),
        },
    }
}

/// The answer to a legacy `initialize`: the version the client asked for in
/// `params.protocolVersion` when it is one of [`LEGACY_VERSIONS`], else [`LEGACY_LATEST`]
/// (the client disconnects if it cannot use it). A missing or non-string
/// `protocolVersion` is -32602.
pub fn negotiate(params: &Params<'_>) -> Result<&'static str, ErrorObject> {
    match params.get("protocolVersion") {
        Some(Value::String(asked)) => {
            Ok(LEGACY_VERSIONS.iter().find(|v| **v == asked).unwrap_or(&LEGACY_LATEST))
        }
        Some(other) => Err(ErrorObject::invalid_params(format!(
            "initialize params.protocolVersion must be a string such as {}, got {}",
            words::quoted(LEGACY_LATEST),
            type_name(other)
        ))),
        None => Err(ErrorObject::invalid_params(format!(
            "initialize needs params.protocolVersion, a string such as {}; this server \
             negotiates {}",
            words::quoted(LEGACY_LATEST),
            LEGACY_VERSIONS.join(", ")
        ))),
    }
}
