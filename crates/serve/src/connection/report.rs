//! What one request reports once answered: [`Event::Answered`] to the metrics and
//! [`Event::Access`] to the access log.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use hyper::{Response, http::request::Parts};
use tokio::time::Instant;

use super::Connection;
use crate::{Body, Event, rate::client_address};

/// What the reports of one request need, from its head to its answer.
pub(super) struct Report {
    /// When the request arrived, when metrics or the access log are on: one clock read
    /// at each end serves both.
    started: Option<Instant>,
    /// The service's route, when metrics are on.
    route: Option<usize>,
    /// The request's head, when the access log is on.
    logged: Option<Logged>,
}

impl Report {
    pub(super) fn new(connection: &Connection, parts: &Parts) -> Report {
        let reporting = connection.reporting;
        Report {
            started: (reporting.metrics || reporting.access_log).then(Instant::now),
            route: match reporting.metrics {
                true => connection.handler.route(parts.uri.path()),
                false => None,
            },
            logged: None,
        }
    }

    /// Keeps what the access log needs of the request's head, before the handler takes
    /// it: the client is the peer unless a trusted proxy forwards for another.
    pub(super) fn keep_head(
        &mut self,
        connection: &Connection,
        parts: &Parts,
        peer: SocketAddr,
        address: &Arc<PeerText>,
    ) {
        let client = client_address(peer.ip(), &parts.headers, &connection.trusted_proxies);
        self.logged = Some(Logged {
            method: parts.method.clone(),
            uri: parts.uri.clone(),
            user_agent: parts.headers.get(hyper::header::USER_AGENT).cloned(),
            forwarded_for: (client != peer.ip()).then(|| client.to_string()),
            peer: Arc::clone(address),
        });
    }

    /// Reports the answer: nothing to do when neither metrics nor the access log are on.
    #[inline(always)]
    pub(super) fn finish(self, connection: &Connection, response: &Response<Body>) {
        let Some(started) = self.started else { return };
        let elapsed = started.elapsed();
        answered(connection, Some(elapsed), self.route, response);
        if let Some(logged) = &self.logged {
            let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
            (connection.events)(&Event::Access {
                method: &logged.method,
                path: logged.uri.path(),
                query: logged.uri.query(),
                status: response.status().as_u16(),
                bytes: hyper::body::Body::size_hint(response.body()).exact().unwrap_or(0),
                micros,
                peer: &logged.peer.address,
                client: logged.forwarded_for.as_deref().unwrap_or(&logged.peer.ip),
                user_agent: logged.user_agent.as_ref().and_then(|agent| agent.to_str().ok()),
            });
        }
    }
}

/// Reports [`Event::Answered`] when metrics are on; `elapsed` is the time since the
/// request arrived.
fn answered(
    connection: &Connection,
    elapsed: Option<Duration>,
    route: Option<usize>,
    response: &Response<Body>,
) {
    if let (true, Some(elapsed)) = (connection.reporting.metrics, elapsed) {
        let status = response.status().as_u16();
        (connection.events)(&Event::Answered { route, status, elapsed });
    }
}

/// What the access report needs of a request, kept before the handler takes it.
struct Logged {
    method: hyper::Method,
    uri: hyper::Uri,
    user_agent: Option<hyper::header::HeaderValue>,
    /// The client a trusted proxy named (`X-Forwarded-For`), when it is not the peer.
    forwarded_for: Option<String>,
    peer: Arc<PeerText>,
}

/// A connection's peer as the access log writes it, written once per connection.
pub(super) struct PeerText {
    /// `ip:port` (`[ip]:port` for IPv6).
    address: String,
    /// The IP alone: the client, unless a trusted proxy names another.
    ip: String,
}

impl PeerText {
    pub(super) fn new(peer: SocketAddr) -> PeerText {
        PeerText { address: peer.to_string(), ip: peer.ip().to_string() }
    }
}
