//! A value is built once per shared value, and anew for another one.

use std::{cell::Cell, sync::Arc};

use super::LastBuilt;

#[test]
fn a_value_is_built_once_per_key_and_anew_for_another() {
    let memo = LastBuilt::<String, usize>::new();
    let builds = Cell::new(0);
    let build = |value| {
        builds.set(builds.get() + 1);
        value
    };
    let first = Arc::new("first".to_owned());
    assert_eq!(memo.get(&first, || build(1)), 1);
    assert_eq!(memo.get(&Arc::clone(&first), || build(2)), 1, "kept for the same key");
    assert_eq!(builds.get(), 1);

    // An equal value in another allocation is another key.
    let second = Arc::new("first".to_owned());
    assert_eq!(memo.get(&second, || build(3)), 3);
    assert_eq!(memo.get(&first, || build(4)), 4, "only the last key is kept");
    assert_eq!(builds.get(), 3);
}

#[test]
fn a_dropped_key_is_never_matched_again() {
    let memo = LastBuilt::<u64, u64>::new();
    let first = Arc::new(1);
    assert_eq!(memo.get(&first, || 10), 10);
    drop(first);
    // The weak handle keeps the first allocation, so these are other addresses.
    for value in 2..100 {
        let next = Arc::new(value);
        assert_eq!(memo.get(&next, || value * 10), value * 10);
    }
}
