//! Things the server reports to its caller instead of logging them.

use std::{fmt, net::SocketAddr};

use hyper::Method;

/// Something worth reporting; the caller decides where (if anywhere) it goes.
///
/// `Display` renders one line without a trailing newline, e.g.
/// `listening on http://127.0.0.1:8080`.
#[derive(Debug)]
pub enum Event<'a> {
    /// The server is accepting connections on this address.
    Listening(SocketAddr),
    /// `accept` failed (for example, out of file descriptors); the loop backs off.
    AcceptFailed(&'a std::io::Error),
    /// A new connection was refused over a connection cap (answered `429` or `503`).
    Refused {
        /// The client address.
        peer: SocketAddr,
        /// Which cap, in words.
        reason: &'static str,
    },
    /// A connection ended with an error (bad request head, reset, header timeout).
    ConnectionFailed(&'a hyper::Error),
    /// The shutdown future completed; the listener is closed and draining begins.
    ShutdownBegun,
    /// Every connection finished within the grace period.
    Drained,
    /// The grace period ran out; remaining connections were dropped.
    DrainTimedOut,
    /// One request was answered (only reported when access logging is on).
    Access {
        /// The request method.
        method: &'a Method,
        /// The request path, without the query.
        path: &'a str,
        /// The response status code.
        status: u16,
        /// Time from the request head being read to the response being ready.
        micros: u64,
        /// The client address.
        peer: SocketAddr,
    },
}

impl fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Listening(addr) => write!(f, "listening on http://{addr}"),
            Event::AcceptFailed(err) => write!(f, "accept failed: {err}"),
            Event::Refused { peer, reason } => write!(f, "refused {peer}: {reason}"),
            Event::ConnectionFailed(err) => write!(f, "connection failed: {err}"),
            Event::ShutdownBegun => f.write_str("shutdown begun: no longer accepting"),
            Event::Drained => f.write_str("drained: all connections closed"),
            Event::DrainTimedOut => f.write_str("drain timed out: dropping open connections"),
            Event::Access { method, path, status, micros, peer } => {
                write!(f, "{peer} {method} {path} {status} {micros}us")
            }
        }
    }
}
