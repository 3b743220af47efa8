//! Tests of the endpoint's HTTP helpers.

use hyper::{HeaderMap, header::HeaderValue};

use crate::http::{COMMON_JSON_ACCEPT, Fields, JSON_ANSWER, host_of};

fn headers(name: &'static str, value: &'static str) -> HeaderMap {
    let mut map = HeaderMap::new();
    map.insert(name, HeaderValue::from_static(value));
    map
}

/// Whether `headers` declare a JSON body, as the endpoint reads them.
fn content_is_json(headers: &HeaderMap) -> bool {
    Fields::read(headers).content_is_json
}

/// Whether `headers` accept a JSON answer, as the endpoint reads them.
fn accepts_json(headers: &HeaderMap) -> bool {
    Fields::read(headers).accepts_json(headers)
}

#[test]
fn host_is_taken_from_the_public_url() {
    assert_eq!(host_of("http://127.0.0.1:8081/"), "127.0.0.1");
    assert_eq!(host_of("https://MCP.Example.com/mcp?x=1"), "mcp.example.com");
    assert_eq!(host_of("https://user@[::1]:9/"), "[::1]");
    assert_eq!(host_of("example.org"), "example.org");
}

#[test]
fn media_types_are_read_with_parameters_and_weights() {
    assert!(content_is_json(&headers("content-type", "application/json; charset=utf-8")));
    assert!(content_is_json(&headers("content-type", "Application/JSON")));
    assert!(!content_is_json(&headers("content-type", "text/plain")));
    assert!(!content_is_json(&HeaderMap::new()));
    assert!(content_is_json(&headers("content-type", " application/json ;charset=utf-8")));
    assert!(!content_is_json(&headers("content-type", "application/jsonx")));
    assert!(accepts_json(&HeaderMap::new()));
    assert!(accepts_json(&headers("accept", "application/json, text/event-stream")));
    assert!(accepts_json(&headers("accept", "*/*")));
    assert!(!accepts_json(&headers("accept", "text/event-stream")));
    assert!(!accepts_json(&headers("accept", "application/json;q=0, text/html")));
}

#[test]
fn one_pass_reads_the_origin_and_the_routing_headers_too() {
    let mut map = headers("origin", "http://127.0.0.1:5173");
    map.append("origin", HeaderValue::from_static("http://second"));
    map.append("mcp-method", HeaderValue::from_static("tools/list"));
    map.append("Content-Type", HeaderValue::from_static("text/plain"));
    map.append("Content-Type", HeaderValue::from_static("application/json"));
    map.append("accept", HeaderValue::from_static("text/html"));
    let fields = Fields::read(&map);
    assert_eq!(fields.origin.map(HeaderValue::as_bytes), Some(&b"http://127.0.0.1:5173"[..]));
    assert_eq!(fields.routing.sent("Mcp-Method"), (Some(&b"tools/list"[..]), 1));
    assert!(fields.content_is_json, "any Content-Type field naming JSON counts");
    assert!(!fields.accepts_json(&map));
}

#[test]
fn the_values_answered_without_parsing_pass_the_parse() {
    for value in COMMON_JSON_ACCEPT {
        let text = std::str::from_utf8(value).unwrap();
        assert!(serve::accepts(&headers("accept", text), &JSON_ANSWER), "{text:?}");
    }
}

/// The tool server reads `Accept` as the feed server does (`serve::accepts`): an element
/// with a malformed `q` is not counted.
#[test]
fn a_malformed_q_is_read_as_everywhere() {
    assert!(!accepts_json(&headers("accept", "application/json;q=abc")));
    assert!(!accepts_json(&headers("accept", "application/json;q=2")));
    assert!(accepts_json(&headers("accept", "application/json;q=abc, */*;q=0.1")));
    assert!(accepts_json(&headers("accept", "application/*;q=0.5")));
}

#[test]
fn the_ready_protocol_header_name_is_the_protocols() {
    assert!(
        super::PROTOCOL_VERSION_HEADER
            .as_str()
            .eq_ignore_ascii_case(jsonrpc::HEADER_PROTOCOL_VERSION)
    );
}
