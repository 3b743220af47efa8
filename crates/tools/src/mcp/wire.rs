//! The bytes of a success response. A method's fields go through serde
//! ([`jsonrpc::Response::success_json`]); a `tools/call` result, the hot path, is a fixed
//! template around its parts (the readable text, the tool's JSON as a JSON text item and
//! as `structuredContent`, both written by the tool in one pass: `crate::twin`), so no
//! byte of it is escaped or copied twice. Also `_meta.timestamp`.

use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};
use jsonrpc::{Complete, Era, LegacyResult, RequestId, ResultMeta, ServerInfo};
use serde::Serialize;
use serde_json::value::RawValue;

use super::dispatch::{CACHE_SCOPE, CallResult, Payload};
use crate::memo::Members;

#[cfg(test)]
mod tests;

/// What every result's `_meta` says but the time: the source and the server, with their
/// JSON written once.
pub(crate) struct Meta {
    source: String,
    server: ServerInfo,
    /// `_meta`'s JSON after the timestamp's value: `,"source":…}`.
    tail: Vec<u8>,
}

impl Meta {
    pub(crate) fn new(source: String, server: ServerInfo) -> Meta {
        let empty = ResultMeta { timestamp: "", source: &source, server: &server };
        let mut tail = serde_json::to_vec(&empty).expect("plain data serializes");
        tail.drain(..b"{\"timestamp\":\"\"".len());
        Meta { source, server, tail }
    }

    fn at<'m>(&'m self, timestamp: &'m str) -> ResultMeta<'m> {
        ResultMeta { timestamp, source: &self.source, server: &self.server }
    }
}

/// The success response to `id` carrying `payload`, for `era`, stamped `now`.
#[inline(always)]
pub(crate) fn success(
    id: &RequestId,
    era: Era,
    meta: &Meta,
    now: SystemTime,
    payload: &Payload,
) -> Vec<u8> {
    match payload {
        Payload::Call(call) => call_result(id, era, meta, now, call),
        Payload::Empty => jsonrpc::Response::ok(id.clone(), serde_json::json!({})).to_json(),
        Payload::Fields(fields) => method_result(id, era, meta, now, fields, 0),
        Payload::Members(members) => {
            let bytes = members.iter().map(|(key, value)| key.len() + value.get().len() + 4).sum();
            method_result(id, era, meta, now, &InOrder(members), bytes)
        }
        Payload::Kept { key, value, ttl_ms } => {
            let kept = Kept { key, value, ttl_ms: *ttl_ms };
            method_result(id, era, meta, now, &kept, value.get().len())
        }
    }
}

/// A method's own fields in the envelope of `era` (`resultType` only in 2026-07-28), with
/// `_meta` stamped `now`, written into a buffer made for `bytes` of fields (0: unknown).
fn method_result(
    id: &RequestId,
    era: Era,
    meta: &Meta,
    now: SystemTime,
    fields: &impl Serialize,
    bytes: usize,
) -> Vec<u8> {
    let timestamp = timestamp(now);
    match era {
        Era::Modern => {
            let result = Complete::new(fields, meta.at(&timestamp));
            jsonrpc::Response::success_json_sized(id, &result, bytes)
        }
        Era::Legacy(_) => {
            let result = LegacyResult { result: fields, meta: meta.at(&timestamp) };
            jsonrpc::Response::success_json_sized(id, &result, bytes)
        }
    }
}

/// The fields of a result of one kept member ([`Payload::Kept`]), in the order of a JSON
/// map's keys, as the other methods' fields are written (`cacheScope` sorts before
/// `contents` and `tools`, `ttlMs` after); the cache hints only when the dispatch gave a
/// lifetime.
struct Kept<'a> {
    key: &'static str,
    value: &'a RawValue,
    ttl_ms: Option<u64>,
}

impl Serialize for Kept<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(None)?;
        if self.ttl_ms.is_some() {
            map.serialize_entry("cacheScope", CACHE_SCOPE)?;
        }
        map.serialize_entry(self.key, self.value)?;
        if let Some(ttl_ms) = self.ttl_ms {
            map.serialize_entry("ttlMs", &ttl_ms)?;
        }
        map.end()
    }
}

/// Kept members ([`Payload::Members`]) written in their order.
struct InOrder<'a>(&'a Members);

impl Serialize for InOrder<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// A `tools/call` result: the bytes serde writes for the envelope (`resultType` only in
/// 2026-07-28) around `content`, `structuredContent` (on success) and `isError`.
fn call_result(
    id: &RequestId,
    era: Era,
    meta: &Meta,
    now: SystemTime,
    call: &CallResult,
) -> Vec<u8> {
    let (text, json, json_escaped) =
        (&call.output.text_escaped, &call.output.structured, &call.output.structured_escaped);
    let mut out = Vec::with_capacity(text.len() + json.len() + json_escaped.len() + 448);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    // An id is plain data: writing it into a Vec cannot fail.
    serde_json::to_writer(&mut out, id).expect("an id serializes");
    out.extend_from_slice(br#","result":{"content":[{"type":"text","text":""#);
    out.extend_from_slice(text);
    out.extend_from_slice(br#""},{"type":"text","text":""#);
    out.extend_from_slice(json_escaped);
    out.extend_from_slice(br#""}]"#);
    if call.is_structured {
        out.extend_from_slice(br#","structuredContent":"#);
        out.extend_from_slice(json);
        out.extend_from_slice(br#","isError":false"#);
    } else {
        out.extend_from_slice(br#","isError":true"#);
    }
    if matches!(era, Era::Modern) {
        out.extend_from_slice(br#","resultType":"complete""#);
    }
    out.extend_from_slice(br#","_meta":{"timestamp":""#);
    // Digits, `-`, `+`, `:`, `T`, `.` and `Z`: nothing to escape.
    push_timestamp(&mut out, now);
    out.push(b'"');
    out.extend_from_slice(&meta.tail);
    out.extend_from_slice(b"}}");
    out
}

/// `_meta.timestamp`: UTC with milliseconds, e.g. `2026-11-21T10:00:00.123Z`.
pub(super) fn timestamp(now: SystemTime) -> String {
    let mut out = Vec::with_capacity(24);
    push_timestamp(&mut out, now);
    String::from_utf8(out).expect("a timestamp is ASCII")
}

/// Appends [`timestamp`] ([`words::utc`]: the date and time written once per second per
/// thread, the milliseconds per call).
#[inline(always)]
fn push_timestamp(out: &mut Vec<u8>, now: SystemTime) {
    match words::utc(now, words::Fraction::Millis) {
        Some(text) => out.extend_from_slice(text.as_bytes()),
        None => {
            let text = DateTime::<Utc>::from(now).to_rfc3339_opts(SecondsFormat::Millis, true);
            out.extend_from_slice(text.as_bytes());
        }
    }
}
