//! Bounded errors: whatever a request holds, no answer of the handler exceeds 16 KiB,
//! and a request with 100,000 unknown arguments is answered without naming them all.

use hyper::Method;
use serde_json::{Value, json};
use serve::Handler;
use test_support::http::{MODERN_META, exchange_blocking, mcp_headers, mcp_post};

use crate::support::{meta, service};

/// The largest error body the endpoint may send, whatever the input.
const ERROR_BYTES_MAX: usize = 16 * 1024;

/// A long run of one character, far over any quoting limit.
fn long(c: char) -> String {
    std::iter::repeat_n(c, 900_000).collect()
}

/// POSTs `body` with the headers a 2026-07-28 client sends for `method` / `name`, plus
/// `extra`; returns the status and the body.
fn post(body: &Value, method: &str, name: Option<&str>, extra: &[(&str, &str)]) -> (u16, String) {
    let mut headers = mcp_headers(method, name);
    headers.extend_from_slice(extra);
    post_raw(body.to_string().into_bytes(), &headers)
}

/// POSTs `body` as sent, with `headers`; returns the status and the body.
fn post_raw(body: Vec<u8>, headers: &[(&str, &str)]) -> (u16, String) {
    let request = serve::Request::new(Method::POST, "/", headers).with_body(body);
    let response = service().handle(request);
    let status = response.status().as_u16();
    let mut frame = std::pin::pin!(response.into_body());
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let text = match hyper::body::Body::poll_frame(frame.as_mut(), &mut cx) {
        std::task::Poll::Ready(Some(Ok(frame))) => {
            String::from_utf8(frame.into_data().unwrap().to_vec()).unwrap()
        }
        _ => String::new(),
    };
    (status, text)
}

fn call(tool: &str, arguments: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments, "_meta": meta() },
    })
}

#[track_caller]
fn check_bounded((status, body): (u16, String), expect_status: u16, expect_text: &str) {
    assert_eq!(status, expect_status, "{}", &body[..body.len().min(500)]);
    assert!(body.len() <= ERROR_BYTES_MAX, "{} bytes: {}", body.len(), &body[..500]);
    assert!(body.contains(expect_text), "{body}");
}

/// POSTs a modern `tools/call` of `tool` whose `arguments` are the JSON text `arguments`
/// as sent (names may repeat); returns the status and the body.
fn call_raw(tool: &str, arguments: &str) -> (u16, String) {
    let text = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},"_meta":{MODERN_META}}}}}"#
    );
    post_raw(text.into_bytes(), &mcp_headers("tools/call", Some(tool)))
}

