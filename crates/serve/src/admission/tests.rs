//! Unit tests for `crate::admission`: the caps and who makes room.

use std::{net::IpAddr, sync::Arc, sync::atomic::Ordering};

use super::{Admission, EVICTABLE_AFTER, Refusal, Slot};
use crate::testing::WakeCount;

fn ip(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

#[tokio::test]
async fn an_address_over_its_share_is_refused_and_others_are_not() {
    let admission = Arc::new(Admission::new(10, 2, vec![ip(9)]));
    let _a = admission.admit(ip(1)).unwrap();
    let b = admission.admit(ip(1)).unwrap();
    assert_eq!(admission.admit(ip(1)).err(), Some(Refusal::OverShare { limit: 2 }));
    let _other = admission.admit(ip(2)).unwrap();
    drop(b);
    let _again = admission.admit(ip(1)).unwrap();
    // A trusted proxy has no share.
    let proxied: Vec<_> = (0..5).map(|_| admission.admit(ip(9)).unwrap()).collect();
    assert_eq!(admission.open(), 8);
    drop(proxied);
    assert_eq!(admission.open(), 3);
}

#[tokio::test]
async fn at_the_cap_the_longest_idle_connection_makes_room() {
    let admission = Arc::new(Admission::new(2, 0, Vec::new()));
    let old = admission.admit(ip(1)).unwrap();
    tokio::time::sleep(EVICTABLE_AFTER).await;
    let busy = admission.admit(ip(2)).unwrap();
    busy.slot.busy.fetch_add(1, Ordering::Relaxed);
    tokio::time::sleep(EVICTABLE_AFTER).await;
    let newcomer = admission.admit(ip(3)).unwrap();
    // The idle one was told to close; its ticket no longer counts.
    assert_eq!(old.slot.notices() & Slot::EVICT, Slot::EVICT);
    assert_eq!(busy.slot.notices() & Slot::EVICT, 0);
    assert_eq!(admission.open(), 2);
    drop(old);
    assert_eq!(admission.open(), 2);
    // Every connection busy or fresh: the next one is refused.
    assert_eq!(admission.admit(ip(4)).err(), Some(Refusal::Full { limit: 2 }));
    drop(newcomer);
    let _fourth = admission.admit(ip(4)).unwrap();
}

#[test]
fn refusals_are_complete_http_answers() {
    let text = String::from_utf8(Refusal::Full { limit: 7 }.response()).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 503 Service Unavailable\r\n"), "{head}");
    assert!(head.contains("\r\nretry-after: 1\r\n"), "{head}");
    assert!(head.ends_with(&format!("content-length: {}", body.len())), "{head}");
    assert_eq!(body, r#"{"error":"server at its connection limit","limit":7}"#);
    let text = String::from_utf8(Refusal::OverShare { limit: 3 }.response()).unwrap();
    assert!(text.starts_with("HTTP/1.1 429 Too Many Requests\r\n"), "{text}");
}

#[test]
fn notices_wake_the_registered_task_and_a_timer_notice_is_seen_once() {
    let admission = Arc::new(Admission::new(10, 0, Vec::new()));
    let ticket = admission.admit(ip(1)).unwrap();
    let slot = &ticket.slot;
    // A new slot has its watchdog due, so that the first poll arms the timer.
    assert_eq!(slot.notices(), Slot::DUE);
    assert_eq!(slot.notices(), 0);
    let task = Arc::new(WakeCount::default());
    slot.register(&std::task::Waker::from(Arc::clone(&task)));
    // The timer's waker is the slot itself.
    std::task::Waker::from(Arc::clone(slot)).wake_by_ref();
    admission.drain();
    assert_eq!(task.0.load(Ordering::Relaxed), 2);
    assert_eq!(slot.notices(), Slot::DUE | Slot::DRAIN);
    assert_eq!(slot.notices(), Slot::DRAIN);
}
