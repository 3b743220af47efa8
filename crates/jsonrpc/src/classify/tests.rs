//! Unit tests for `classify`: every step, every code and status, and the observable order.

use serde_json::{Value, json};

use super::{Inbound, classify};
use crate::{HeaderView, RequestId};

mod headers;

const V: &str = "2026-07-28";

/// A compact, comparable description of an outcome.
fn summary(inbound: &Inbound) -> String {
    match inbound {
        Inbound::Request(request) => format!("request {} id={}", request.method, request.id),
        Inbound::Notification { method } => format!("notification {method}"),
        Inbound::Rejected(response) => {
            let error = response.result.as_ref().expect_err("a rejection holds an error");
            let id = response.id.as_ref().map_or("null".to_owned(), |id| id.to_string());
            format!("{} {} id={id}: {}", response.http_status(), error.code.0, error.message)
        }
    }
}

fn run<'a>(headers: &[(&str, &str)], body: &'a [u8]) -> Inbound<'a> {
    let view: HeaderView<'_> = headers.iter().map(|(n, v)| (*n, v.as_bytes())).collect();
    classify(&view, body)
}

/// Checks the full summary.
#[track_caller]
fn check(headers: &[(&str, &str)], body: &[u8], expect: &str) {
    let inbound = run(headers, body);
    assert_eq!(summary(&inbound), expect, "body {}", String::from_utf8_lossy(body));
}

/// Checks only the start of the summary (status, code, id), for serde-worded messages.
#[track_caller]
fn check_prefix(headers: &[(&str, &str)], body: &[u8], expect: &str) {
    let actual = summary(&run(headers, body));
    assert!(actual.starts_with(expect), "{actual:?} does not start with {expect:?}");
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

fn body(id: Value, method: &str, mut params: Value) -> Vec<u8> {
    if params.get("_meta").is_none() {
        params["_meta"] = meta();
    }
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .unwrap()
}

const LIST: &[(&str, &str)] = &[("MCP-Protocol-Version", V), ("Mcp-Method", "tools/list")];
const CALL: &[(&str, &str)] =
    &[("MCP-Protocol-Version", V), ("Mcp-Method", "tools/call"), ("Mcp-Name", "quote")];

/// Step 1: what a `Value` read refuses is -32700 with its message, wherever it sits
/// (members read, skipped or kept as sent, inside a batch or a notification).
#[test]
fn step1_parse_errors() {
    let texts: &[&[u8]] = &[
        b"",
        b"{",
        br#"{"id":1,"#,
        b"{} x",
        b"\xff\xfe",
        br#"{"jsonrpc":"2.0","id":1,"method":"m","x":1e999}"#,
        br#"{"jsonrpc":"2.0","id":1,"method":"m","result":["\ud800"]}"#,
        br#"[{"id":1e999}]"#,
        br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":{"a":1e999}}}"#,
        br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"x":"\ud800"}}}"#,
        br#"{"jsonrpc":"2.0","method":"m","params":{"cursor":"\ud800"}}"#,
    ];
    for text in texts {
        let err = serde_json::from_slice::<Value>(text).unwrap_err();
        check(LIST, text, &format!("400 -32700 id=null: parse error: {err}"));
    }
}

#[test]
fn step1_deep_nesting_is_a_parse_error_not_a_crash() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    check_prefix(
        LIST,
        deep.as_bytes(),
        "400 -32700 id=null: parse error: recursion limit exceeded",
    );
}

