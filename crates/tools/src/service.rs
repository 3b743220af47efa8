//! [`ToolService`]: the routes of the tool server over one [`serve::Request`].

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex, PoisonError},
};

use bytes::Bytes;
use datasets::Snapshot;
use hyper::{
    Method, Response, StatusCode,
    header::{self, HeaderValue},
};
use jsonrpc::{ErrorObject, Transport};
use serve::{Body, BodyRefusal, Handler, Request};

use crate::{
    Config,
    docs_page::Docs,
    http, manifest,
    mcp::{Mcp, Reply},
    memo::LastBuilt,
    origin::origin_allowed,
};

#[cfg(test)]
mod tests;

/// JSON-RPC code of a request refused over the rate limit (implementation-defined
/// server error range).
pub(crate) const RATE_LIMITED: i32 = -32000;
/// Headers a browser client may send to the MCP endpoint.
const ALLOW_HEADERS: &str = "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name";

/// The paths the tool server answers, as its per-route metrics label them
/// ([`serve::Handler::route`]); any other path counts as `other`.
pub const ROUTES: [&str; 5] = ["/", "/.well-known/mcp.json", "/server-card", "/health", "/docs"];

/// The tool server as a [`serve::Handler`]. Cheap to share; holds no per-client state.
pub struct ToolService {
    mcp: Mcp,
    endpoint: String,
    docs_url: String,
    docs: Docs,
    allowed_origins: Vec<String>,
    /// The manifest of the live snapshot, written once per snapshot (its endpoint and
    /// links are this service's, so it is kept here, not per thread; a rare path, locked).
    manifest: Mutex<LastBuilt<Snapshot, Bytes>>,
}

/// Builds the service for `config`; `local` is the listen address, used for the default
/// endpoint `http://<local>/`.
pub fn handler(config: &Config, local: SocketAddr) -> ToolService {
    let endpoint = config.public_url.clone().unwrap_or_else(|| format!("http://{local}/"));
    let docs_url =
        config.docs_url.clone().unwrap_or_else(|| format!("{}docs", with_slash(&endpoint)));
    let docs = Docs::new(&endpoint, config.links.feed_url());
    let mcp = Mcp::new(
        Arc::clone(&config.live),
        config.links.clone(),
        Arc::clone(&config.clock),
        http::host_of(&endpoint),
    )
    .with_tool_call_hook(config.on_tool_call.clone());
    ToolService {
        mcp,
        endpoint,
        docs,
        docs_url,
        allowed_origins: config.allowed_origins.clone(),
        manifest: Mutex::new(LastBuilt::new()),
    }
}

fn with_slash(url: &str) -> String {
    if url.ends_with('/') { url.to_owned() } else { format!("{url}/") }
}

impl Handler for ToolService {
    fn handle(&self, request: Request) -> Response<Body> {
        match request.uri.path() {
            "/" => self.endpoint(&request),
            "/.well-known/mcp.json" => {
                self.document(&request, self.manifest(), "application/json", true)
            }
            "/server-card" => {
                self.document(&request, self.manifest(), "application/mcp-server-card+json", true)
            }
            "/health" => {
                let body = Bytes::from(manifest::health(self.mcp.live()).to_string());
                self.document(&request, body, "application/json", false)
            }
            "/docs" => {
                let (body, kind) = self.docs.pick(&request.headers);
                let mut response = self.document(&request, body, kind, true);
                Docs::finish(&mut response);
                response
            }
            path => serve::not_found(path),
        }
    }

    fn route(&self, path: &str) -> Option<usize> {
        ROUTES.iter().position(|route| *route == path)
    }

    /// `POST /` (JSON-RPC) is what a rate limit meters; the documents are static.
    fn is_metered(&self, request: &Request) -> bool {
        request.method == Method::POST && request.uri.path() == "/"
    }

    /// Over the rate: a JSON-RPC error (id null, -32000) saying when to come back; the
    /// plumbing sets 429 and `Retry-After`.
    fn refuse_rate(&self, retry_after_secs: u64) -> Response<Body> {
        let mut error = ErrorObject::new(
            jsonrpc::ErrorCode(RATE_LIMITED),
            format!("rate limit exceeded for your address; retry after {retry_after_secs} s"),
        );
        error.data = Some(serde_json::json!({ "retryAfterSecs": retry_after_secs }));
        http::rejection(StatusCode::TOO_MANY_REQUESTS, error)
    }

