//! What a thread last built from one shared value (a snapshot, a history), kept until it
//! is asked for with another: answers that depend on the live data alone (the tool list,
//! `get_dcx_index`, the depth overview, the manifest, a live feed read as a resource) are
//! built once per day, not per call; and [`written`] and [`members`], the JSON such an
//! answer keeps.

use std::{
    cell::RefCell,
    sync::{Arc, Weak},
};

use serde::Serialize;
use serde_json::value::RawValue;

#[cfg(test)]
mod tests;

/// The value last built from some `Arc<K>`, beside a weak handle on that `K`. The weak
/// handle keeps the `K`'s allocation from being reused, so no other `K` can share its
/// address while the value is kept: an address compare is an identity compare. Meant for a
/// `thread_local!`, so the request path takes no lock; a value that depends on more than
/// its `K` (the manifest names its service's endpoint) is kept by its owner, behind a lock.
pub(crate) struct LastBuilt<K, V> {
    last: RefCell<Option<(Weak<K>, V)>>,
}

impl<K, V: Clone> LastBuilt<K, V> {
    /// Nothing built yet.
    pub(crate) const fn new() -> Self {
        LastBuilt { last: RefCell::new(None) }
    }

    /// The value built from `from`: the one kept when it was built from this very `K`, else
    /// `build()`'s, which is kept in place of the one before.
    pub(crate) fn get(&self, from: &Arc<K>, build: impl FnOnce() -> V) -> V {
        if let Some((of, value)) = self.last.borrow().as_ref()
            && std::ptr::eq(of.as_ptr(), Arc::as_ptr(from))
        {
            return value.clone();
        }
        // Built with nothing borrowed, so `build` may use another `LastBuilt`.
        let value = build();
        *self.last.borrow_mut() = Some((Arc::downgrade(from), value.clone()));
        value
    }
}

/// A JSON object's members, each value written as JSON once, in the object's order: a
/// result kept whole ([`crate::mcp`]'s discovery) and copied into answers member by member.
pub(crate) type Members = Vec<(String, Box<RawValue>)>;

/// The members of `object` (a JSON object; anything else has none), each written once.
pub(crate) fn members(object: serde_json::Value) -> Members {
    let serde_json::Value::Object(map) = object else { return Members::new() };
    let write = |value| serde_json::value::to_raw_value(&value).expect("plain data serializes");
    map.into_iter().map(|(key, value)| (key, write(value))).collect()
}

/// `value` written as JSON once, to be kept and copied into answers.
pub(crate) fn written(value: &impl Serialize) -> Arc<RawValue> {
    let json = serde_json::to_string(value).expect("plain data serializes");
    Arc::from(RawValue::from_string(json).expect("serde_json writes JSON"))
}
