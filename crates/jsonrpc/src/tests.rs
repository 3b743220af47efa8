//! Property tests: `classify` and `classify_any_era` (both transports) never panic on
//! arbitrary bytes, JSON values or header sets, and every rejection carries a status in
//! {400, 404, 200}; a body a `Value` read refuses is -32700, one that is not an object
//! -32600; a request made from parts reads back as those parts; a member sent twice
//! counts with its last value.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::{
    Classified, ErrorObject, HeaderView, Inbound, RequestId, Response, Transport, classify,
    classify_any_era, type_name,
};

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
fn header_set() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
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
    let inbound = classify(&view, body);
    if let Inbound::Rejected(response) = &inbound {
        check_rejection(response)?;
    }
    // Steps 1 and 2 as a `Value` read sees the body, headers aside.
    let refused = match serde_json::from_slice::<Value>(body) {
        Err(err) => Some(ErrorObject::parse_error(err)),
        Ok(Value::Object(_)) => None,
        Ok(Value::Array(_)) => Some(ErrorObject::invalid_request(
            "batch requests are not supported; send one JSON-RPC object per POST",
        )),
        Ok(other) => Some(ErrorObject::invalid_request(format!(
            "the body must be one JSON-RPC request object, got {}",
            type_name(&other)
        ))),
    };
    if let Some(error) = refused {
        prop_assert_eq!(inbound, Inbound::Rejected(Response::err(None, error)));
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
fn call_body(name: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }},
    }))
    .unwrap()
}

/// The parts of a well-formed request: an id, a method, and params with a `name`, a `uri`,
/// `arguments`, another member and a `_meta` with capabilities and a client identity
/// (read, and but for the capabilities' type, not kept).
/// Methods, names and uris are plain ASCII, so that they fit the routing headers as sent.
fn request_parts() -> impl Strategy<Value = (RequestId, String, Value)> {
    let id = prop_oneof![
        any::<i64>().prop_map(RequestId::from),
        any::<u64>().prop_map(RequestId::from),
        ".{0,12}".prop_map(RequestId::from),
    ];
    let method = prop_oneof![
        Just("tools/call".to_owned()),
        Just("prompts/get".to_owned()),
        Just("resources/read".to_owned()),
        "[a-z]{1,8}(/[a-z]{1,8})?",
    ];
    let object = || {
        prop::collection::vec((".{0,8}", json_value()), 0..4)
            .prop_map(|members| Value::Object(members.into_iter().collect()))
    };
    let name = "[A-Za-z0-9_./:-]{1,16}";
    let params = (name, name, object(), json_value(), object(), json_value()).prop_map(
        |(name, uri, arguments, cursor, capabilities, info)| {
            json!({"name": name, "uri": uri, "arguments": arguments, "cursor": cursor, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": capabilities,
                "io.modelcontextprotocol/clientInfo": info,
            }})
        },
    );
    (id, method, params)
}

/// `value` as JSON text in which a member of an object, at any depth, is sent first with an
/// earlier value when `earlier` yields one, then with its own.
fn with_repeats(value: &Value, earlier: &mut impl Iterator<Item = Option<Value>>) -> String {
    let Value::Object(object) = value else { return value.to_string() };
    let members: Vec<String> = object
        .iter()
        .map(|(key, value)| {
            let key = Value::from(key.as_str());
            let before = earlier.next().flatten().map(|e| format!("{key}:{e},"));
            format!("{}{key}:{}", before.unwrap_or_default(), with_repeats(value, earlier))
        })
        .collect();
    format!("{{{}}}", members.join(","))
}

/// An outcome as a `Value` read sees it: the params as one map, since `arguments` keeps
/// every send of a member, in the order sent.
fn seen(inbound: Inbound<'_>) -> (Option<Map<String, Value>>, Inbound<'_>) {
    match inbound {
        Inbound::Request(mut request) => {
            let params = std::mem::take(&mut request.params);
            (Some(params.to_map()), Inbound::Request(request))
        }
        other => (None, other),
    }
}

proptest! {
    /// A request made from parts is read as exactly those parts, and so is the same body
    /// with earlier values of its members sent before theirs.
    #[test]
    fn a_request_reads_back_as_its_parts(
        (id, method, params) in request_parts(),
        earlier in prop::collection::vec(prop::option::of(json_value()), 0..8),
    ) {
        let message = json!({"jsonrpc": "2.0", "id": id.to_json(), "method": method, "params": params});
        let named = if method == "resources/read" { &params["uri"] } else { &params["name"] };
        let headers = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", method.as_str()),
            ("Mcp-Name", named.as_str().unwrap()),
        ];
        let view: HeaderView<'_> = headers.iter().map(|(n, v)| (*n, v.as_bytes())).collect();
        let plain = serde_json::to_vec(&message).unwrap();
        let Inbound::Request(request) = classify(&view, &plain) else {
            return Err(TestCaseError::fail(format!("not a request: {:?}", classify(&view, &plain))));
        };
        prop_assert_eq!(&request.id, &id);
        prop_assert_eq!(request.method.as_ref(), method.as_str());
        // serde_json's own text of a float may read back one bit off: the params as sent,
        // and of `_meta` what is kept (the version, and capabilities that are an object).
        let mut sent: Value = serde_json::from_slice(&plain).unwrap();
        sent["params"]["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        prop_assert_eq!(&Value::Object(request.params.to_map()), &sent["params"]);
        prop_assert_eq!(request.meta.protocol_version, "2026-07-28");
        let repeated = with_repeats(&message, &mut earlier.into_iter().cycle());
        prop_assert_eq!(seen(classify(&view, repeated.as_bytes())), seen(Inbound::Request(request)));
    }

    #[test]
    fn never_panics_on_arbitrary_bytes(body in prop::collection::vec(any::<u8>(), 0..256), headers in header_set()) {
        check_props(&headers, &body)?;
    }

    #[test]
    fn never_panics_on_arbitrary_json(value in json_value(), headers in header_set()) {
        check_props(&headers, &serde_json::to_vec(&value).unwrap())?;
    }

    /// Also: earlier values of the members sent before theirs change nothing.
    #[test]
    fn never_panics_on_arbitrary_envelopes(
        id in json_value(), method in json_value(), params in json_value(), headers in header_set(),
        earlier in prop::collection::vec(prop::option::of(json_value()), 0..8),
    ) {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let plain = serde_json::to_vec(&body).unwrap();
        check_props(&headers, &plain)?;
        let repeated = with_repeats(&body, &mut earlier.into_iter().cycle());
        let view: HeaderView<'_> = headers.iter().map(|(n, v)| (n.as_str(), v.as_slice())).collect();
        prop_assert_eq!(seen(classify(&view, repeated.as_bytes())), seen(classify(&view, &plain)));
    }

    #[test]
    fn never_panics_on_arbitrary_headers(headers in header_set(), name in ".{0,12}") {
        check_props(&headers, &call_body(&name))?;
    }
}
