//! One connection: reading the body within its limits, calling the handler, the
//! watchdog (idle, late head, late body), and reporting.

use std::{
    convert::Infallible,
    net::{IpAddr, SocketAddr},
    pin::{Pin, pin},
    sync::{Arc, atomic::Ordering},
    task::{Context, Poll, Waker},
    time::Duration,
};

use bytes::{Bytes, BytesMut};
use http_body_util::{LengthLimitError, Limited};
use hyper::{
    Response, body::Incoming, http::request::Parts, server::conn::http1, service::service_fn,
};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use self::{
    in_place::InPlace,
    report::{PeerText, Report},
};
use crate::{
    Body, Event, Handler, Reporting, Request,
    activity::{Deadlines, Expiry, Tracked},
    admission::{Slot, Ticket},
    rate::{Limiter, client_address},
    responses::{BodyRefusal, bad_host, rate_limited, refused_body},
    server::Events,
};

mod in_place;
mod report;

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
/// is drained ([`Slot::DRAIN`]), or is closed to make room for a new client
/// ([`Slot::EVICT`], see [`crate::admission`]). A body late past [`Deadlines::body`] is
/// answered `408` by the read waiting for it.
///
/// A wake-up polls the connection, then stamps what moved, then looks at the notices;
/// the watchdog's timer is polled only when it fired ([`Slot::DUE`]).
pub(crate) async fn run(
    connection: Arc<Connection>,
    stream: TcpStream,
    peer: SocketAddr,
    ticket: Ticket,
) {
    let _open = connection.reporting.metrics.then(|| Open::new(&connection.events));
    let slot = Arc::clone(&ticket.slot);
    let io = TokioIo::new(Tracked::new(stream, Arc::clone(&slot.activity)));
    let service = {
        let (connection, slot) = (Arc::clone(&connection), Arc::clone(&slot));
        // Written once per connection, not per logged request.
        let address = connection.reporting.access_log.then(|| Arc::new(PeerText::new(peer)));
        service_fn(move |request| respond(&connection, &slot, peer, address.as_ref(), request))
    };
    let mut conn = pin!(connection.http.serve_connection(io, service));
    let mut expiry = pin!(slot.activity.expiry(connection.deadlines));
    let timer = Waker::from(Arc::clone(&slot));
    let (in_place, polled_with) = InPlace::waker(Arc::clone(&slot));
    let (mut registered, mut draining, mut rearm) = (None::<Waker>, false, false);
    let ended = std::future::poll_fn(|cx| {
        loop {
            // Registered before anything is polled: the connection's and the timer's
            // wakers wake the task through the slot.
            if !registered.as_ref().is_some_and(|waker| waker.will_wake(cx.waker())) {
                slot.register(cx.waker());
                registered = Some(cx.waker().clone());
            }
            // The connection goes first: after a long handler call the response is written
            // and stamped before the watchdog looks at the time.
            if let Poll::Ready(result) = in_place.poll(conn.as_mut(), &polled_with) {
                return Poll::Ready(Some(result));
            }
            slot.activity.stamp();
            let notices = slot.notices();
            if notices & Slot::EVICT != 0 {
                return Poll::Ready(None);
            }
            if notices & Slot::DRAIN != 0 && !draining {
                draining = true;
                conn.as_mut().graceful_shutdown();
                continue;
            }
            if notices & Slot::DUE == 0 && !std::mem::take(&mut rearm) {
                return Poll::Pending;
            }
            match expiry.as_mut().poll(&mut Context::from_waker(&timer)) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Expiry::Idle | Expiry::Head) => return Poll::Ready(None),
                // The read waiting for the body answers 408 once polled again, and the
                // connection closes after it; until then only the idle limit applies.
                Poll::Ready(Expiry::Body) => {
                    expiry.set(slot.activity.expiry(connection.deadlines));
                    rearm = true;
                }
            }
        }
    })
    .await;
    if let Some(Err(err)) = ended {
        (connection.events)(&Event::ConnectionFailed(&err));
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
struct Busy<'a>(&'a Slot);

