//! The accept loop: connection cap, accept back-off, and bounded graceful shutdown.

use std::{future::Future, pin::pin, sync::Arc, time::Duration};

use hyper::server::conn::http1;
use tokio::{net::TcpListener, task::JoinSet};

use crate::{
    Event, Handler, Limits, Reporting,
    activity::Deadlines,
    admission::Admission,
    connection::{self, Connection},
    rate::Limiter,
};

/// First pause after a failed `accept`; doubled on each further failure.
const ACCEPT_BACKOFF_START: Duration = Duration::from_millis(10);
/// Longest pause after a failed `accept`.
const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// The caller's event sink, shared by every connection task.
pub(crate) type Events = Arc<dyn Fn(&Event<'_>) + Send + Sync>;

/// Serves HTTP/1.1 on `listener` until `shutdown` completes, then drains.
///
/// Each accepted connection runs on its own task. When `shutdown` completes the
/// listener is dropped (no new connections), idle keep-alive connections are closed,
/// and requests in flight get at most `limits.grace` to finish; connections still open
/// after that are dropped. `serve` returns once draining is over.
///
/// Accept errors are reported as [`Event::AcceptFailed`] and followed by an
/// exponential back-off (10 ms up to 1 s); they are never fatal. `reporting` says which
/// of the per-request and per-connection events are reported ([`Reporting`]).
///
/// Every connection is admitted against `limits.max_connections` (a cap of `0` is
/// treated as `1`) and `limits.max_connections_per_ip` first (see [`Limits`]): over a
/// cap the client gets a `429` or `503` at once and the connection closes, reported as
/// [`Event::Refused`].
pub async fn serve(
    listener: TcpListener,
    handler: Arc<dyn Handler>,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
    events: impl Fn(&Event<'_>) + Send + Sync + 'static,
    reporting: Reporting,
) {
    let events: Events = Arc::new(events);
    if let Ok(addr) = listener.local_addr() {
        events(&Event::Listening(addr));
    }

    let mut http = http1::Builder::new();
    // Read buffers stop at 64 KiB (hyper's default grows them to ~400 KiB). hyper's head
    // timer would also run between keep-alive requests: the watchdog keeps the deadlines
    // instead (`Deadlines`). Half-closed clients are answered (docs/performance.md).
    http.half_close(true)
        .header_read_timeout(None)
        .max_header_size(limits.max_header_bytes)
        .max_buf_size(64 * 1024);
    let connection = Arc::new(Connection {
        http,
        handler,
        max_body_bytes: limits.max_body_bytes,
        deadlines: Deadlines {
            idle: limits.idle_timeout,
            head: limits.header_read_timeout,
            body: limits.body_read_timeout,
        },
        events: Arc::clone(&events),
        reporting,
        limiter: limits.rate_limit_per_ip.map(Limiter::new),
        trusted_proxies: limits.trusted_proxies.clone(),
    });

    let admission = Arc::new(Admission::new(
        limits.max_connections,
        limits.max_connections_per_ip,
        limits.trusted_proxies.clone(),
    ));
    let mut tasks = JoinSet::new();
    let mut shutdown = pin!(shutdown);
    let mut backoff = ACCEPT_BACKOFF_START;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            // A finished connection's task is freed at once, not at the next accept: a
            // burst of connections that all closed would otherwise stay allocated until
            // the next client arrives.
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            () = &mut shutdown => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                backoff = ACCEPT_BACKOFF_START;
                let ticket = match admission.admit(peer.ip()) {
                    Ok(ticket) => ticket,
                    Err(refusal) => {
                        let (cap, reason) = (refusal.cap(), refusal.reason());
                        events(&Event::Refused { peer, cap, reason });
                        admission.refuse(stream, refusal);
                        continue;
                    }
                };
                tasks.spawn(connection::run(Arc::clone(&connection), stream, peer, ticket));
            }
            Err(err) => {
                events(&Event::AcceptFailed(&err));
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    () = &mut shutdown => break,
                }
                backoff = (backoff * 2).min(ACCEPT_BACKOFF_MAX);
            }
        }
    }

    drop(listener);
    events(&Event::ShutdownBegun);
    admission.drain();
    let drained = async { while tasks.join_next().await.is_some() {} };
    match tokio::time::timeout(limits.grace, drained).await {
        Ok(()) => events(&Event::Drained),
        Err(_elapsed) => events(&Event::DrainTimedOut),
    }
    // Anything still running outlived the grace period: abort it.
    tasks.shutdown().await;
}
