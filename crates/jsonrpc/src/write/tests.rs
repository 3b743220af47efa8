//! The hand-written JSON is byte for byte what serde_json writes.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{write_complete, write_legacy_result, write_str};
use crate::{Complete, LegacyResult, RequestId, Response, ResultMeta, ServerInfo};

fn literal(text: &str) -> String {
    let mut out = Vec::new();
    write_str(&mut out, text);
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn escapes_like_serde_json() {
    for text in
        ["", "plain", "a\"b\\c", "line\nnext\ttab\r\u{8}\u{c}", "\u{0}\u{1f}\u{7f}", "é – 💎"]
    {
        assert_eq!(literal(text), serde_json::to_string(text).unwrap(), "{text:?}");
    }
}

/// The serde route for the same result: members written by `fields` as a JSON object.
fn reference(id: &RequestId, meta: ResultMeta<'_>, fields: &Value) -> Vec<u8> {
    Response::success_json(id, &Complete::new(fields, meta))
}

fn fast(id: &RequestId, meta: ResultMeta<'_>, fields: &Value) -> Vec<u8> {
    write_complete(id, &meta, 64, |out| {
        let object = serde_json::to_string(fields).unwrap();
        out.extend_from_slice(&object.as_bytes()[1..object.len() - 1]);
    })
}

fn members(fields: &Value) -> impl FnOnce(&mut Vec<u8>) {
    let object = serde_json::to_string(fields).unwrap();
    move |out| out.extend_from_slice(&object.as_bytes()[1..object.len() - 1])
}

#[test]
fn legacy_result_matches_the_serde_route() {
    let server = ServerInfo::new("dcx", "2.0.0");
    let meta = ResultMeta { timestamp: "t", source: "s", server: &server };
    for id in [RequestId::from(0), RequestId::from("a\"b")] {
        for fields in [json!({}), json!({"tools": [], "x": "y\n"})] {
            let fast = write_legacy_result(&id, &meta, 8, members(&fields));
            let serde = Response::success_json(&id, &LegacyResult { result: &fields, meta });
            assert_eq!(String::from_utf8(fast).unwrap(), String::from_utf8(serde).unwrap());
            assert!(
                !String::from_utf8(write_legacy_result(&id, &meta, 8, members(&fields)))
                    .unwrap()
                    .contains("resultType")
            );
        }
    }
}

#[test]
fn complete_response_matches_the_serde_route() {
    let server = ServerInfo::new("dcx-\"diamond\"-pricing", "2.0.0");
    let meta =
        ResultMeta { timestamp: "2026-11-21T10:00:00.123Z", source: "é.example", server: &server };
    let ids = [
        RequestId::from(0),
        RequestId::from(-7),
        RequestId::from(i64::MIN),
        RequestId::from(i64::MAX),
        RequestId::from(u64::MAX),
        RequestId::from(""),
        RequestId::from("id \"quoted\"\n"),
    ];
    let results = [
        json!({}),
        json!({"a": 1}),
        json!({"content": [{"type": "text", "text": "x\ny"}], "isError": false}),
    ];
    for id in &ids {
        for fields in &results {
            assert_eq!(
                String::from_utf8(fast(id, meta, fields)).unwrap(),
                String::from_utf8(reference(id, meta, fields)).unwrap()
            );
        }
    }
}

proptest! {
    #[test]
    fn any_string_escapes_like_serde_json(text in any::<String>()) {
        prop_assert_eq!(literal(&text), serde_json::to_string(&text).unwrap());
    }

    #[test]
    fn control_heavy_strings_escape_like_serde_json(text in "[\\x00-\\x20\"\\\\a-z\u{7f}-\u{10ff}]{0,40}") {
        prop_assert_eq!(literal(&text), serde_json::to_string(&text).unwrap());
    }

    #[test]
    fn any_id_and_meta_match_the_serde_route(id in any::<i64>(), big_id in any::<u64>(), text_id in any::<String>(), timestamp in any::<String>(), source in any::<String>()) {
        let server = ServerInfo::new(source.clone(), timestamp.clone());
        let meta = ResultMeta { timestamp: &timestamp, source: &source, server: &server };
        for id in [RequestId::from(id), RequestId::from(big_id), RequestId::from(text_id.as_str())] {
            prop_assert_eq!(fast(&id, meta, &json!({"k": "v"})), reference(&id, meta, &json!({"k": "v"})));
        }
    }
}
