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
    /// Time a client has to send a complete request head.
    ///
    /// hyper's timer also runs while a keep-alive connection waits for its next
    /// request, so between requests a connection lives at most
    /// `min(header_read_timeout, idle_timeout)`.
    pub header_read_timeout: Duration,
    /// A connection on which no byte moved in either direction for this long is closed.
    ///
    /// This also catches a stalled request body and a client that stops reading.
    pub idle_timeout: Duration,
    /// Most connections served at once.
    ///
    /// At the cap the server stops accepting until a connection ends: new clients wait
    /// in the kernel's listen backlog rather than getting a `503`. Waiting is the better
    /// failure for our clients (feed pollers and tool callers retry on slowness anyway)
    /// and costs nothing per waiting client.
    pub max_connections: usize,
    /// How long in-flight requests may take to finish after shutdown begins.
    pub grace: Duration,
}

impl Default for Limits {
    /// 1 MiB bodies, 10 s to send a head, 60 s idle, 1024 connections, 10 s grace.
    fn default() -> Limits {
        Limits {
            max_body_bytes: 1024 * 1024,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 1024,
            grace: Duration::from_secs(10),
        }
    }
}
