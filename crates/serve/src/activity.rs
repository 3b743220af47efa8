//! The connection's watchdog: a stream wrapper that records when bytes last moved and
//! when the request being received began, and the one timer per connection that closes
//! it when it idles out or a request does not arrive in time.

use std::{
    io,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    time::Instant,
};

/// `receiving` between requests: only the idle limit applies.
const NONE: u64 = u64::MAX;
/// `receiving` once the body's deadline passed: the read answers `408`.
const EXPIRED: u64 = u64::MAX - 1;

/// The watchdog's limits (see [`crate::Limits`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadlines {
    /// No byte moved in either direction for this long: the connection closes.
    pub(crate) idle: Duration,
    /// A request head not whole this long after its first byte (for a connection's first
    /// request, after the connection opened): the connection closes.
    pub(crate) head: Duration,
    /// A request body not whole this long after its head: `408`, and the connection
    /// closes.
    pub(crate) body: Duration,
}

/// Why the watchdog woke its connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expiry {
    /// Nothing moved for [`Deadlines::idle`].
    Idle,
    /// A head took longer than [`Deadlines::head`].
    Head,
    /// A body took longer than [`Deadlines::body`]: the read waiting for it must answer.
    Body,
}

/// When bytes last moved on one connection, and since when a request is being received,
/// both in milliseconds since it was accepted.
///
/// `receiving` packs the request's state in one word, so that the watchdog and the
/// connection never disagree: [`NONE`] between requests, [`EXPIRED`] once a body's time
/// ran out, otherwise the start in milliseconds shifted left by one, with the low bit set
/// while the body (not the head) is due.
pub(crate) struct Activity {
    start: Instant,
    last_millis: AtomicU64,
    receiving: AtomicU64,
}

impl Activity {
    /// A new connection: its first head is due from now.
    pub(crate) fn new() -> Activity {
        Activity {
            start: Instant::now(),
            last_millis: AtomicU64::new(0),
            receiving: AtomicU64::new(0),
        }
    }

    fn touch(&self) -> u64 {
        let millis = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX >> 2);
        self.last_millis.store(millis, Ordering::Relaxed);
        millis
    }

    /// Bytes arrived: between requests they begin the next request's head.
    fn touch_read(&self) {
        let millis = self.touch();
        if self.receiving.load(Ordering::Relaxed) == NONE {
            self.receiving.store(millis << 1, Ordering::Relaxed);
        }
    }

    pub(crate) fn last(&self) -> Instant {
        self.start + Duration::from_millis(self.last_millis.load(Ordering::Relaxed))
    }

    /// The head is whole (the service was called): the body is due from now when
    /// `has_body`, else the request is received.
    pub(crate) fn head_received(&self, has_body: bool) {
        let state = match has_body {
            true => (self.last_millis.load(Ordering::Relaxed) << 1) | 1,
            false => NONE,
        };
        self.receiving.store(state, Ordering::Relaxed);
    }

    /// The body is whole, or refused: no deadline until the next request's first byte.
    pub(crate) fn body_received(&self) {
        self.receiving.store(NONE, Ordering::Relaxed);
    }

    /// Whether the body's time ran out.
    pub(crate) fn body_expired(&self) -> bool {
        self.receiving.load(Ordering::Relaxed) == EXPIRED
    }

    /// Resolves when the connection has idled out, or its request is late. A late body
    /// is marked expired first ([`Activity::body_expired`]), once: after that only the
    /// idle limit applies until the next request.
    ///
    /// The one timer of the connection: it sleeps until the nearest deadline, and at
    /// most the shorter request limit at a time, so that a request that began while it
    /// slept is still caught on time (a request's start is recorded without waking it).
    pub(crate) async fn expiry(&self, limits: Deadlines) -> Expiry {
        let period = limits.head.min(limits.body).max(Duration::from_millis(1));
        loop {
            let now = Instant::now();
            let idle_at = self.last() + limits.idle;
            if now >= idle_at {
                return Expiry::Idle;
            }
            let mut wake = idle_at.min(now + period);
            let state = self.receiving.load(Ordering::Relaxed);
            if state != NONE && state != EXPIRED {
                let body = state & 1 == 1;
                let since = self.start + Duration::from_millis(state >> 1);
                let due = since + if body { limits.body } else { limits.head };
                if now >= due {
                    if !body {
                        return Expiry::Head;
                    }
                    let marked = self.receiving.compare_exchange(
                        state,
                        EXPIRED,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                    if marked.is_ok() {
                        return Expiry::Body;
                    }
                    continue; // The body arrived meanwhile.
                }
                wake = wake.min(due);
            }
            tokio::time::sleep_until(wake).await;
        }
    }
}

/// A stream that touches its [`Activity`] whenever bytes are read or written.
pub(crate) struct Tracked<S> {
    inner: S,
    activity: Arc<Activity>,
}

impl<S> Tracked<S> {
    pub(crate) fn new(inner: S, activity: Arc<Activity>) -> Tracked<S> {
        Tracked { inner, activity }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Tracked<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch_read();
        }
        poll
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Tracked<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        poll
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
