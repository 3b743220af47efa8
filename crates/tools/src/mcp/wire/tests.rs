//! Tests of `_meta.timestamp` and of the results kept as JSON (the tool list, a resource).

use std::sync::Arc;

use chrono::TimeZone as _;
use datasets::Snapshot;
use jsonrpc::{Era, RequestId, ServerInfo};
use serde_json::{Value, json};

use super::{Meta, success, timestamp};
use crate::{
    catalog::{live_tool_list, tool_definitions},
    mcp::dispatch::{Payload, TTL_MS},
};

/// The tool list written from its JSON is the bytes serde_json writes for it as a value:
/// its members in a map's order, the cache hints in 2026-07-28 only. A resource's kept
/// `contents` go through the same code with another key.
#[test]
fn the_tool_list_is_the_bytes_of_its_value() {
    let snapshot = Arc::new(Snapshot::reference());
    let meta = Meta::new("https://example.test".to_owned(), ServerInfo::new("dcx", "1.0.0"));
    let now = chrono::Utc.timestamp_millis_opt(1_795_255_200_123).unwrap().into();
    let tools = Value::Array(tool_definitions(snapshot.pricing()));
    let id: RequestId = serde_json::from_value(json!(7)).unwrap();
    for (era, ttl_ms, value) in [
        (
            Era::Modern,
            Some(TTL_MS),
            json!({"tools": tools, "ttlMs": TTL_MS, "cacheScope": "public"}),
        ),
        (Era::Legacy("2025-06-18"), None, json!({"tools": tools})),
    ] {
        let Value::Object(fields) = value else { unreachable!() };
        let listed = Payload::Kept { key: "tools", value: live_tool_list(&snapshot), ttl_ms };
        let raw = success(&id, era, &meta, now, &listed);
        let from_value = success(&id, era, &meta, now, &Payload::Fields(fields));
        assert_eq!(String::from_utf8(raw).unwrap(), String::from_utf8(from_value).unwrap());
    }
}

#[test]
fn timestamps_have_milliseconds_and_z() {
    let now = chrono::Utc.timestamp_millis_opt(1_795_255_200_123).unwrap();
    assert_eq!(timestamp(now.into()), "2026-11-21T10:00:00.123Z");
    let whole_second = chrono::Utc.timestamp_millis_opt(1_795_255_200_000).unwrap();
    assert_eq!(timestamp(whole_second.into()), "2026-11-21T10:00:00.000Z");
    let before_epoch = chrono::Utc.timestamp_millis_opt(-1_500).unwrap();
    assert_eq!(timestamp(before_epoch.into()), "1969-12-31T23:59:58.500Z");
}

proptest::proptest! {
    /// The per-second cache never shows: every instant, in any order, is written as chrono
    /// writes it whole.
    #[test]
    fn timestamps_match_chrono(instants in proptest::collection::vec(0i64..4_102_444_800_000, 1..20)) {
        for millis in instants {
            for millis in [millis, millis + 1, millis + 999] {
                let now = chrono::Utc.timestamp_millis_opt(millis).unwrap();
                let expected = now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
                proptest::prop_assert_eq!(timestamp(now.into()), expected);
            }
        }
    }
}