/// The error object of an `isError` tool result (its JSON text item) and the arguments
/// its problems name, in order.
fn argument_errors(reply: &str) -> (Value, Vec<String>) {
    let reply: Value = serde_json::from_str(reply).unwrap();
    let error: Value =
        serde_json::from_str(reply["result"]["content"][1]["text"].as_str().unwrap()).unwrap();
    let named = error["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["argument"].as_str().unwrap().to_owned())
        .collect();
    (error, named)
}

#[test]
fn one_hundred_thousand_unknown_arguments_are_counted_not_listed() {
    let mut arguments = serde_json::Map::new();
    for i in 0..100_000 {
        arguments.insert(format!("k{i:06}"), json!(1));
    }
    arguments.insert("carat".to_owned(), json!(1.0));
    let body = call("get_diamond_price", Value::Object(arguments));
    let answer = post(&body, "tools/call", Some("get_diamond_price"), &[]);
    check_bounded(answer.clone(), 200, "and 99992 more unknown arguments");
    // The first eight in sorted order are named; the known argument's problems follow.
    let (error, named) = argument_errors(&answer.1);
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    assert_eq!(
        named[..8],
        ["k000000", "k000001", "k000002", "k000003", "k000004", "k000005", "k000006", "k000007"]
    );
    assert!(named[8..].contains(&"color"), "{named:?}");
    assert_eq!(error["error"]["moreUnknownArguments"], 99_992);
}

#[test]
fn repeats_of_a_listed_unknown_name_are_not_counted_as_more() {
    let (status, text) = call_raw("get_dcx_index", r#"{"a":1,"a":2,"a":3}"#);
    assert_eq!(status, 200);
    assert!(text.contains(r#"unknown argument \"a\"; allowed arguments: none"#), "{text}");
    assert!(!text.contains("more unknown"), "{text}");
}

#[test]
fn names_another_tool_reads_are_unknown_here_and_ranked_with_the_rest() {
    // `color` and `shape` are kept when the request is read (get_diamond_price reads
    // them) but are unknown to get_market_depth; the other names are only counted there.
    let others: String = (0..10).map(|i| format!(r#","m{i:02}":1"#)).collect();
    let arguments =
        format!(r#"{{"carat":1,"zz":1,"color":"G","aa":1,"color":"H","shape":"x"{others}}}"#);
    let (status, text) = call_raw("get_market_depth", &arguments);
    assert_eq!(status, 200);
    let (error, named) = argument_errors(&text);
    assert_eq!(named, ["aa", "color", "m00", "m01", "m02", "m03", "m04", "m05"]);
    // 15 unknown members sent; the 9 of the listed names (color twice) are not "more".
    assert_eq!(error["error"]["moreUnknownArguments"], 6);
    assert!(text.contains("and 6 more unknown arguments"), "{text}");
}

#[test]
fn repeats_of_a_name_another_tool_reads_count_as_sent() {
    // `shape` is kept once when the request is read (get_diamond_price reads it), with
    // how often it came; to get_market_depth it is unknown and, beyond the 8 listed
    // names, counted each time it was sent.
    let listed: String = (0..8).map(|i| format!(r#","a{i}":1"#)).collect();
    let arguments = format!(r#"{{"carat":1,"shape":"x","shape":"y"{listed}}}"#);
    let (status, text) = call_raw("get_market_depth", &arguments);
    assert_eq!(status, 200);
    let (error, named) = argument_errors(&text);
    assert_eq!(named, ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"]);
    assert_eq!(error["error"]["moreUnknownArguments"], 2, "{text}");
}

#[test]
fn huge_values_are_quoted_cut() {
    let huge = long('x');
    let arguments = json!({ "carat": huge, "color": huge, "clarity": huge, "shape": huge });
    let answer =
        post(&call("get_diamond_price", arguments), "tools/call", Some("get_diamond_price"), &[]);
    check_bounded(answer, 200, "(900000 bytes)");
    let answer = post(&call(&huge, json!({})), "tools/call", Some(&huge), &[]);
    check_bounded(answer, 400, "(900000 bytes)");
}

#[test]
fn huge_envelopes_get_short_errors() {
    let huge = long('m');
    let unknown_method =
        json!({ "jsonrpc": "2.0", "id": 1, "method": huge, "params": { "_meta": meta() } });
    check_bounded(post(&unknown_method, &huge, None, &[]), 404, "(900000 bytes)");
    let huge_id = json!({ "jsonrpc": "2.0", "id": huge, "method": "tools/list", "params": { "_meta": meta() } });
    check_bounded(post(&huge_id, "tools/list", None, &[]), 400, "id must be a string of at most");
    let version = json!({ "jsonrpc": vec![huge.clone(); 1], "id": 1, "method": "tools/list" });
    check_bounded(post(&version, "tools/list", None, &[]), 400, "jsonrpc must be");
    let cursor = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "cursor": huge, "_meta": meta() } });
    check_bounded(post(&cursor, "tools/list", None, &[]), 400, "unknown cursor");
    let legacy = json!({ "jsonrpc": "2.0", "id": 1, "method": huge, "params": {} });
    let headers = [("content-type", "application/json"), ("accept", "application/json")];
    check_bounded(post_raw(legacy.to_string().into_bytes(), &headers), 200, "(900000 bytes)");
    let origin = format!("https://{}.example", "o".repeat(30_000));
    let list =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": meta() } });
    check_bounded(post(&list, "tools/list", None, &[("origin", &origin)]), 403, "is not allowed");
}

/// With `--rate-limit-per-ip`, a client over its rate on `POST /` gets 429 with
/// `Retry-After` and a JSON-RPC error body; the documents are not metered.
#[test]
fn over_the_rate_post_gets_429_with_a_json_rpc_error() {
    let mut config = crate::support::config();
    config.limits.rate_limit_per_ip = Some(serve::RateLimit { per_second: 0.5, burst: 1 });
    let addr = crate::support::serve(config);
    let body =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": meta() } })
            .to_string();
    let post = mcp_post(&addr.to_string(), &[], &body);
    assert_eq!(exchange_blocking(addr, post.as_bytes()).status, 200);
    let refused = exchange_blocking(addr, post.as_bytes());
    assert_eq!(refused.status, 429);
    assert_eq!(refused.header("retry-after"), Some("2"));
    let error = &refused.json()["error"];
    assert_eq!(error["code"], -32000);
    assert_eq!(error["data"]["retryAfterSecs"], 2);
    let health = test_support::http::get_blocking(&addr.to_string(), "/health");
    assert_eq!(health.status, 200);
}

/// A body not whole in time gets 408 with a JSON-RPC error naming the limit, and a
/// request with two `Host` fields gets 400, both closing the connection.
#[test]
fn a_late_body_gets_408_and_two_hosts_get_400() {
    use std::io::{Read, Write};
    let mut config = crate::support::config();
    config.limits.body_read_timeout = std::time::Duration::from_millis(200);
    let addr = crate::support::serve(config);
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/list\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\""
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 408 "), "{reply}");
    let body: Value = serde_json::from_str(reply.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["error"]["code"], -32600);
    assert_eq!(body["error"]["data"]["limitSecs"], 1);

    let two = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nHost: other\r\n\r\n");
    let refused = exchange_blocking(addr, two.as_bytes());
    assert_eq!(refused.status, 400);
    assert!(refused.text().contains("one Host header"), "{}", refused.text());
}
