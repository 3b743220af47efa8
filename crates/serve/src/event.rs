//! Things the server reports to its caller instead of logging them.

use std::{
    fmt,
    net::{IpAddr, SocketAddr},
    time::Duration,
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
        /// Which cap.
        cap: Cap,
        /// Which cap, in words.
        reason: &'static str,
    },
    /// A connection was admitted (only reported with [`Reporting::metrics`]).
    Opened,
    /// An admitted connection closed, however it ended (only reported with
    /// [`Reporting::metrics`]; every [`Event::Opened`] is matched by one).
    Closed,
    /// A metered request was over its client's rate and answered `429`.
    RateLimited {
        /// The client whose rate it was (see [`Event::Access`]'s `client`).
        client: IpAddr,
    },
    /// One request was answered (only reported with [`Reporting::metrics`]): what
    /// per-route figures count.
    Answered {
        /// The route, its position in the service's own list of routes
        /// ([`crate::Handler::route`]); `None` for a path outside them.
        route: Option<usize>,
        /// The response status code.
        status: u16,
        /// Time from the request head being read to the response being ready.
        elapsed: Duration,
    },
    /// A connection ended with an error (bad request head, reset).
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
        /// The address the connection came from, as text (`ip:port`).
        peer: &'a str,
        /// The client's IP as text: `peer`'s, or the address a trusted proxy named in
        /// `X-Forwarded-For`.
        client: &'a str,
        /// The `User-Agent` header, when sent as visible ASCII.
        user_agent: Option<&'a str>,
    },
}

impl fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Listening(addr) => write!(f, "listening on http://{addr}"),
            Event::AcceptFailed(err) => write!(f, "accept failed: {err}"),
            Event::Refused { peer, reason, .. } => write!(f, "refused {peer}: {reason}"),
            Event::Opened => f.write_str("connection opened"),
            Event::Closed => f.write_str("connection closed"),
            Event::RateLimited { client } => write!(f, "rate limited {client}"),
            Event::Answered { route, status, elapsed } => {
                let route =
                    route.map_or("other".to_owned(), |position| format!("route {position}"));
                write!(f, "answered {route} {status} in {}us", elapsed.as_micros())
            }
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

/// The connection cap a refused connection was over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    /// [`crate::Limits::max_connections_per_ip`]: the client's address held its share
    /// (`429`).
    PerAddress,
    /// [`crate::Limits::max_connections`]: every connection was busy (`503`).
    Total,
}

impl Cap {
    /// The cap as a short, stable label: `per_address` or `total`.
    pub fn label(self) -> &'static str {
        match self {
            Cap::PerAddress => "per_address",
            Cap::Total => "total",
        }
    }
}

/// Which of the frequent events (one or more per request or connection) [`crate::serve`]
/// reports; the others (start, refusals, trouble, shutdown) it always reports. Both off
/// by default: then a request costs nothing beyond answering it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reporting {
    /// An [`Event::Access`] for every answered request: the access log.
    pub access_log: bool,
    /// An [`Event::Answered`] for every answered request, and an [`Event::Opened`] and
    /// [`Event::Closed`] for every admitted connection: what metrics count.
    pub metrics: bool,
}
