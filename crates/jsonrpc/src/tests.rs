//! Property tests: `classify` and `classify_any_era` (both transports) never panic on
//! arbitrary bytes, JSON values or header sets, and every rejection carries a status in
//! {400, 404, 200}.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::{Classified, HeaderView, Inbound, Response, Transport, classify, classify_any_era};

/// Arbitrary JSON values, nested up to a few levels, biased towards JSON-RPC keys.
pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::from),
        Just(Value::from("2.0")),
        Just(Value::from("2026-07-28")),
        Just(Value::from("2025-11-25")),
        Just(Value::from("tools/call")),
        Just(Value::from("initialize")),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("jsonrpc".to_owned()),
        Just("id".to_owned()),
        Just("method".to_owned()),
        Just("params".to_owned()),
        Just("result".to_owned()),
        Just("error".to_owned()),
        Just("_meta".to_owned()),
        Just("name".to_owned()),
        Just("uri".to_owned()),
        Just("io.modelcontextprotocol/protocolVersion".to_owned()),
        Just("io.modelcontextprotocol/clientCapabilities".to_owned()),
        ".{0,8}",
    ]
}

/// Arbitrary header sets, biased towards the routing headers and the base64 sentinel.
pub(crate) fn header_set() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    let name = prop_oneof![
        Just("MCP-Protocol-Version".to_owned()),
        Just("mcp-method".to_owned()),
        Just("Mcp-Name".to_owned()),
        "[A-Za-z-]{0,12}",
    ];
    let value = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..24),
        Just(b"2026-07-28".to_vec()),
        Just(b"2025-11-25".to_vec()),
        Just(b"tools/call".to_vec()),
        "=\\?base64\\?[A-Za-z0-9+/=]{0,12}\\?=".prop_map(String::into_bytes),
        "[ \\t]{0,2}[!-~]{0,10}[ \\t]{0,2}".prop_map(String::into_bytes),
    ];
    prop::collection::vec((name, value), 0..6)
}

#[track_caller]
fn check_props(headers: &[(String, Vec<u8>)], body: &[u8]) -> Result<(), TestCaseError> {
    let view: HeaderView<'_> = headers.iter().map(|(n, v)| (n.as_str(), v.as_slice())).collect();
    if let Inbound::Rejected(response) = classify(&view, body) {
        check_rejection(&response)?;
    }
    for transport in [Transport::Http, Transport::Stdio] {
        if let Classified::Rejected(response, _) = classify_any_era(transport, &view, body) {
            check_rejection(&response)?;
        }
    }
    Ok(())
}

fn check_rejection(response: &Response) -> Result<(), TestCaseError> {
    prop_assert!(response.result.is_err(), "a rejection holds an error");
    prop_assert!([400, 404, 200].contains(&response.http_status()));
    let wire: Value = serde_json::from_slice(&response.to_json())
        .map_err(|err| TestCaseError::fail(format!("response is not JSON: {err}")))?;
    prop_assert_eq!(&wire["jsonrpc"], &json!("2.0"));
    prop_assert!(wire["error"]["code"].is_i64());
    Ok(())
}

/// A well-formed tools/call body, so header sets get exercised past the envelope checks.
pub(crate) fn call_body(name: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }},
    }))
    .unwrap()
}

proptest! {
    #[test]
    fn never_panics_on_arbitrary_bytes(body in prop::collection::vec(any::<u8>(), 0..256), headers in header_set()) {
        check_props(&headers, &body)?;
    }

    #[test]
    fn never_panics_on_arbitrary_json(value in json_value(), headers in header_set()) {
        check_props(&headers, &serde_json::to_vec(&value).unwrap())?;
    }

    #[test]
    fn never_panics_on_arbitrary_envelopes(
        id in json_value(), method in json_value(), params in json_value(), headers in header_set(),
    ) {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        check_props(&headers, &serde_json::to_vec(&body).unwrap())?;
    }

    #[test]
    fn never_panics_on_arbitrary_headers(headers in header_set(), name in ".{0,12}") {
        check_props(&headers, &call_body(&name))?;
    }
}
