//! Unit tests for step 5 of `classify`: the routing headers against the body.

use serde_json::json;

use super::{CALL, LIST, V, body, check};

#[test]
fn step5_protocol_version_header() {
    let list = body(json!(1), "tools/list", json!({}));
    check(
        &[("Mcp-Method", "tools/list")],
        &list,
        r#"400 -32020 id=1: header MCP-Protocol-Version is missing; it must equal body params._meta["io.modelcontextprotocol/protocolVersion"] "2026-07-28""#,
    );
    check(
        &[("MCP-Protocol-Version", "2025-11-25"), ("Mcp-Method", "tools/list")],
        &list,
        r#"400 -32020 id=1: header MCP-Protocol-Version "2025-11-25" does not match body params._meta["io.modelcontextprotocol/protocolVersion"] "2026-07-28""#,
    );
    check(
        &[("mcp-protocol-version", " 2026-07-28\t"), ("MCP-METHOD", "tools/list")],
        &list,
        "request tools/list id=1",
    );
}

#[test]
fn step5_method_header() {
    let call = body(json!(1), "tools/call", json!({"name": "quote"}));
    check(
        &[("MCP-Protocol-Version", V), ("Mcp-Method", "tools/list"), ("Mcp-Name", "quote")],
        &call,
        r#"400 -32020 id=1: header Mcp-Method "tools/list" does not match body method "tools/call""#,
    );
    check(
        &[("MCP-Protocol-Version", V), ("Mcp-Name", "quote")],
        &call,
        r#"400 -32020 id=1: header Mcp-Method is missing; it must equal body method "tools/call""#,
    );
    check(
        &[("MCP-Protocol-Version", V), ("Mcp-Method", "TOOLS/LIST")],
        &body(json!(1), "tools/list", json!({})),
        r#"400 -32020 id=1: header Mcp-Method "TOOLS/LIST" does not match body method "tools/list""#,
    );
    check(
        &[("MCP-Protocol-Version", V), ("Mcp-Method", "tools/list"), ("mcp-method", "tools/list")],
        &body(json!(1), "tools/list", json!({})),
        r#"400 -32020 id=1: header Mcp-Method is sent 2 times; send it once, equal to body method "tools/list""#,
    );
    check(
        &[("MCP-Protocol-Version", V), ("Mcp-Method", "tools/\x01list")],
        &body(json!(1), "tools/list", json!({})),
        r#"400 -32020 id=1: header Mcp-Method has an invalid byte 0x01; non-ASCII values must use the =?base64?…?= form; it must equal body method "tools/list""#,
    );
}

#[test]
fn step5_name_header() {
    let call = |name: &str| body(json!("c"), "tools/call", json!({"name": name}));
    let ok = r#"request tools/call id="c""#.to_owned();
    let refused = |rest: &str| format!(r#"400 -32020 id="c": header Mcp-Name {rest}"#);
    check(CALL, &call("quote"), &ok);
    for (header, name, expect) in [
        ("  quote  ", "quote", ok.clone()),
        ("=?base64?SGVsbG8sIOS4lueVjA==?=", "Hello, 世界", ok.clone()),
        ("=?base64?ICBxICA=?=", "  q  ", ok.clone()),
        ("=?BASE64?cXVvdGU=?=", "=?BASE64?cXVvdGU=?=", ok.clone()),
        (
            "=?BASE64?cXVvdGU=?=",
            "quote",
            refused(r#""=?BASE64?cXVvdGU=?=" does not match body params.name "quote""#),
        ),
        (
            "=?base64?SGVsbG8sIOS4lueVjA=?=",
            "Hello, 世界",
            refused(
                r#""=?base64?SGVsbG8sIOS4lueVjA=?=" is not valid padded standard base64; it must equal body params.name "Hello, 世界""#,
            ),
        ),
        ("other", "quote", refused(r#""other" does not match body params.name "quote""#)),
        (
            "Hello, 世界",
            "Hello, 世界",
            refused(
                r#"has an invalid byte 0xe4; non-ASCII values must use the =?base64?…?= form; it must equal body params.name "Hello, 世界""#,
            ),
        ),
    ] {
        let headers =
            [("MCP-Protocol-Version", V), ("Mcp-Method", "tools/call"), ("Mcp-Name", header)];
        check(&headers, &call(name), &expect);
    }
    let headers = [("MCP-Protocol-Version", V), ("Mcp-Method", "tools/call")];
    check(
        &headers,
        &call("quote"),
        &refused(r#"is missing; it must equal body params.name "quote""#),
    );
    let twice = [&headers[..], &[("Mcp-Name", "quote"), ("MCP-NAME", "quote")]].concat();
    check(
        &twice,
        &call("quote"),
        &refused(r#"is sent 2 times; send it once, equal to body params.name "quote""#),
    );
}

#[test]
fn step5_name_header_other_methods() {
    let prompt = [("MCP-Protocol-Version", V), ("Mcp-Method", "prompts/get"), ("Mcp-Name", "p")];
    check(
        &prompt,
        &body(json!(1), "prompts/get", json!({"name": "p"})),
        "request prompts/get id=1",
    );
    check(
        &prompt,
        &body(json!(1), "prompts/get", json!({"name": "q"})),
        r#"400 -32020 id=1: header Mcp-Name "p" does not match body params.name "q""#,
    );
    let read =
        [("MCP-Protocol-Version", V), ("Mcp-Method", "resources/read"), ("Mcp-Name", "file:///a")];
    check(
        &read,
        &body(json!(1), "resources/read", json!({"uri": "file:///a"})),
        "request resources/read id=1",
    );
    check(
        &read,
        &body(json!(1), "resources/read", json!({"uri": "file:///b"})),
        r#"400 -32020 id=1: header Mcp-Name "file:///a" does not match body params.uri "file:///b""#,
    );
    // Other methods ignore Mcp-Name, even a duplicated or malformed one.
    let mut list = LIST.to_vec();
    list.extend([("Mcp-Name", "x"), ("Mcp-Name", "=?base64?!?=")]);
    check(&list, &body(json!(1), "tools/list", json!({})), "request tools/list id=1");
}

/// A name or uri that is absent or not a string is left to the method's params check.
#[test]
fn step5_missing_body_name_defers_to_params_check() {
    for (method, params) in [
        ("tools/call", json!({})),
        ("tools/call", json!({"name": 5})),
        ("prompts/get", json!({"name": null})),
        ("resources/read", json!({})),
        ("resources/read", json!({"uri": 5, "name": "n"})),
    ] {
        let headers = [("MCP-Protocol-Version", V), ("Mcp-Method", method), ("Mcp-Name", "x")];
        check(&headers, &body(json!(1), method, params), &format!("request {method} id=1"));
    }
}
