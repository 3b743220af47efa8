//! The borrowed reader agrees with the `Value`-tree reader it replaced (the oracle) on
//! every body and header set: same request, notification or rejection.

use proptest::prelude::*;
use serde_json::json;

use super::oracle;
use crate::{
    HeaderView, Inbound, classify,
    tests::{call_body, header_set, json_value},
};

/// The borrowed reader gives the outcome the `Value`-tree reader (the oracle) gives.
fn same_as_oracle(headers: &[(String, Vec<u8>)], body: &[u8]) -> Result<(), TestCaseError> {
    let view: HeaderView<'_> = headers.iter().map(|(n, v)| (n.as_str(), v.as_slice())).collect();
    match (classify(&view, body), oracle::classify(&view, body)) {
        (
            Inbound::Request(request),
            oracle::Outcome::Request { id, method, params, protocol_version },
        ) => {
            prop_assert_eq!(request.id, id);
            prop_assert_eq!(request.method, method);
            prop_assert_eq!(request.params.to_map(), params);
            prop_assert_eq!(request.meta.protocol_version, protocol_version);
        }
        (Inbound::Notification { method }, oracle::Outcome::Notification(expected)) => {
            prop_assert_eq!(method, expected);
        }
        (Inbound::Rejected(response), oracle::Outcome::Rejected(expected)) => {
            prop_assert_eq!(response, expected);
        }
        (new, old) => prop_assert!(false, "reader: {new:?}\noracle: {old:?}"),
    }
    Ok(())
}

/// Object text with members drawn from the envelope's own, repeats allowed.
fn object_text(members: Vec<(&'static str, String)>) -> String {
    let members: Vec<String> = members.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
    format!("{{{}}}", members.join(","))
}

fn member_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(r#""2.0""#.to_owned()),
        Just(r#""tools/call""#.to_owned()),
        Just(r#""tools/list""#.to_owned()),
        Just(r#""quote""#.to_owned()),
        Just(r#""2026-07-28""#.to_owned()),
        Just("1".to_owned()),
        Just("null".to_owned()),
        Just("{}".to_owned()),
        Just(r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#.to_owned()),
        Just(r#"{"name":"quote","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}"#.to_owned()),
        Just(r#""\u0032.0""#.to_owned()),
        Just("1e999".to_owned()),
        Just(r#""\ud800""#.to_owned()),
    ]
}

fn member_key() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just(r#""jsonrpc""#),
        Just(r#""id""#),
        Just(r#""method""#),
        Just(r#""params""#),
        Just(r#""result""#),
        Just(r#""name""#),
        Just(r#""_meta""#),
        Just(r#""io.modelcontextprotocol/protocolVersion""#),
        Just(r#""io.modelcontextprotocol/clientCapabilities""#),
        Just(r#""x""#),
    ]
}

proptest! {
    #[test]
    fn agrees_with_the_oracle_on_arbitrary_bytes(body in prop::collection::vec(any::<u8>(), 0..256), headers in header_set()) {
        same_as_oracle(&headers, &body)?;
    }

    #[test]
    fn agrees_with_the_oracle_on_arbitrary_json(value in json_value(), headers in header_set()) {
        same_as_oracle(&headers, &serde_json::to_vec(&value).unwrap())?;
    }

    #[test]
    fn agrees_with_the_oracle_on_arbitrary_envelopes(
        id in json_value(), method in json_value(), params in json_value(), headers in header_set(),
    ) {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        same_as_oracle(&headers, &serde_json::to_vec(&body).unwrap())?;
    }

    #[test]
    fn agrees_with_the_oracle_on_arbitrary_headers(headers in header_set(), name in ".{0,12}") {
        same_as_oracle(&headers, &call_body(&name))?;
    }

    /// Headers that match a `tools/call` of `quote`, so bodies get past the header checks
    /// and repeated members reach the request itself.
    #[test]
    fn agrees_with_the_oracle_on_repeated_members(
        members in prop::collection::vec((member_key(), member_value()), 0..8),
        params in prop::collection::vec((member_key(), member_value()), 0..5),
    ) {
        let mut members = members;
        members.push((r#""params""#, object_text(params)));
        same_as_oracle(&call_headers(), object_text(members).as_bytes())?;
    }
}

fn call_headers() -> Vec<(String, Vec<u8>)> {
    vec![
        ("MCP-Protocol-Version".into(), b"2026-07-28".to_vec()),
        ("Mcp-Method".into(), b"tools/call".to_vec()),
        ("Mcp-Name".into(), b"quote".to_vec()),
    ]
}

#[test]
fn the_last_of_repeated_members_counts_as_in_the_oracle() {
    let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":"first","method":"tools/list","id":7,"method":"tools/call","params":{{"name":"other"}},"params":{{"name":"quote","name":"quote","_meta":{meta}}}}}"#
    );
    let headers = call_headers();
    let view: HeaderView<'_> = headers.iter().map(|(n, v)| (n.as_str(), v.as_slice())).collect();
    let Inbound::Request(request) = classify(&view, body.as_bytes()) else {
        panic!("expected a request")
    };
    assert_eq!(request.id, crate::RequestId::from(7));
    assert_eq!(request.method, "tools/call");
    same_as_oracle(&headers, body.as_bytes()).unwrap();
}
