//! One connection: reading the body within its limits, calling the handler, the
//! watchdog (idle, late head, late body), and reporting.

use std::{
    convert::Infallible,
    net::{IpAddr, SocketAddr},
    pin::{Pin, pin},
    sync::{Arc, atomic::Ordering},
    task::Poll,
    time::Duration,
};

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::{Response, body::Incoming, server::conn::http1, service::service_fn};
use hyper_util::{rt::TokioIo, server::graceful::Watcher};
use tokio::{net::TcpStream, time::Instant};

use crate::{
    Body, Event, Handler, Reporting, Request,
    activity::{Deadlines, Expiry, Tracked},
    admission::{Slot, Ticket},
    rate::{Limiter, client_address},
    responses::{BodyRefusal, bad_host, rate_limited, refused_body},
    server::Events,
};

/// Everything a connection task needs, shared by all of them.
pub(crate) struct Connection {
    pub(crate) http: http1::Builder,
    pub(crate) handler: Arc<dyn Handler>,
    pub(crate) max_body_bytes: usize,
    pub(crate) deadlines: Deadlines,
    pub(crate) events: Events,
    pub(crate) reporting: Reporting,
    pub(crate) limiter: Option<Limiter>,
    pub(crate) trusted_proxies: Vec<IpAddr>,
}

/// Serves one accepted stream until it closes, idles out, is late with a request head,
/// is drained, or is closed to make room for a new client (see [`crate::admission`]).
/// A body late past [`Deadlines::body`] is answered `408` by the read waiting for it.
pub(crate) async fn run(
    connection: Arc<Connection>,
    stream: TcpStream,
    peer: SocketAddr,
    watcher: Watcher,
    ticket: Ticket,
) {
    let _open = connection.reporting.metrics.then(|| Open::new(&connection.events));
    let slot = Arc::clone(&ticket.slot);
    let io = TokioIo::new(Tracked::new(stream, Arc::clone(&slot.activity)));
    let service = {
        let connection = Arc::clone(&connection);
        let slot = Arc::clone(&slot);
        service_fn(move |request| {
            respond(Arc::clone(&connection), Arc::clone(&slot), peer, request)
        })
    };
    let mut conn = pin!(watcher.watch(connection.http.serve_connection(io, service)));
    loop {
        tokio::select! {
            // The connection goes first: after a long handler call the response must be
            // written before the watchdog gets a chance to count that time as idle.
            biased;
            result = &mut conn => {
                if let Err(err) = result {
                    (connection.events)(&Event::ConnectionFailed(&err));
                }
                break;
            }
            expiry = slot.activity.expiry(connection.deadlines) => match expiry {
                // The read waiting for the body answers 408 and the connection closes
                // after it; until then only the idle limit applies.
                Expiry::Body => slot.late.notify_waiters(),
                Expiry::Idle | Expiry::Head => break,
            },
            () = slot.evict.notified() => break,
        }
    }
    drop(ticket);
}

/// Reports [`Event::Opened`] when made and [`Event::Closed`] when dropped: however the
/// connection task ends, even aborted after the grace period.
struct Open(Events);

impl Open {
    fn new(events: &Events) -> Open {
        events(&Event::Opened);
        Open(Arc::clone(events))
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        (self.0)(&Event::Closed);
    }
}

/// Marks its connection busy (answering a request whose body is whole) while it lives,
/// so that it is not closed to make room. A body still arriving does not count: a body
/// stalled for 250 ms makes its connection as evictable as a stalled head. The answer's
/// bytes are still being written when it drops; that keeps the connection's activity
/// fresh, which protects it as well.
struct Busy(Arc<Slot>);

