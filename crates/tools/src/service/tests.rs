//! Tests of routing that need no socket (the socket-level goldens are in `tests/it`).

use std::sync::Arc;

use bytes::Bytes;
use chrono::TimeZone;
use hyper::{HeaderMap, Method, header::HeaderName, header::HeaderValue};
use serve::{Handler, Request};

use crate::{Config, handler};

fn service() -> crate::ToolService {
    let live =
        Arc::new(datasets::Live::fixed(datasets::History::single(datasets::Snapshot::reference())));
    let now = chrono::Utc.timestamp_millis_opt(0).unwrap();
    let config = Config::new(live, Arc::new(move || std::time::SystemTime::from(now)));
    handler(&config, ([127, 0, 0, 1], 8081).into())
}

fn request(method: Method, path: &str, headers: &[(&str, &str)]) -> Request {
    let mut map = HeaderMap::new();
    for (n, v) in headers {
        map.append(
            HeaderName::from_bytes(n.as_bytes()).unwrap(),
            HeaderValue::from_str(v).unwrap(),
        );
    }
    Request {
        method,
        uri: path.parse().unwrap(),
        headers: map,
        body: Bytes::new(),
        peer: ([127, 0, 0, 1], 1).into(),
    }
}

#[test]
fn the_default_endpoint_and_docs_follow_the_listen_address() {
    let s = service();
    assert_eq!(s.endpoint_url(), "http://127.0.0.1:8081/");
    let r = s.handle(request(Method::GET, "/", &[("accept", "text/html")]));
    assert_eq!(r.status(), 302);
    assert_eq!(r.headers()["location"], "http://127.0.0.1:8081/docs");
    assert_eq!(s.handle(request(Method::GET, "/docs", &[])).status(), 200);
}

#[test]
fn get_without_html_and_delete_are_405() {
    let s = service();
    for method in [Method::GET, Method::DELETE, Method::PUT] {
        let r = s.handle(request(method, "/", &[("accept", "application/json")]));
        assert_eq!(r.status(), 405);
        assert_eq!(r.headers()["allow"], "POST");
    }
}

#[test]
fn a_foreign_origin_is_forbidden_everywhere_on_the_endpoint() {
    let s = service();
    for method in [Method::POST, Method::GET, Method::OPTIONS] {
        let r = s.handle(request(method, "/", &[("origin", "http://evil.example.com")]));
        assert_eq!(r.status(), 403);
    }
    let r = s.handle(request(Method::OPTIONS, "/", &[("origin", "http://localhost:5173")]));
    assert_eq!(r.status(), 204);
}

#[test]
fn unknown_paths_are_404() {
    assert_eq!(service().handle(request(Method::GET, "/nope", &[])).status(), 404);
}

/// Per-route metrics label a request by its place in `ROUTES`: every one of them is a
/// path this service answers (GET, or POST for the endpoint), and any other is `None`.
#[test]
fn every_metrics_route_is_answered_and_other_paths_are_none() {
    let s = service();
    for (place, path) in crate::ROUTES.into_iter().enumerate() {
        assert_eq!(s.route(path), Some(place), "{path}");
        let answer = s.handle(request(Method::GET, path, &[("accept", "text/html")]));
        assert_ne!(answer.status(), 404, "{path}");
    }
    for path in ["/x", "/health/", "/docs/", ""] {
        assert_eq!(s.route(path), None, "{path:?}");
    }
}
