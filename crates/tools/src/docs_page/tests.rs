//! Unit tests of `/docs`: rendered for browsers with the real URLs, Markdown otherwise.

use hyper::header::{ACCEPT, HeaderValue};

use super::*;

#[test]
fn browsers_get_html_with_the_real_urls() {
    let docs = Docs::new("https://mcp.example.org/", "https://feeds.example.org");
    let mut headers = HeaderMap::new();
    headers.insert(ACCEPT, HeaderValue::from_static("text/html,application/xhtml+xml"));
    let (body, kind) = docs.pick(&headers);
    assert_eq!(kind, "text/html; charset=utf-8");
    let html = std::str::from_utf8(&body).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<h1>The MCP tool server</h1>"), "{html}");
    assert!(html.contains("<table>"));
    assert!(html.contains("URL=https://mcp.example.org/"));
    assert!(html.contains("https://feeds.example.org/track?"));
    assert!(!html.contains(EXAMPLE_ENDPOINT));
    assert!(!html.contains("<script"));
}

#[test]
fn other_clients_get_the_markdown() {
    let docs = Docs::new("http://127.0.0.1:9/", "http://127.0.0.1:8");
    let (body, kind) = docs.pick(&HeaderMap::new());
    assert_eq!(kind, "text/markdown; charset=utf-8");
    assert_eq!(&body[..], MARKDOWN.as_bytes());
}

#[test]
fn html_answers_are_locked_down() {
    let mut response = Response::new(Body::default());
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    Docs::finish(&mut response);
    assert_eq!(response.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY);
    assert_eq!(response.headers()[header::VARY], "Accept");
}