impl Busy {
    fn new(slot: Arc<Slot>) -> Busy {
        slot.busy.fetch_add(1, Ordering::Relaxed);
        Busy(slot)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The hyper service: read the body, call the handler, report the access.
async fn respond(
    connection: Arc<Connection>,
    slot: Arc<Slot>,
    peer: SocketAddr,
    request: hyper::Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let (parts, body) = request.into_parts();
    let has_body = !hyper::body::Body::is_end_stream(&body);
    slot.activity.head_received(has_body);
    let reporting = connection.reporting;
    // One clock read at each end serves both reports; none when neither is on.
    let started = (reporting.metrics || reporting.access_log).then(Instant::now);
    let route = match reporting.metrics {
        true => connection.handler.route(parts.uri.path()),
        false => None,
    };
    let mut hosts = parts.headers.get_all(hyper::header::HOST).iter();
    let (first_host, second_host) = (hosts.next(), hosts.next());
    if second_host.is_some() || (first_host.is_none() && parts.version == hyper::Version::HTTP_11) {
        let response = bad_host(second_host.is_some());
        answered(&connection, started.map(|started| started.elapsed()), route, &response);
        return Ok(response);
    }
    // Only the access log needs the request's head after the handler took it.
    let logged = reporting.access_log.then(|| Logged {
        method: parts.method.clone(),
        uri: parts.uri.clone(),
        user_agent: parts.headers.get(hyper::header::USER_AGENT).cloned(),
        client: client_address(peer.ip(), &parts.headers, &connection.trusted_proxies),
    });
    let read = match has_body {
        true => {
            let deadline = connection.deadlines.body;
            let read = read_body(body, connection.max_body_bytes, &slot, deadline).await;
            slot.activity.body_received();
            read
        }
        false => Ok(Bytes::new()),
    };
    let busy = Busy::new(slot);
    let response = match read {
        Ok(body) => {
            let request = Request {
                method: parts.method,
                uri: parts.uri,
                headers: parts.headers,
                body,
                peer,
            };
            match over_rate(&connection, &request) {
                Some(secs) => rate_limited(connection.handler.refuse_rate(secs), secs),
                None => connection.handler.handle(request),
            }
        }
        Err(refusal) => refused_body(connection.handler.refuse_body(refusal), refusal),
    };
    drop(busy);
    let elapsed = started.map(|started| started.elapsed());
    answered(&connection, elapsed, route, &response);
    if let (Some(logged), Some(elapsed)) = (logged, elapsed) {
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        (connection.events)(&Event::Access {
            method: &logged.method,
            path: logged.uri.path(),
            query: logged.uri.query(),
            status: response.status().as_u16(),
            bytes: hyper::body::Body::size_hint(response.body()).exact().unwrap_or(0),
            micros,
            peer,
            client: logged.client,
            user_agent: logged.user_agent.as_ref().and_then(|agent| agent.to_str().ok()),
        });
    }
    Ok(response)
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
    client: std::net::IpAddr,
}

/// Seconds the client of a metered `request` must wait when it is over its rate.
fn over_rate(connection: &Connection, request: &Request) -> Option<u64> {
    let limiter = connection.limiter.as_ref()?;
    if !connection.handler.is_metered(request) {
        return None;
    }
    let client = client_address(request.peer.ip(), &request.headers, &connection.trusted_proxies);
    let wait = limiter.take(client).err()?;
    (connection.events)(&Event::RateLimited { client });
    Some(wait.as_secs_f64().ceil().max(1.0) as u64)
}

/// Reads the whole body, refusing a declared length over `limit` without reading and
/// never buffering more than `limit` bytes of a body of unknown length; a body still
/// incomplete when the watchdog marks it late is refused as [`BodyRefusal::TimedOut`].
///
/// A frame already received is taken without waiting; only a frame that must be waited
/// for also listens for the watchdog (most bodies arrive with their head and never do).
async fn read_body(
    body: Incoming,
    limit: usize,
    slot: &Slot,
    deadline: Duration,
) -> Result<Bytes, BodyRefusal> {
    let declared = hyper::body::Body::size_hint(&body).lower();
    let declared = match usize::try_from(declared) {
        Ok(declared) if declared <= limit => declared,
        _ => return Err(BodyRefusal::TooLarge { limit_bytes: limit }),
    };
    let mut body = Limited::new(body, limit);
    let mut collected = BytesMut::new();
    let mut late = pin!(slot.late.notified());
    loop {
        let ready = std::future::poll_fn(|cx| {
            match hyper::body::Body::poll_frame(Pin::new(&mut body), cx) {
                Poll::Ready(frame) => Poll::Ready(Some(frame)),
                Poll::Pending => Poll::Ready(None),
            }
        })
        .await;
        let frame = match ready {
            Some(frame) => frame,
            None if slot.activity.body_expired() => return Err(timed_out(deadline)),
            None => tokio::select! {
                biased;
                frame = body.frame() => frame,
                () = &mut late => return Err(timed_out(deadline)),
            },
        };
        let Some(frame) = frame else { break };
        let Ok(data) = frame.map_err(|err| refusal(&*err, limit))?.into_data() else {
            continue; // Trailers carry nothing a handler reads.
        };
        if collected.is_empty() {
            // Most bodies arrive as one chunk: hand it on without copying.
            if hyper::body::Body::is_end_stream(&body) {
                return Ok(data);
            }
            // A body in several chunks: its declared length (at most `limit`) is
            // reserved once, instead of a copy per doubling while it arrives.
            collected.reserve(declared.max(data.len()));
        }
        collected.extend_from_slice(&data);
    }
    Ok(collected.freeze())
}

/// The refusal of a body the watchdog marked late, `deadline` after its head.
fn timed_out(deadline: Duration) -> BodyRefusal {
    BodyRefusal::TimedOut { limit_secs: deadline.as_secs_f64().ceil() as u64 }
}

/// Why reading a body under `limit` failed with `err`.
fn refusal(err: &(dyn std::error::Error + Send + Sync + 'static), limit: usize) -> BodyRefusal {
    if err.downcast_ref::<LengthLimitError>().is_some() {
        BodyRefusal::TooLarge { limit_bytes: limit }
    } else {
        BodyRefusal::Unreadable
    }
}