impl Busy<'_> {
    fn new(slot: &Slot) -> Busy<'_> {
        slot.busy.fetch_add(1, Ordering::Relaxed);
        Busy(slot)
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What is left of a request once hyper has handed it over.
#[expect(clippy::large_enum_variant, reason = "one per request; a box would allocate")]
enum Pending {
    /// Answered already: the request had no body.
    Answered(Response<Body>),
    /// Its body is to be read first.
    Body {
        connection: Arc<Connection>,
        slot: Arc<Slot>,
        parts: Parts,
        body: Incoming,
        report: Report,
    },
}

/// The hyper service: call the handler, report the access. A request without a body is
/// answered at once, as hyper hands it over, so that nothing holds the read buffer its
/// head came in by the time hyper reads on (hyper would otherwise take a new buffer for
/// every request); a request with a body is answered once the body is read.
fn respond(
    connection: &Arc<Connection>,
    slot: &Arc<Slot>,
    peer: SocketAddr,
    address: Option<&Arc<PeerText>>,
    request: hyper::Request<Incoming>,
) -> impl Future<Output = Result<Response<Body>, Infallible>> + use<> {
    let (parts, body) = request.into_parts();
    let has_body = !hyper::body::Body::is_end_stream(&body);
    slot.activity.head_received(has_body);
    let mut report = Report::new(connection, &parts);
    let hosts = host_lines(&parts.headers);
    let pending = if hosts > 1 || (hosts == 0 && parts.version == hyper::Version::HTTP_11) {
        let response = bad_host(hosts > 1);
        report.finish(connection, &response);
        Pending::Answered(response)
    } else {
        // Only the access log needs the request's head after the handler took it.
        if let Some(address) = address {
            report.keep_head(connection, &parts, peer, address);
        }
        match has_body {
            false => {
                let response = answer(connection, slot, parts, Bytes::new(), peer);
                report.finish(connection, &response);
                Pending::Answered(response)
            }
            true => Pending::Body {
                connection: Arc::clone(connection),
                slot: Arc::clone(slot),
                parts,
                body,
                report,
            },
        }
    };
    async move {
        Ok(match pending {
            Pending::Answered(response) => response,
            Pending::Body { connection, slot, parts, body, report } => {
                let deadline = connection.deadlines.body;
                let read = read_body(body, connection.max_body_bytes, &slot, deadline).await;
                slot.activity.body_received();
                let response = match read {
                    Ok(body) => answer(&connection, &slot, parts, body, peer),
                    Err(refusal) => {
                        let _busy = Busy::new(&slot);
                        refused_body(connection.handler.refuse_body(refusal), refusal)
                    }
                };
                report.finish(&connection, &response);
                response
            }
        })
    }
}

/// How many `Host` field lines `headers` holds, up to 2. A request carries a few fields:
/// a look at each name costs less than hashing `Host` for a look-up, which is left for a
/// request that repeats some field.
fn host_lines(headers: &hyper::HeaderMap) -> usize {
    if !headers.keys().any(|name| name == hyper::header::HOST) {
        return 0;
    }
    match headers.len() == headers.keys_len() {
        true => 1,
        false => headers.get_all(hyper::header::HOST).iter().take(2).count(),
    }
}

/// Calls the handler on a request whose body is whole (or refuses it over its rate).
fn answer(
    connection: &Connection,
    slot: &Slot,
    parts: Parts,
    body: Bytes,
    peer: SocketAddr,
) -> Response<Body> {
    let _busy = Busy::new(slot);
    let request =
        Request { method: parts.method, uri: parts.uri, headers: parts.headers, body, peer };
    match over_rate(connection, &request) {
        Some(secs) => rate_limited(connection.handler.refuse_rate(secs), secs),
        None => connection.handler.handle(request),
    }
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
/// incomplete when the watchdog marks it late is refused as [`BodyRefusal::TimedOut`]
/// (the watchdog wakes the connection task, which polls this read again).
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
    loop {
        let frame = std::future::poll_fn(|cx| {
            match hyper::body::Body::poll_frame(Pin::new(&mut body), cx) {
                Poll::Ready(frame) => Poll::Ready(Ok(frame)),
                Poll::Pending if slot.activity.body_expired() => Poll::Ready(Err(())),
                Poll::Pending => Poll::Pending,
            }
        })
        .await
        .map_err(|()| timed_out(deadline))?;
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
