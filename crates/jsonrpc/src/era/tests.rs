//! Tests of the era rule and of legacy version negotiation.

use serde_json::{Value, json};

use crate::{
    ALL_VERSIONS, Classified, Era, ErrorCode, HeaderView, LEGACY_ASSUMED, Params, Transport,
    classify_any_era, negotiate,
};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn run(transport: Transport, headers: &[(&str, &str)], body: &str) -> Classified<'static> {
    let view: HeaderView<'_> = headers.iter().map(|(n, v)| (*n, v.as_bytes())).collect();
    let body: &'static [u8] = Box::leak(body.as_bytes().to_vec().into_boxed_slice());
    classify_any_era(transport, &view, body)
}

fn http(headers: &[(&str, &str)], body: &str) -> Classified<'static> {
    run(Transport::Http, headers, body)
}

#[track_caller]
fn rejected(classified: Classified<'_>) -> (Value, Era) {
    let Classified::Rejected(response, era) = classified else {
        panic!("expected a rejection, got {classified:?}")
    };
    (serde_json::from_slice(&response.to_json()).unwrap(), era)
}

#[test]
fn the_2026_header_selects_the_modern_rules() {
    let list = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#);
    let headers = [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/list")];
    assert!(matches!(http(&headers, &list), Classified::Modern(_)));
    // The header alone makes it modern: no _meta is -32602, as before.
    let bare = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let (wire, era) = rejected(http(&headers, bare));
    assert_eq!(wire["error"]["code"], -32602);
    assert_eq!(era, Era::Modern);
}

#[test]
fn modern_meta_without_the_header_is_modern_and_needs_the_headers() {
    let list = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#);
    let (wire, _) = rejected(http(&[], &list));
    assert_eq!(wire["error"]["code"], -32020, "{wire}");
    let (wire, _) = rejected(http(&[("MCP-Protocol-Version", "2025-11-25")], &list));
    assert_eq!(wire["error"]["code"], -32020, "{wire}");
    // Only the capabilities key says modern, too.
    let caps = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let (wire, _) = rejected(http(&[], caps));
    assert_eq!(wire["error"]["code"], -32602, "{wire}");
}

#[test]
fn modern_only_methods_without_meta_are_modern() {
    let discover = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#;
    let (wire, era) = rejected(http(&[], discover));
    assert_eq!(wire["error"]["code"], -32602);
    assert_eq!(era, Era::Modern);
}

#[test]
fn everything_else_is_legacy_with_the_header_version_or_2025_03_26() {
    let list = r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#;
    let Classified::Legacy(request) = http(&[], list) else { panic!() };
    assert_eq!((request.version, request.method.as_ref()), (LEGACY_ASSUMED, "tools/list"));
    assert!(request.params.to_map().is_empty());
    let Classified::Legacy(request) = http(&[("mcp-protocol-version", " 2025-06-18 ")], list)
    else {
        panic!()
    };
    assert_eq!(request.version, "2025-06-18");
    // A progress token in _meta is not the modern envelope.
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1}}}"#;
    assert!(matches!(http(&[], call), Classified::Legacy(_)));
}

#[test]
fn an_unsupported_or_malformed_legacy_header_is_400_naming_every_version() {
    let list = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#;
    let (wire, _) = rejected(http(&[("MCP-Protocol-Version", "2024-11-05")], list));
    assert_eq!(wire["id"], 3);
    assert_eq!(wire["error"]["code"], -32022);
    assert_eq!(
        wire["error"]["data"],
        json!({"supported": ALL_VERSIONS, "requested": "2024-11-05"})
    );
    let (wire, _) = rejected(http(
        &[("MCP-Protocol-Version", "2025-11-25"), ("MCP-Protocol-Version", "2025-11-25")],
        list,
    ));
    assert_eq!(wire["error"]["code"], -32600);
    assert!(wire["error"]["message"].as_str().unwrap().contains("sent 2 times"), "{wire}");
}

#[test]
fn notifications_and_envelope_errors_do_not_depend_on_the_era() {
    let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert!(matches!(
        http(&[("MCP-Protocol-Version", "bogus")], note),
        Classified::Notification { .. }
    ));
    let (wire, _) = rejected(http(&[], "[1]"));
    assert_eq!(wire["error"]["code"], -32600);
    let (wire, _) = rejected(http(&[], "{"));
    assert_eq!(wire["error"]["code"], -32700);
}

#[test]
fn stdio_has_no_header_layer() {
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t",{META}}}}}"#
    );
    // Over HTTP the missing Mcp-Method and Mcp-Name would be -32020; stdio has none.
    assert!(matches!(run(Transport::Stdio, &[], &call), Classified::Modern(_)));
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    assert!(matches!(run(Transport::Stdio, &[], list), Classified::Legacy(_)));
}

#[test]
fn initialize_negotiates_a_legacy_version() {
    let params = |v: Value| Params::from(v.as_object().unwrap().clone());
    for asked in ["2025-11-25", "2025-06-18", "2025-03-26"] {
        assert_eq!(negotiate(&params(json!({"protocolVersion": asked}))), Ok(asked));
    }
    for other in ["2024-11-05", "2026-07-28", "banana"] {
        assert_eq!(negotiate(&params(json!({"protocolVersion": other}))), Ok("2025-11-25"));
    }
    assert_eq!(negotiate(&params(json!({}))).unwrap_err().code, ErrorCode::INVALID_PARAMS);
    let wrong = negotiate(&params(json!({"protocolVersion": 7}))).unwrap_err();
    assert!(wrong.message.contains("got a number"), "{}", wrong.message);
}
