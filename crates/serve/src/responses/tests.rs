//! Unit tests for `crate::responses`.

use bytes::Bytes;
use hyper::StatusCode;

use crate::responses::{BodyRefusal, refused_body};
use crate::testing::{body, header, headers};
use crate::{accepts, accepts_html, json_response, method_not_allowed, not_found};

#[test]
fn json_response_headers() {
    let response = json_response(StatusCode::CREATED, Bytes::from_static(b"{\"a\":1}"));
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(header(&response, "content-type"), Some("application/json"));
    assert_eq!(header(&response, "cache-control"), Some("no-store"));
    assert_eq!(body(response), "{\"a\":1}");
}

#[test]
fn method_not_allowed_lists_methods() {
    let response = method_not_allowed("GET, HEAD,OPTIONS");
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(header(&response, "allow"), Some("GET, HEAD,OPTIONS"));
    assert_eq!(
        body(response),
        r#"{"error":"method not allowed","allow":["GET","HEAD","OPTIONS"]}"#
    );
}

#[test]
fn not_found_names_the_path() {
    let response = not_found("/feeds/\"odd\"");
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(body(response), r#"{"error":"not found","path":"/feeds/\"odd\""}"#);
}

#[test]
fn refused_bodies_close_with_the_refusal_status() {
    let too_large = BodyRefusal::TooLarge { limit_bytes: 16 };
    for (refusal, status, text) in [
        (too_large, 413, r#"{"error":"payload too large","limit_bytes":16}"#),
        (BodyRefusal::Unreadable, 400, r#"{"error":"unreadable request body"}"#),
    ] {
        let response = refused_body(refusal.json_response(), refusal);
        assert_eq!(response.status().as_u16(), status, "{refusal:?}");
        assert_eq!(header(&response, "connection"), Some("close"), "{refusal:?}");
        assert_eq!(body(response), text, "{refusal:?}");
    }

    // Whatever status a handler's answer carries, the refusal's is sent.
    let response = refused_body(not_found("/"), too_large);
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[test]
fn refusal_messages_say_what_went_wrong() {
    assert_eq!(
        BodyRefusal::TooLarge { limit_bytes: 1_048_576 }.message(),
        "request body too large: the limit is 1048576 bytes"
    );
    assert!(BodyRefusal::Unreadable.message().contains("malformed chunked encoding"));
}

#[track_caller]
fn check_html(accept: &str, expect: bool) {
    assert_eq!(accepts_html(&headers(&[("accept", accept)])), expect, "{accept:?}");
}

#[test]
fn html_detection() {
    check_html("text/html,application/xhtml+xml,*/*;q=0.8", true);
    check_html("TEXT/HTML", true);
    check_html("application/json", false);
    check_html("*/*", false);
    check_html("text/html;q=0, application/json", false);
    check_html("text/html;level=1;q=0.5", true);
    check_html("text/html;q=abc", false);
    assert!(!accepts_html(&headers(&[])));
}

/// A malformed `q` has no weight to read: the element counts as not listed, whoever asks.
#[test]
fn accept_elements_with_a_malformed_q_are_not_listed() {
    let accept = |value: &str| headers(&[("accept", value)]);
    let json = ["application/json", "*/*"];
    assert!(accepts(&accept("application/json"), &json));
    assert!(accepts(&accept("Application/JSON; charset=utf-8; q=0.5"), &json));
    assert!(accepts(&accept("text/plain, */*;q=0.1"), &json));
    for malformed in ["q=abc", "q=2", "q=0.0001", "q=-1", "q=", "q=1.5"] {
        assert!(!accepts(&accept(&format!("application/json;{malformed}")), &json), "{malformed}");
    }
    assert!(!accepts(&accept("application/json;q=0"), &json));
    assert!(!accepts(&accept("text/html"), &json));
    assert!(!accepts(&headers(&[]), &json));
}

#[test]
fn not_found_cuts_a_long_path() {
    let path = format!("/{}", "x".repeat(30_000));
    let text = String::from_utf8(body(not_found(&path)).to_vec()).unwrap();
    assert!(text.len() < 200, "{text}");
    assert!(text.contains("xxx…"), "{text}");
}
