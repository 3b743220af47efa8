//! The waker hyper's connection is polled with: a wake that comes while the connection
//! task is polling the connection polls it again in place, not through the scheduler.
//!
//! hyper's body channel wakes the connection in the middle of its own poll (once per
//! request with a body); through tokio that wake would poll the task once more for
//! nothing and wake an idle worker (docs/performance.md). A wake at any other time (the
//! socket, another thread) wakes the task as usual.

use std::{
    future::Future,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicU8, Ordering},
    },
    task::{Context, Poll, Wake, Waker},
};

use crate::admission::Slot;

/// Not polling: a wake wakes the task.
const IDLE: u8 = 0;
/// Polling: a wake is noted.
const POLLING: u8 = 1;
/// Polling, and woken since the poll began: poll again.
const WOKEN: u8 = 2;

/// How many polls in a row one wake-up of the task makes at most; a future woken during
/// each of them is then left to the scheduler, so that other tasks get their turn.
const POLLS_PER_WAKE: usize = 4;

/// A connection's in-place waker: its state, and the slot whose registered waker wakes
/// the task.
pub(super) struct InPlace {
    state: AtomicU8,
    slot: Arc<Slot>,
}

impl InPlace {
    /// The waker for the connection task of `slot`, whose waker must be registered
    /// ([`Slot::register`]) before the first [`InPlace::poll`].
    pub(super) fn waker(slot: Arc<Slot>) -> (Arc<InPlace>, Waker) {
        let in_place = Arc::new(InPlace { state: AtomicU8::new(IDLE), slot });
        let waker = Waker::from(Arc::clone(&in_place));
        (in_place, waker)
    }

    /// Polls `future` with `waker` (this one's), and again while it was woken during the
    /// poll, [`POLLS_PER_WAKE`] times at most.
    pub(super) fn poll<F: Future>(
        &self,
        mut future: Pin<&mut F>,
        waker: &Waker,
    ) -> Poll<F::Output> {
        let mut cx = Context::from_waker(waker);
        for _ in 0..POLLS_PER_WAKE {
            self.state.store(POLLING, Ordering::Release);
            let polled = future.as_mut().poll(&mut cx);
            let woken = self.state.swap(IDLE, Ordering::AcqRel) == WOKEN;
            if polled.is_ready() || !woken {
                return polled;
            }
        }
        self.slot.wake_task();
        Poll::Pending
    }
}

impl Wake for InPlace {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        match self.state.compare_exchange(POLLING, WOKEN, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) | Err(WOKEN) => {}
            Err(_) => self.slot.wake_task(),
        }
    }
}

#[cfg(test)]
mod tests;
