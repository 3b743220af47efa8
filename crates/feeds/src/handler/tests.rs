//! Unit tests for `crate::handler`: dispatch without sockets.

use std::sync::Arc;

use hyper::{Method, Response};
use serve::{Body, Handler, Request};

use crate::{Config, Feeds};

/// 2026-11-20T06:00:00Z, six hours after the reference snapshot.
fn clock() -> serve::Clock {
    let now = chrono::DateTime::from_timestamp(1_795_132_800 + 6 * 3600, 0).unwrap();
    Arc::new(move || std::time::SystemTime::from(now))
}

fn feeds() -> Feeds {
    let live = datasets::Live::open(datasets::Source::Embedded).unwrap().0;
    Feeds::new(Config::new(Arc::new(live), clock()))
}

fn call(feeds: &Feeds, method: Method, target: &str, pairs: &[(&str, &str)]) -> Response<Body> {
    feeds.handle(Request::new(method, target, pairs))
}

fn header<'r>(response: &'r Response<Body>, name: &str) -> Option<&'r str> {
    response.headers().get(name).map(|value| value.to_str().unwrap())
}

#[test]
fn feeds_carry_cache_headers_until_the_next_refresh() {
    let feeds = feeds();
    let response = call(&feeds, Method::GET, "/matrix.json?x=1", &[]);
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "cache-control"), Some("public, max-age=64800"));
    assert_eq!(header(&response, "last-modified"), Some("Fri, 20 Nov 2026 00:00:00 GMT"));
    assert_eq!(header(&response, "access-control-allow-origin"), Some("*"));
    assert_eq!(header(&response, "vary"), Some("Accept-Encoding"));
}

#[test]
fn methods_and_paths() {
    let feeds = feeds();
    assert_eq!(call(&feeds, Method::POST, "/matrix.json", &[]).status(), 405);
    assert_eq!(call(&feeds, Method::DELETE, "/track", &[]).status(), 405);
    assert_eq!(call(&feeds, Method::GET, "/nope", &[]).status(), 404);
    let preflight = call(&feeds, Method::OPTIONS, "/anything", &[("origin", "https://x.test")]);
    assert_eq!(preflight.status(), 204);
    assert_eq!(header(&preflight, "access-control-allow-origin"), Some("*"));
    assert_eq!(header(&preflight, "access-control-allow-methods"), Some("GET, HEAD, OPTIONS"));
}

#[test]
fn head_keeps_the_length_and_drops_the_body() {
    let feeds = feeds();
    let get = call(&feeds, Method::GET, "/health", &[]);
    let head = call(&feeds, Method::HEAD, "/health", &[]);
    let length = hyper::body::Body::size_hint(get.body()).exact().unwrap();
    assert_eq!(header(&head, "content-length"), Some(length.to_string().as_str()));
    assert_eq!(hyper::body::Body::size_hint(head.body()).exact(), Some(0));
}

#[test]
fn index_varies_on_accept() {
    let feeds = feeds();
    let json = call(&feeds, Method::GET, "/", &[]);
    let html = call(&feeds, Method::GET, "/", &[("accept", "text/html,*/*;q=0.8")]);
    assert_eq!(header(&json, "content-type"), Some("application/json"));
    assert_eq!(header(&html, "content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(header(&html, "vary"), Some("Accept, Accept-Encoding"));
    assert_ne!(header(&json, "etag"), header(&html, "etag"));
}

#[test]
fn a_quiet_reload_keeps_the_representations() {
    let feeds = feeds();
    let before =
        header(&call(&feeds, Method::GET, "/matrix.json", &[]), "etag").unwrap().to_owned();
    assert!(!feeds.config().live.reload().is_news(), "the embedded snapshot never changes");
    assert_eq!(feeds.live_ts(), "2026-11-20T00:00:00Z");
    let after = header(&call(&feeds, Method::GET, "/matrix.json", &[]), "etag").unwrap().to_owned();
    assert_eq!(before, after);
}

#[test]
fn every_answer_is_readable_from_any_origin() {
    let feeds = feeds();
    let etag = header(&call(&feeds, Method::GET, "/index.json", &[]), "etag").unwrap().to_owned();
    let revalidate = [("if-none-match", etag.as_str())];
    let cases = [
        (Method::GET, "/matrix.json", &[][..]),
        (Method::GET, "/depth.json", &[("accept-encoding", "gzip")]),
        (Method::HEAD, "/ratio_models.json", &[]),
        (Method::GET, "/index.json", &revalidate),
        (Method::GET, "/", &[("accept", "text/html")]),
        (Method::GET, "/", &[]),
        (Method::GET, "/health", &[]),
        (Method::GET, "/track?shape=round&carat=1&color=G&clarity=VS2", &[]),
        (Method::GET, "/track?shape=blob", &[]),
        (Method::GET, "/nope", &[]),
        (Method::POST, "/matrix.json", &[]),
    ];
    for (method, target, pairs) in cases {
        let response = call(&feeds, method.clone(), target, pairs);
        let what = format!("{method} {target} {pairs:?} -> {}", response.status());
        assert_eq!(header(&response, "access-control-allow-origin"), Some("*"), "{what}");
        assert_eq!(
            header(&response, "access-control-expose-headers"),
            Some("ETag, Last-Modified, Content-Length"),
            "{what}"
        );
    }
}

#[test]
fn only_track_and_a_priced_quote_are_metered() {
    let feeds = feeds();
    let get = |target: &str| Request::new(Method::GET, target, &[]);
    assert!(feeds.is_metered(&get("/track?carat=1")));
    assert!(feeds.is_metered(&get("/quote?carat=1")));
    assert!(feeds.is_metered(&get("/check?carat=1&asking_price_usd=1")));
    assert!(!feeds.is_metered(&get("/quote")), "the empty form is prebuilt work");
    assert!(!feeds.is_metered(&get("/matrix.json")));
    assert!(!feeds.is_metered(&get("/health")));
}
