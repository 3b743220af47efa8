//! The one HTTP/1.1 server plumbing shared by the feed server and the tool server.
//!
//! [`serve`] owns the accept loop: a connection cap, body and header limits, an idle
//! watchdog, and graceful shutdown bounded by a grace period. A service plugs in as a
//! [`Handler`]: a synchronous, CPU-only function from a fully read [`Request`] to a
//! whole-in-memory response. The rest of the crate is pure helpers over hyper types:
//! conditional GET and gzip for a precomputed [`Representation`], CORS, and
//! the small JSON error responses every service needs.
//!
//! Around the services, what every binary does the same way: [`bind`], whose error names
//! the address; [`ErrorReport`], a fatal error with its causes; and the [`Clock`] type.
//! Signals, the data and its reloads are the launcher's (`bins/launcher`).
//!
//! **Architecture invariant:** this crate knows no route, no service and no data; it
//! never prints or logs. Everything worth reporting is passed to the caller as an [`Event`]
//! through a callback, and the caller (a binary) decides how to write it.
//!
//! Unit tests sit next to each module in `<module>/tests.rs`; socket-level tests are in
//! `tests/it/main.rs`, on `127.0.0.1:0` only.
#![warn(missing_docs)]

mod activity;
mod admission;
mod conditional;
mod connection;
mod cors;
mod encoding;
mod event;
mod limits;
mod process;
mod qvalue;
mod rate;
mod representation;
mod responses;
mod server;
#[cfg(test)]
mod testing;

pub use crate::{
    cors::{cors_any_origin, preflight},
    event::{Cap, Event, Reporting},
    limits::Limits,
    process::{BindError, ErrorReport, bind, is_broken_pipe},
    rate::RateLimit,
    representation::Representation,
    responses::{
        BodyRefusal, accepts, accepts_html, json_response, method_not_allowed, not_found,
        with_prebuilt_headers,
    },
    server::serve,
};

/// The injected clock of a service: only binaries read the real time (they pass
/// `Arc::new(SystemTime::now)`); tests pass a fixed instant. `SystemTime`, not a calendar
/// type: the feed server wants unix seconds, and a calendar conversion per request would
/// cost more than the clock read itself.
pub type Clock = std::sync::Arc<dyn Fn() -> std::time::SystemTime + Send + Sync>;

/// A response body: always whole in memory.
pub type Body = http_body_util::Full<bytes::Bytes>;

/// A request whose body has already been read, bounded by [`Limits::max_body_bytes`].
#[derive(Debug, Clone)]
pub struct Request {
    /// The request method.
    pub method: hyper::Method,
    /// The request target as sent (usually origin-form: path and query).
    pub uri: hyper::Uri,
    /// The request header fields.
    pub headers: hyper::HeaderMap,
    /// The whole request body; empty when none was sent.
    pub body: bytes::Bytes,
    /// The address of the client.
    pub peer: std::net::SocketAddr,
}

impl Request {
    /// A request for `target` (path and query) from `127.0.0.1:1`, with no body and the
    /// header fields `headers` in order, as `(name, value)` pairs; a name may repeat.
    ///
    /// Meant for tests and in-process callers such as benches, which hand a request
    /// straight to a [`Handler`]; the server builds its own from the wire.
    ///
    /// # Panics
    ///
    /// If `target` is not a valid request target, or a header name or value is invalid.
    pub fn new(method: hyper::Method, target: &str, headers: &[(&str, &str)]) -> Request {
        let mut map = hyper::HeaderMap::with_capacity(headers.len());
        for (name, value) in headers {
            let name = hyper::header::HeaderName::from_bytes(name.as_bytes())
                .unwrap_or_else(|_| panic!("invalid header name {name:?}"));
            let value = hyper::header::HeaderValue::from_str(value)
                .unwrap_or_else(|_| panic!("invalid value {value:?} for header {name}"));
            map.append(name, value);
        }
        Request {
            method,
            uri: target.parse().unwrap_or_else(|_| panic!("invalid request target {target:?}")),
            headers: map,
            body: bytes::Bytes::new(),
            peer: ([127, 0, 0, 1], 1).into(),
        }
    }

    /// The same request with `body` as its whole body.
    pub fn with_body(mut self, body: impl Into<bytes::Bytes>) -> Request {
        self.body = body.into();
        self
    }
}

/// A service: a synchronous, CPU-only function from request to response.
///
/// It is called directly on the tokio worker that owns the connection, so it must not
/// block on I/O; our handlers only read an immutable snapshot.
pub trait Handler: Send + Sync + 'static {
    /// Answers one request.
    fn handle(&self, request: Request) -> hyper::Response<Body>;

    /// The answer to a request whose body was refused unread (too large, or malformed):
    /// by default [`BodyRefusal::json_response`]. The plumbing sets the refusal's status
    /// and closes the connection whatever this returns; a service overrides it to answer
    /// in its own error format.
    fn refuse_body(&self, refusal: BodyRefusal) -> hyper::Response<Body> {
        refusal.json_response()
    }

    /// Which of the service's routes `path` (the request path, without the query) is:
    /// its position in the service's own fixed list of routes, `None` for any other path.
    /// Only asked with [`Reporting::metrics`], for [`Event::Answered`]: per-route figures
    /// stay a small, bounded set, never the raw paths clients send. By default `None`.
    fn route(&self, _path: &str) -> Option<usize> {
        None
    }

    /// Whether `request` counts against [`Limits::rate_limit_per_ip`]: by default none
    /// does; a service names its costly routes.
    fn is_metered(&self, _request: &Request) -> bool {
        false
    }

    /// The answer to a metered request over its client's rate: by default
    /// `{"error":"rate limit exceeded","retry_after_secs":N}`. The plumbing sets `429`
    /// and `Retry-After` whatever this returns.
    fn refuse_rate(&self, retry_after_secs: u64) -> hyper::Response<Body> {
        responses::rate_limited_json(retry_after_secs)
    }
}
