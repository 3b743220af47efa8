//! Unit tests for `crate::cors`.

use hyper::{Method, StatusCode};

use crate::testing::header;
use crate::{Request, cors_any_origin, json_response, preflight};

#[test]
fn any_origin() {
    let mut response = json_response(StatusCode::OK, "{}".into());
    cors_any_origin(response.headers_mut());
    assert_eq!(header(&response, "access-control-allow-origin"), Some("*"));
    assert_eq!(
        header(&response, "access-control-expose-headers"),
        Some("ETag, Last-Modified, Content-Length")
    );
}

#[test]
fn preflight_echoes_origin() {
    let request = Request::new(Method::OPTIONS, "/", &[("origin", "https://example.com")]);
    let response = preflight(&request, "GET, POST", "Content-Type, Mcp-Session-Id", 600);
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(header(&response, "access-control-allow-origin"), Some("https://example.com"));
    assert_eq!(header(&response, "access-control-allow-methods"), Some("GET, POST"));
    assert_eq!(
        header(&response, "access-control-allow-headers"),
        Some("Content-Type, Mcp-Session-Id")
    );
    assert_eq!(header(&response, "access-control-max-age"), Some("600"));
    assert_eq!(header(&response, "vary"), Some("Origin"));
}

#[test]
fn preflight_without_origin_allows_any() {
    let response = preflight(&Request::new(Method::OPTIONS, "/", &[]), "GET", "", 0);
    assert_eq!(header(&response, "access-control-allow-origin"), Some("*"));
    assert_eq!(header(&response, "access-control-max-age"), Some("0"));
}
