//! Admission: the connection caps (all clients, and each client address), and which
//! connection goes when a new client arrives at the cap.
//!
//! Every accepted connection asks [`Admission::admit`] first. A client address already
//! holding its share is refused (`429`); at the global cap the connection that has sat
//! idle longest (an idle keep-alive, or a head or body trickling in) is closed
//! to make room, and only when every connection is busy is the newcomer refused (`503`).
//! Refusals are a few hundred bytes written straight to the socket, so they cost almost
//! nothing and never wait.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicU8, AtomicUsize, Ordering},
    },
    task::{Wake, Waker},
    time::Duration,
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::Instant,
};

use crate::{Cap, activity::Activity};

#[cfg(test)]
mod tests;

/// A connection idle for less than this is never closed to make room: it is probably
/// about to send its next request or is reading its answer.
pub(crate) const EVICTABLE_AFTER: Duration = Duration::from_millis(250);
/// How long a refused client is given to read its refusal before the socket closes.
const REFUSAL_LINGER: Duration = Duration::from_secs(1);
/// Most refused sockets lingering at once; past this a refusal is an immediate close.
pub(crate) const LINGERING_MAX: usize = 256;

/// The caps and the connections they count.
pub(crate) struct Admission {
    max_total: usize,
    max_per_address: usize,
    exempt: Vec<IpAddr>,
    state: Mutex<State>,
    lingering: AtomicUsize,
}

#[derive(Default)]
struct State {
    next_id: u64,
    open: HashMap<u64, (IpAddr, Arc<Slot>)>,
    per_address: HashMap<IpAddr, usize>,
}

/// What the cap bookkeeping knows of one open connection.
pub(crate) struct Slot {
    /// When bytes last moved.
    pub(crate) activity: Arc<Activity>,
    /// Requests being answered (read, handled, written) right now.
    pub(crate) busy: AtomicUsize,
    /// What others told the connection task: [`Slot::EVICT`], [`Slot::DRAIN`], [`Slot::DUE`].
    notices: AtomicU8,
    /// The connection task's waker, woken by each notice.
    waker: Mutex<Option<Waker>>,
}

impl Slot {
    /// The connection must close to make room.
    pub(crate) const EVICT: u8 = 1;
    /// The server is shutting down: finish the request in flight, then close.
    pub(crate) const DRAIN: u8 = 2;
    /// The watchdog's timer fired: its deadlines are due for a look. A waker made from
    /// the slot (`Waker::from`) raises it, so the timer wakes the connection task without
    /// the task polling the timer on every other wake-up.
    pub(crate) const DUE: u8 = 4;

    pub(crate) fn new() -> Slot {
        Slot {
            activity: Arc::new(Activity::new()),
            busy: AtomicUsize::new(0),
            notices: AtomicU8::new(Slot::DUE),
            waker: Mutex::new(None),
        }
    }

    /// Raises `notice` and wakes the connection task.
    pub(crate) fn notify(&self, notice: u8) {
        self.notices.fetch_or(notice, Ordering::AcqRel);
        self.wake_task();
    }

    /// Wakes the connection task (through the waker [`Slot::register`] set).
    pub(crate) fn wake_task(&self) {
        if let Some(waker) = self.waker.lock().unwrap_or_else(|poison| poison.into_inner()).as_ref()
        {
            waker.wake_by_ref();
        }
    }

    /// Sets the waker [`Slot::notify`] wakes; to call before reading the notices, so that
    /// none raised after the read goes unseen.
    pub(crate) fn register(&self, waker: &Waker) {
        *self.waker.lock().unwrap_or_else(|poison| poison.into_inner()) = Some(waker.clone());
    }

    /// The notices raised so far; [`Slot::DUE`] is cleared, the others stay.
    pub(crate) fn notices(&self) -> u8 {
        match self.notices.load(Ordering::Acquire) {
            0 => 0,
            _ => self.notices.fetch_and(!Slot::DUE, Ordering::AcqRel),
        }
    }
}

impl Wake for Slot {
    fn wake(self: Arc<Self>) {
        self.notify(Slot::DUE);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.notify(Slot::DUE);
    }
}

/// Why a connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The client address holds its share of connections already: `429`.
    OverShare { limit: usize },
    /// Every connection slot is busy: `503`.
    Full { limit: usize },
}

