//! Tests of the endpoint's HTTP helpers.

use hyper::{HeaderMap, header::HeaderValue};

use crate::http::{COMMON_JSON_ACCEPT, JSON_ANSWER, accepts_json, content_is_json, host_of};

fn headers(name: &'static str, value: &'static str) -> HeaderMap {
    let mut map = HeaderMap::new();
    map.insert(name, HeaderValue::from_static(value));
    map
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
