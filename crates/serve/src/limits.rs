//! Resource limits applied by [`crate::serve`] to every connection.

use std::time::Duration;

/// Bounds on what one client (or all of them) may cost the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body accepted, in bytes.
    ///
    /// A declared `Content-Length` above it is refused without reading the body; a
    /// chunked body is read only up to it. Either way the answer is `413` with a JSON
    /// body `{"error":"payload too large","limit_bytes":N}` and the connection closes.
    pub max_body_bytes: usize,
    /// Time a client has to send a complete request head, from its first byte (for a
    /// connection's first request, from the connection's opening); then the connection
    /// closes without an answer.
    ///
    /// It does not run while a keep-alive connection waits for its next request: that
    /// wait is bounded by [`Limits::idle_timeout`] alone.
    pub header_read_timeout: Duration,
    /// Time a client has to send a complete request body once its head is whole.
    ///
    /// A body still incomplete then is answered `408 Request Timeout` (through
    /// [`crate::Handler::refuse_body`]) and the connection closes, however steadily its
    /// bytes trickle in: a body sent a byte at a time cannot hold a connection.
    pub body_read_timeout: Duration,
    /// A connection on which no byte moved in either direction for this long is closed:
    /// the idle keep-alive between requests, and a client that stops reading.
    pub idle_timeout: Duration,
    /// Largest request head (request line and header fields), in bytes.
    ///
    /// A longer head gets `431 Request Header Fields Too Large` and the connection closes
    /// (hyper answers it before any handler runs). A request line longer than this gets
    /// `414`.
    pub max_header_bytes: usize,
    /// Most connections served at once.
    ///
    /// A new client at the cap takes the place of the connection that has sat idle
    /// longest (for at least 250 ms: between requests, or with a head or body stalled),
    /// which is closed; when every connection is busy the newcomer gets
    /// `503 Service Unavailable` with `Retry-After: 1` at once and is closed, instead of
    /// waiting in the backlog.
    pub max_connections: usize,
    /// Most connections one client address may hold at once; `0` for no such cap.
    ///
    /// A connection over it gets `429 Too Many Requests` with `Retry-After: 1` and is
    /// closed; the client's other connections and every other client are unaffected.
    /// Addresses in [`Limits::trusted_proxies`] are exempt, since many clients share them.
    pub max_connections_per_ip: usize,
    /// Reverse proxies whose connections carry many clients: exempt from
    /// [`Limits::max_connections_per_ip`], and the only peers whose `X-Forwarded-For`
    /// names the client for [`Limits::rate_limit_per_ip`].
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Requests per second per client address on the routes a service meters
    /// ([`crate::Handler::is_metered`]); `None` (the default) for no limit.
    ///
    /// Over it a request is read whole and answered `429` with `Retry-After`
    /// ([`crate::Handler::refuse_rate`] shapes the body); other addresses are unaffected.
    pub rate_limit_per_ip: Option<crate::RateLimit>,
    /// How long in-flight requests may take to finish after shutdown begins.
    pub grace: Duration,
}

impl Limits {
    /// The most file descriptors [`crate::serve`] may hold open under these limits: one
    /// per admitted connection, one per refused connection still lingering to be read
    /// (at most 256), the listener, and the connection just accepted. A binary keeps its
    /// open-file limit above this, so that a full server answers `503` instead of failing
    /// to accept.
    pub fn open_files(&self) -> u64 {
        let connections = u64::try_from(self.max_connections.max(1)).unwrap_or(u64::MAX);
        connections.saturating_add(crate::admission::LINGERING_MAX as u64 + 2)
    }
}

impl Default for Limits {
    /// 1 MiB bodies, 32 KiB heads, 10 s to send a head and 10 s more for its body, 60 s
    /// idle (the keep-alive), 1024 connections with at most 256 per client address, 10 s
    /// grace.
    fn default() -> Limits {
        Limits {
            max_body_bytes: 1024 * 1024,
            max_header_bytes: 32 * 1024,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 1024,
            max_connections_per_ip: 256,
            trusted_proxies: Vec::new(),
            rate_limit_per_ip: None,
            grace: Duration::from_secs(10),
        }
    }
}