impl Refusal {
    /// The whole HTTP/1.1 answer, closing the connection.
    pub(crate) fn response(self) -> Vec<u8> {
        let (status, body) = match self {
            Refusal::OverShare { limit } => (
                "429 Too Many Requests",
                format!(r#"{{"error":"too many connections from your address","limit":{limit}}}"#),
            ),
            Refusal::Full { limit } => (
                "503 Service Unavailable",
                format!(r#"{{"error":"server at its connection limit","limit":{limit}}}"#),
            ),
        };
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\
             retry-after: 1\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\
             content-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    /// The cap it was over.
    pub(crate) fn cap(self) -> Cap {
        match self {
            Refusal::OverShare { .. } => Cap::PerAddress,
            Refusal::Full { .. } => Cap::Total,
        }
    }

    /// A short reason, for the event line.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Refusal::OverShare { .. } => "over its address's connection share",
            Refusal::Full { .. } => "every connection busy",
        }
    }
}

/// An admitted connection's place; dropping it frees the place.
pub(crate) struct Ticket {
    admission: Arc<Admission>,
    id: u64,
    pub(crate) slot: Arc<Slot>,
}

impl Admission {
    /// Caps of `max_total` connections (at least 1) and `max_per_address` per client
    /// address (0: none); addresses in `exempt` (trusted proxies) have no per-address cap.
    pub(crate) fn new(max_total: usize, max_per_address: usize, exempt: Vec<IpAddr>) -> Admission {
        Admission {
            max_total: max_total.max(1),
            max_per_address,
            exempt,
            state: Mutex::new(State::default()),
            lingering: AtomicUsize::new(0),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poison| poison.into_inner())
    }

    /// Admits a connection from `address`, closing the longest-idle one at the global
    /// cap, or says why not.
    pub(crate) fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Ticket, Refusal> {
        let mut state = self.state();
        let held = state.per_address.get(&address).copied().unwrap_or(0);
        if self.max_per_address > 0
            && held >= self.max_per_address
            && !self.exempt.contains(&address)
        {
            return Err(Refusal::OverShare { limit: self.max_per_address });
        }
        if state.open.len() >= self.max_total {
            let now = Instant::now();
            let victim = state
                .open
                .iter()
                .filter(|(_, (_, slot))| slot.busy.load(Ordering::Relaxed) == 0)
                .map(|(id, (_, slot))| (*id, slot.activity.last()))
                .filter(|(_, last)| now.saturating_duration_since(*last) >= EVICTABLE_AFTER)
                .min_by_key(|(_, last)| *last);
            let Some((victim, _)) = victim else {
                return Err(Refusal::Full { limit: self.max_total });
            };
            if let Some((_, slot)) = state.remove(victim) {
                slot.notify(Slot::EVICT);
            }
        }
        let id = state.next_id;
        state.next_id += 1;
        let slot = Arc::new(Slot::new());
        state.open.insert(id, (address, Arc::clone(&slot)));
        *state.per_address.entry(address).or_default() += 1;
        Ok(Ticket { admission: Arc::clone(self), id, slot })
    }

    /// Answers a refused connection: the refusal is written at once (a fresh socket's
    /// send buffer has room), then the socket lingers briefly so that the client reads
    /// it before the close; past [`LINGERING_MAX`] lingering sockets it just closes.
    pub(crate) fn refuse(self: &Arc<Self>, stream: TcpStream, refusal: Refusal) {
        let _ = stream.try_write(&refusal.response());
        if self.lingering.fetch_add(1, Ordering::Relaxed) >= LINGERING_MAX {
            self.lingering.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        let admission = Arc::clone(self);
        tokio::spawn(async move {
            let mut stream = stream;
            let _ = tokio::time::timeout(REFUSAL_LINGER, async {
                let mut sink = [0u8; 1024];
                let _ = stream.shutdown().await;
                while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
            })
            .await;
            admission.lingering.fetch_sub(1, Ordering::Relaxed);
        });
    }

    /// Tells every open connection to finish the request in flight and close.
    pub(crate) fn drain(&self) {
        for (_, slot) in self.state().open.values() {
            slot.notify(Slot::DRAIN);
        }
    }

    /// Connections open now.
    #[cfg(test)]
    pub(crate) fn open(&self) -> usize {
        self.state().open.len()
    }
}

impl State {
    fn remove(&mut self, id: u64) -> Option<(IpAddr, Arc<Slot>)> {
        let (address, slot) = self.open.remove(&id)?;
        if let Some(held) = self.per_address.get_mut(&address) {
            *held -= 1;
            if *held == 0 {
                self.per_address.remove(&address);
            }
        }
        Some((address, slot))
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.admission.state().remove(self.id);
    }
}
