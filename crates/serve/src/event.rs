//! Things the server reports to its caller instead of logging them.

use std::{
    fmt,
    net::{IpAddr, SocketAddr},
};

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
        /// The query string, without the `?`, when there is one.
        query: Option<&'a str>,
        /// The response status code.
        status: u16,
        /// The response body's length in bytes (0 for `HEAD` and `304`).
        bytes: u64,
        /// Time from the request head being read to the response being ready.
        micros: u64,
        /// The address the connection came from.
        peer: SocketAddr,
        /// The client: `peer`, or the address a trusted proxy named in `X-Forwarded-For`.
        client: IpAddr,
        /// The `User-Agent` header, when sent as visible ASCII.
        user_agent: Option<&'a str>,
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
            Event::Access {
                method,
                path,
                query,
                status,
                bytes,
                micros,
                client,
                user_agent,
                ..
            } => {
                let query = query.map_or(String::new(), |query| format!("?{query}"));
                let agent = user_agent.unwrap_or("-");
                write!(f, "{client} {method} {path}{query} {status} {bytes}B {micros}us {agent:?}")
            }
        }
    }
}
