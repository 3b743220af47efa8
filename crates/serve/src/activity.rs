//! The connection's watchdog: a stream wrapper that records that bytes moved and that a
//! request began, the connection task's stamp of when (one clock read per wake-up that
//! moved bytes, none per socket operation), and the one timer per connection that closes
//! it when it idles out or a request does not arrive in time.

use std::{
    io,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
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
/// `receiving` once a head's first bytes arrived, until [`Activity::stamp`] records when.
const HEAD_BEGUN: u64 = u64::MAX - 2;
/// `receiving` once a head is whole and its body due, until [`Activity::stamp`] records when.
const BODY_BEGUN: u64 = u64::MAX - 3;

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
/// `receiving` packs the request's state in one word: [`NONE`] between requests,
/// [`EXPIRED`] once a body's time ran out, [`HEAD_BEGUN`] or [`BODY_BEGUN`] until the
/// next stamp, otherwise the start in milliseconds shifted left by one, with the low bit
/// set while the body (not the head) is due. Only the connection task writes it (the
/// stream, the body's read and the watchdog all run in it); the cap bookkeeping reads
/// `last_millis` from other threads.
pub(crate) struct Activity {
    start: Instant,
    last_millis: AtomicU64,
    receiving: AtomicU64,
    /// Bytes moved since the last [`Activity::stamp`].
    moved: AtomicBool,
}

impl Activity {
    /// A new connection: its first head is due from now.
    pub(crate) fn new() -> Activity {
        Activity {
            start: Instant::now(),
            last_millis: AtomicU64::new(0),
            receiving: AtomicU64::new(0),
            moved: AtomicBool::new(false),
        }
    }

    /// Bytes were written.
    fn moved(&self) {
        self.moved.store(true, Ordering::Relaxed);
    }

    /// Bytes arrived: between requests they begin the next request's head.
    fn moved_in(&self) {
        self.moved();
        if self.receiving.load(Ordering::Relaxed) == NONE {
            self.receiving.store(HEAD_BEGUN, Ordering::Relaxed);
        }
    }

    /// Records the time of what moved since the last stamp: the connection task calls
    /// it each time it has polled its connection, so a request read and answered in one
    /// wake-up costs one clock read, however many reads and writes it took.
    pub(crate) fn stamp(&self) {
        if !self.moved.load(Ordering::Relaxed) {
            return;
        }
        self.moved.store(false, Ordering::Relaxed);
        let millis = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX >> 2);
        self.last_millis.store(millis, Ordering::Relaxed);
        let begun = match self.receiving.load(Ordering::Relaxed) {
            HEAD_BEGUN => millis << 1,
            BODY_BEGUN => (millis << 1) | 1,
            _ => return,
        };
        self.receiving.store(begun, Ordering::Relaxed);
    }

    pub(crate) fn last(&self) -> Instant {
        self.start + Duration::from_millis(self.last_millis.load(Ordering::Relaxed))
    }

    /// The head is whole (the service was called): the body is due from now (the next
    /// stamp) when `has_body`, else the request is received.
    pub(crate) fn head_received(&self, has_body: bool) {
        let state = match has_body {
            true => BODY_BEGUN,
            false => NONE,
        };
        self.moved();
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
    /// The connection task polls it only when its timer fired
    /// ([`crate::admission::Slot::DUE`]), after [`Activity::stamp`].
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
            if state < BODY_BEGUN {
                let body = state & 1 == 1;
                let since = self.start + Duration::from_millis(state >> 1);
                let due = since + if body { limits.body } else { limits.head };
                if now >= due {
                    if !body {
                        return Expiry::Head;
                    }
                    self.receiving.store(EXPIRED, Ordering::Relaxed);
                    return Expiry::Body;
                }
                wake = wake.min(due);
            }
            tokio::time::sleep_until(wake).await;
        }
    }
}

/// A stream that marks its [`Activity`] whenever bytes are read or written.
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
            self.activity.moved_in();
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
            self.activity.moved();
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
            self.activity.moved();
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