#[test]
fn step2_not_a_single_object() {
    let batch =
        "400 -32600 id=null: batch requests are not supported; send one JSON-RPC object per POST";
    check(LIST, b"[]", batch);
    check(LIST, &[b"[".as_slice(), &body(json!(1), "tools/list", json!({})), b"]"].concat(), batch);
    for (text, got) in
        [("5", "a number"), ("null", "null"), (r#""x""#, "a string"), ("true", "a boolean")]
    {
        check(
            LIST,
            text.as_bytes(),
            &format!("400 -32600 id=null: the body must be one JSON-RPC request object, got {got}"),
        );
    }
}

#[test]
fn step2_bad_envelopes() {
    let response =
        "the body is a JSON-RPC response; this endpoint accepts only requests and notifications";
    for (text, id, message) in [
        (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, "1", response),
        (r#"{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"m"}}"#, "\"a\"", response),
        // A response is named before any other check; an id it cannot echo is null.
        (r#"{"id":[1],"result":{}}"#, "null", response),
        (r#"{"jsonrpc":"1.0","id":1,"method":"m"}"#, "1", r#"jsonrpc must be "2.0", got "1.0""#),
        (r#"{"jsonrpc":2.0,"id":1,"method":"m"}"#, "1", r#"jsonrpc must be "2.0", got 2.0"#),
        (r#"{"jsonrpc":null,"id":1,"method":"m"}"#, "1", r#"jsonrpc must be "2.0", got null"#),
        (r#"{"id":1,"method":"m"}"#, "1", r#"jsonrpc is missing; it must be "2.0""#),
        (r#"{"jsonrpc":"2.0","id":1}"#, "1", "method is missing; it must be a string"),
        (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, "1", "method must be a string, got a number"),
        (r#"{"jsonrpc":"2.0","method":null}"#, "null", "method must be a string, got null"),
        // The checks made before the id's answer first, and echo no id that is not valid.
        (
            r#"{"jsonrpc":"1.0","id":1.5,"method":"m"}"#,
            "null",
            r#"jsonrpc must be "2.0", got "1.0""#,
        ),
        (r#"{"jsonrpc":"2.0","id":true}"#, "null", "method is missing; it must be a string"),
    ] {
        check(LIST, text.as_bytes(), &format!("400 -32600 id={id}: {message}"));
    }
    // With a method it is no response; escaped members read as a `Value` reads them.
    check(LIST, br#"{"jsonrpc":"2.0","method":"m","result":1}"#, "notification m");
    check(LIST, br#"{"jsonrpc":"\u0032.0","method":"tools\/list"}"#, "notification tools/list");
}

#[test]
fn step2_bad_ids_are_rejected_with_null_id() {
    for raw in ["null", "true", "1.5", "-1.5", "1.0", "1e3", "18446744073709551616", "{}", "[1]"] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":{raw},"method":"tools/list"}}"#);
        let got = serde_json::from_str::<Value>(raw).unwrap();
        check(
            LIST,
            text.as_bytes(),
            &format!(
                "400 -32600 id=null: id must be a string of at most 1024 bytes or an integer, got {got}"
            ),
        );
    }
}

#[test]
fn step2_a_huge_id_or_version_is_refused_with_a_short_message() {
    let long = "i".repeat(900_000);
    let text = format!(r#"{{"jsonrpc":"2.0","id":"{long}","method":"tools/list"}}"#);
    let cut = format!("\"{}…", "i".repeat(words::CLIP_CHARS_MAX - 1));
    check(
        LIST,
        text.as_bytes(),
        &format!(
            "400 -32600 id=null: id must be a string of at most 1024 bytes or an integer, got {cut}"
        ),
    );
    let at_limit = "i".repeat(crate::ID_BYTES_MAX);
    let text = format!(r#"{{"jsonrpc":"2.0","id":"{at_limit}","method":"tools/list"}}"#);
    assert!(!summary(&run(LIST, text.as_bytes())).contains("id must be"));
    let text = format!(r#"{{"jsonrpc":[{}0],"id":1,"method":"tools/list"}}"#, "0,".repeat(100_000));
    let summary = summary(&run(LIST, text.as_bytes()));
    assert!(summary.len() < 200, "{summary}");
}

#[test]
fn step2_params_must_be_an_object() {
    for (text, expect) in [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":[]}"#,
            "id=1: params must be an object, got an array",
        ),
        (
            r#"{"jsonrpc":"2.0","id":"x","method":"m","params":"p"}"#,
            r#"id="x": params must be an object, got a string"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#,
            "id=1: params must be an object, got null",
        ),
        // Before the notification is told from a request.
        (
            r#"{"jsonrpc":"2.0","method":"x","params":5}"#,
            "id=null: params must be an object, got a number",
        ),
    ] {
        check(LIST, text.as_bytes(), &format!("400 -32602 {expect}"));
    }
}

#[test]
fn step3_notifications_skip_meta_and_headers() {
    check(
        &[],
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "notification notifications/initialized",
    );
    check(
        &[],
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        "notification notifications/cancelled",
    );
    check(LIST, br#"{"jsonrpc":"2.0","method":"x","params":{"_meta":5}}"#, "notification x");
}

#[test]
fn step4_meta_envelope() {
    const P: &str = "io.modelcontextprotocol/protocolVersion";
    const C: &str = "io.modelcontextprotocol/clientCapabilities";
    let both = format!("{P} (a string) and {C} (an object)");
    let with = |meta: Value| body(json!(1), "tools/list", json!({"_meta": meta}));
    for (text, message) in [
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_vec(),
            format!("params is missing; every request needs params._meta with {both}"),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#.to_vec(),
            format!("params._meta is missing; it must be an object with {both}"),
        ),
        (with(json!([])), "params._meta must be an object, got an array".to_owned()),
        (
            with(json!({C: {}})),
            format!(r#"params._meta is missing {P}; it must be a string such as "2026-07-28""#),
        ),
        (
            with(json!({P: 2026, C: {}})),
            format!(r#"params._meta["{P}"] must be a string, got a number"#),
        ),
        (
            with(json!({P: V})),
            format!("params._meta is missing {C}; it must be an object, {{}} for none"),
        ),
        (
            with(json!({P: V, C: []})),
            format!(r#"params._meta["{C}"] must be an object, got an array"#),
        ),
        (
            with(json!({P: V, C: null})),
            format!(r#"params._meta["{C}"] must be an object, got null"#),
        ),
    ] {
        check(LIST, &text, &format!("400 -32602 id=1: {message}"));
    }
}

/// The client's identity is optional; it and the capabilities' members are read, and
/// refused as a `Value` read refuses them, but not kept.
#[test]
fn step4_client_info_is_optional_and_read_not_kept() {
    let kept = json!({"io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": {}});
    let plain = body(json!(1), "tools/list", json!({}));
    let Inbound::Request(request) = run(LIST, &plain) else { panic!("expected a request") };
    assert_eq!(request.params.to_map()["_meta"], kept);
    let mut with_info = meta();
    with_info["io.modelcontextprotocol/clientInfo"] = json!({"name": "c", "version": "1"});
    with_info["io.modelcontextprotocol/clientCapabilities"] = json!({"sampling": {}});
    let informed = body(json!(1), "tools/list", json!({"_meta": with_info}));
    let Inbound::Request(request) = run(LIST, &informed) else { panic!("expected a request") };
    assert_eq!(request.params.to_map()["_meta"], kept);
    for unread in [r#"{"name":"\ud800"}"#, "[1e999]"] {
        for key in ["clientInfo", "clientCapabilities"] {
            let text = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{V}","io.modelcontextprotocol/{key}":{unread}}}}}}}"#
            );
            check_prefix(LIST, text.as_bytes(), "400 -32700 id=null: ");
        }
    }
}

#[test]
fn step6_unsupported_version() {
    let mut old = meta();
    old["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    let old = body(json!(9), "tools/list", json!({"_meta": old}));
    let inbound = run(&[("MCP-Protocol-Version", "v999.0.0"), ("Mcp-Method", "tools/list")], &old);
    assert_eq!(
        summary(&inbound),
        r#"400 -32022 id=9: unsupported protocol version "v999.0.0"; this server supports 2026-07-28"#
    );
    let Inbound::Rejected(response) = inbound else { panic!("expected a rejection") };
    let error = response.result.unwrap_err();
    assert_eq!(error.data, Some(json!({"supported": ["2026-07-28"], "requested": "v999.0.0"})));
}

#[test]
fn observable_order() {
    let mut old = meta();
    old["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    // Header 2026-07-28 with body v999: the header mismatch wins over the version check.
    check_prefix(
        LIST,
        &body(json!(1), "tools/list", json!({"_meta": old})),
        "400 -32020 id=1: header MCP-Protocol-Version \"2026-07-28\"",
    );
    // Correct headers without _meta: -32602.
    check_prefix(
        LIST,
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
        "400 -32602 id=1: params._meta is missing",
    );
    // No headers and no _meta: _meta is checked first.
    check_prefix(
        &[],
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
        "400 -32602",
    );
    // Both routing headers wrong: the protocol version header is named first.
    check_prefix(
        &[("MCP-Protocol-Version", "x"), ("Mcp-Method", "y")],
        &body(json!(1), "tools/list", json!({})),
        "400 -32020 id=1: header MCP-Protocol-Version",
    );
    // Method and name wrong: Mcp-Method first.
    check_prefix(
        &[("MCP-Protocol-Version", V), ("Mcp-Method", "y"), ("Mcp-Name", "z")],
        &body(json!(1), "tools/call", json!({"name": "quote"})),
        "400 -32020 id=1: header Mcp-Method",
    );
    // Unknown methods pass: dispatch (-32601) is the caller's.
    check(
        &[("MCP-Protocol-Version", V), ("Mcp-Method", "ping")],
        &body(json!(1), "ping", json!({})),
        "request ping id=1",
    );
}

#[test]
fn step7_requests_with_every_id_kind() {
    for (id, shown) in [
        (json!(0), "0"),
        (json!(-1), "-1"),
        (json!(42), "42"),
        (json!(i64::MIN), "-9223372036854775808"),
        (json!(u64::MAX), "18446744073709551615"),
        (json!(""), "\"\""),
        (json!("server-discover-probe-1"), "\"server-discover-probe-1\""),
    ] {
        check(LIST, &body(id, "tools/list", json!({})), &format!("request tools/list id={shown}"));
    }
}

#[test]
fn step7_request_fields() {
    let call = body(json!(0), "tools/call", json!({"name": "quote", "arguments": {"a": 1}}));
    let Inbound::Request(request) = run(CALL, &call) else { panic!("expected a request") };
    assert_eq!(request.id, RequestId::from(0));
    assert_eq!(request.method, "tools/call");
    assert_eq!(request.meta.protocol_version, V);
    assert_eq!(request.params.to_map().get("arguments").cloned(), Some(json!({"a": 1})));
    assert!(request.params.meta.is_some(), "params are kept as sent");
}

/// A member sent twice counts once, with its last value, at every level, as in a `Value`.
#[test]
fn repeated_members_count_with_their_last_value() {
    let sent = meta();
    let meta = sent.to_string();
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":"first","method":"tools/list","id":7,"method":"tools/call","params":{{"name":"other"}},"params":{{"name":"x","arguments":{{"a":1}},"name":"quote","arguments":{{"b":2}},"_meta":5,"_meta":{meta}}}}}"#
    );
    let Inbound::Request(request) = run(CALL, call.as_bytes()) else {
        panic!("expected a request")
    };
    assert_eq!((request.id, request.method.as_ref()), (RequestId::from(7), "tools/call"));
    let params = json!({"name": "quote", "arguments": {"b": 2}, "_meta": sent});
    assert_eq!(Value::Object(request.params.to_map()), params);
    let list = |members: &str| format!(r#"{{"jsonrpc":"2.0","method":"tools/list",{members}}}"#);
    for (members, expect) in [
        (
            format!(r#""id":1,"id":null,"params":{{"_meta":{meta}}}"#),
            "400 -32600 id=null: id must be a string of at most 1024 bytes or an integer, got null",
        ),
        (
            format!(r#""id":1,"params":{{"_meta":{meta}}},"params":[]"#),
            "400 -32602 id=1: params must be an object, got an array",
        ),
        (format!(r#""id":1,"params":5,"params":{{"_meta":{meta}}}"#), "request tools/list id=1"),
        (
            format!(r#""id":1,"params":{{"_meta":{meta},"_meta":{{}}}}"#),
            r#"400 -32602 id=1: params._meta is missing io.modelcontextprotocol/protocolVersion; it must be a string such as "2026-07-28""#,
        ),
        (
            format!(r#""id":1,"jsonrpc":"1.0","params":{{"_meta":{meta}}}"#),
            r#"400 -32600 id=1: jsonrpc must be "2.0", got "1.0""#,
        ),
    ] {
        check(LIST, list(&members).as_bytes(), expect);
    }
}