    /// A body refused unread gets a JSON-RPC error (id null, -32600) like every other
    /// refusal here, so that MCP clients show why; the status stays 413, 400 or 408.
    fn refuse_body(&self, refusal: BodyRefusal) -> Response<Body> {
        let mut error = ErrorObject::invalid_request(refusal.message());
        error.data = match refusal {
            BodyRefusal::TooLarge { limit_bytes } => {
                Some(serde_json::json!({ "limitBytes": limit_bytes }))
            }
            BodyRefusal::TimedOut { limit_secs } => {
                Some(serde_json::json!({ "limitSecs": limit_secs }))
            }
            BodyRefusal::Unreadable => None,
        };
        http::rejection(refusal.status(), error)
    }
}

impl ToolService {
    /// The advertised MCP endpoint URL.
    pub fn endpoint_url(&self) -> &str {
        &self.endpoint
    }

    /// The manifest, with the tools' schemas of the live snapshot.
    fn manifest(&self) -> Bytes {
        let history = self.mcp.live().history();
        let live = history.live();
        let kept = self.manifest.lock().unwrap_or_else(PoisonError::into_inner);
        kept.get(live, || {
            Bytes::from(manifest::manifest(&self.endpoint, &self.docs_url, live).to_string())
        })
    }

    /// GET documents: public, readable from any origin.
    fn document(
        &self,
        request: &Request,
        body: Bytes,
        kind: &'static str,
        cache: bool,
    ) -> Response<Body> {
        if request.method == Method::OPTIONS {
            return serve::preflight(request, "GET, HEAD, OPTIONS", "Accept", 86_400);
        }
        if request.method != Method::GET && request.method != Method::HEAD {
            return serve::method_not_allowed("GET, HEAD, OPTIONS");
        }
        let mut response = serve::json_response(StatusCode::OK, body);
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
        if cache {
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(http::CACHE_PUBLIC_DAY));
        }
        response
    }

    /// `/`: the Origin check, then OPTIONS, the browser redirect, 405s and JSON-RPC.
    fn endpoint(&self, request: &Request) -> Response<Body> {
        let fields = http::Fields::read(&request.headers);
        let origin = fields.origin.cloned();
        if let Some(origin) = &origin {
            let text = String::from_utf8_lossy(origin.as_bytes());
            if !origin_allowed(&text, &self.allowed_origins) {
                return http::rejection(
                    StatusCode::FORBIDDEN,
                    ErrorObject::invalid_request(format!(
                        "origin {} is not allowed; this endpoint accepts loopback origins{}",
                        words::quoted(&text),
                        if self.allowed_origins.is_empty() {
                            String::new()
                        } else {
                            format!(" and {}", self.allowed_origins.join(", "))
                        }
                    )),
                );
            }
        }
        let mut response = match request.method {
            Method::POST => self.post(request, &fields),
            Method::OPTIONS => {
                return serve::preflight(request, "POST, OPTIONS", ALLOW_HEADERS, 86_400);
            }
            Method::GET | Method::HEAD if serve::accepts_html(&request.headers) => {
                redirect(&self.docs_url)
            }
            _ => serve::method_not_allowed("POST"),
        };
        if let Some(origin) = origin {
            let headers = response.headers_mut();
            headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            headers.insert(header::VARY, HeaderValue::from_static("Origin"));
            headers.insert(
                header::ACCESS_CONTROL_EXPOSE_HEADERS,
                HeaderValue::from_static("MCP-Protocol-Version"),
            );
        }
        response
    }

    fn post(&self, request: &Request, fields: &http::Fields<'_>) -> Response<Body> {
        if !fields.content_is_json {
            return http::rejection(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorObject::invalid_request("Content-Type must be application/json"),
            );
        }
        if !fields.accepts_json(&request.headers) {
            return http::rejection(
                StatusCode::NOT_ACCEPTABLE,
                ErrorObject::invalid_request(
                    "Accept must allow application/json (send \"application/json, text/event-stream\")",
                ),
            );
        }
        match self.mcp.answer(Transport::Http, &fields.routing, &request.body) {
            Reply::Accepted => {
                let mut response = Response::new(Body::default());
                *response.status_mut() = StatusCode::ACCEPTED;
                response
            }
            Reply::Message(message) => {
                let status = StatusCode::from_u16(message.status).unwrap_or(StatusCode::OK);
                http::rpc_http(status, message.body, message.cacheable, message.version)
            }
        }
    }

    /// The transport-free service this endpoint answers through.
    pub fn mcp(&self) -> &Mcp {
        &self.mcp
    }
}

fn redirect(location: &str) -> Response<Body> {
    let mut response = Response::new(Body::default());
    *response.status_mut() = StatusCode::FOUND;
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
