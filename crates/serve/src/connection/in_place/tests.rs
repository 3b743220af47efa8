//! A wake during the poll polls again in place; any other wake wakes the task.

use std::{
    future::Future,
    pin::{Pin, pin},
    sync::{Arc, atomic::Ordering},
    task::{Context, Poll, Waker},
};

use super::{InPlace, POLLS_PER_WAKE};
use crate::{admission::Slot, testing::WakeCount};

/// A slot whose task waker counts, and its in-place waker.
fn set_up() -> (Arc<WakeCount>, Arc<InPlace>, Waker) {
    let (task, slot) = (Arc::new(WakeCount::default()), Arc::new(Slot::new()));
    slot.register(&Waker::from(Arc::clone(&task)));
    let (in_place, waker) = InPlace::waker(slot);
    (task, in_place, waker)
}

/// Pending until polled `ready_at` times; wakes its waker during each of the first
/// `wakes` polls, as hyper's body channel does.
struct Script {
    polls: usize,
    ready_at: usize,
    wakes: usize,
}

impl Future for Script {
    type Output = usize;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<usize> {
        self.polls += 1;
        if self.polls <= self.wakes {
            cx.waker().wake_by_ref();
        }
        if self.polls >= self.ready_at { Poll::Ready(self.polls) } else { Poll::Pending }
    }
}

#[test]
fn a_wake_during_the_poll_polls_again_without_waking_the_task() {
    let (task, in_place, waker) = set_up();
    let mut future = pin!(Script { polls: 0, ready_at: 3, wakes: 2 });
    assert_eq!(in_place.poll(future.as_mut(), &waker), Poll::Ready(3));
    assert_eq!(task.0.load(Ordering::SeqCst), 0);
}

#[test]
fn a_poll_without_a_wake_is_made_once() {
    let (task, in_place, waker) = set_up();
    let mut future = pin!(Script { polls: 0, ready_at: 2, wakes: 0 });
    assert_eq!(in_place.poll(future.as_mut(), &waker), Poll::Pending);
    assert_eq!(future.polls, 1);
    assert_eq!(task.0.load(Ordering::SeqCst), 0);
}

#[test]
fn a_future_woken_in_every_poll_is_left_to_the_scheduler() {
    let (task, in_place, waker) = set_up();
    let mut future = pin!(Script { polls: 0, ready_at: usize::MAX, wakes: usize::MAX });
    assert_eq!(in_place.poll(future.as_mut(), &waker), Poll::Pending);
    assert_eq!(future.polls, POLLS_PER_WAKE);
    assert_eq!(task.0.load(Ordering::SeqCst), 1, "the task is woken to come back");
}

#[test]
fn a_wake_between_polls_wakes_the_task() {
    let (task, in_place, waker) = set_up();
    let mut future = pin!(Script { polls: 0, ready_at: 2, wakes: 0 });
    assert_eq!(in_place.poll(future.as_mut(), &waker), Poll::Pending);
    waker.wake_by_ref();
    assert_eq!(task.0.load(Ordering::SeqCst), 1);
    assert_eq!(in_place.poll(future.as_mut(), &waker), Poll::Ready(2));
}

#[test]
fn a_wake_from_another_thread_during_the_poll_is_not_lost() {
    // Whatever the interleaving, a wake either lands during the poll (and the future is
    // polled again in place) or after it (and the task is woken).
    for _ in 0..200 {
        let (task, in_place, waker) = set_up();
        let mut future = pin!(Script { polls: 0, ready_at: usize::MAX, wakes: 0 });
        let other = {
            let waker = waker.clone();
            std::thread::spawn(move || waker.wake())
        };
        let _ = in_place.poll(future.as_mut(), &waker);
        other.join().unwrap();
        let polled_again = future.polls > 1;
        let woken = task.0.load(Ordering::SeqCst) > 0;
        assert!(polled_again || woken, "the wake was lost");
    }
}
