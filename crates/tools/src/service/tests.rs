//! Tests of routing that need no socket (the socket-level goldens are in `tests/it`).

use std::sync::Arc;

use bytes::Bytes;
use hyper::Method;
use serve::{Handler, Request};

use crate::{Config, handler};

/// The service over `live`, stopped at the epoch, listening on `127.0.0.1:8081`.
fn service_of(live: Arc<datasets::Live>) -> crate::ToolService {
    let config = Config::new(live, Arc::new(|| std::time::SystemTime::UNIX_EPOCH));
    handler(&config, ([127, 0, 0, 1], 8081).into())
}

fn service() -> crate::ToolService {
    let history = datasets::History::single(datasets::Snapshot::reference());
    service_of(Arc::new(datasets::Live::fixed(history)))
}

#[test]
fn the_default_endpoint_and_docs_follow_the_listen_address() {
    let s = service();
    assert_eq!(s.endpoint_url(), "http://127.0.0.1:8081/");
    let r = s.handle(Request::new(Method::GET, "/", &[("accept", "text/html")]));
    assert_eq!(r.status(), 302);
    assert_eq!(r.headers()["location"], "http://127.0.0.1:8081/docs");
    assert_eq!(s.handle(Request::new(Method::GET, "/docs", &[])).status(), 200);
}

#[test]
fn get_without_html_and_delete_are_405() {
    let s = service();
    for method in [Method::GET, Method::DELETE, Method::PUT] {
        let r = s.handle(Request::new(method, "/", &[("accept", "application/json")]));
        assert_eq!(r.status(), 405);
        assert_eq!(r.headers()["allow"], "POST");
    }
}

#[test]
fn a_foreign_origin_is_forbidden_everywhere_on_the_endpoint() {
    let s = service();
    for method in [Method::POST, Method::GET, Method::OPTIONS] {
        let r = s.handle(Request::new(method, "/", &[("origin", "http://evil.example.com")]));
        assert_eq!(r.status(), 403);
    }
    let r = s.handle(Request::new(Method::OPTIONS, "/", &[("origin", "http://localhost:5173")]));
    assert_eq!(r.status(), 204);
}

#[test]
fn unknown_paths_are_404() {
    assert_eq!(service().handle(Request::new(Method::GET, "/nope", &[])).status(), 404);
}

/// Per-route metrics label a request by its place in `ROUTES`: every one of them is a
/// path this service answers (GET, or POST for the endpoint), and any other is `None`.
#[test]
fn every_metrics_route_is_answered_and_other_paths_are_none() {
    let s = service();
    for (place, path) in crate::ROUTES.into_iter().enumerate() {
        assert_eq!(s.route(path), Some(place), "{path}");
        let answer = s.handle(Request::new(Method::GET, path, &[("accept", "text/html")]));
        assert_ne!(answer.status(), 404, "{path}");
    }
    for path in ["/x", "/health/", "/docs/", ""] {
        assert_eq!(s.route(path), None, "{path:?}");
    }
}

/// The whole body of a response of one frame, as the service made it (not copied).
fn body(response: hyper::Response<serve::Body>) -> Bytes {
    let mut body = std::pin::pin!(response.into_body());
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match hyper::body::Body::poll_frame(body.as_mut(), &mut cx) {
        std::task::Poll::Ready(Some(frame)) => frame.unwrap().into_data().unwrap(),
        _ => Bytes::new(),
    }
}

/// The manifest is written once per live snapshot: the same bytes are sent again for the
/// same day, and a reload to a day with other sliders gets that day's manifest.
#[test]
fn the_manifest_is_written_once_per_snapshot_and_follows_a_reload() {
    let dir = test_support::TempDir::new("tools-manifest");
    test_support::write_day(&dir.0, "2026-11-13", |_, text| text);
    let source = datasets::Source::History(dir.0.clone());
    let live = Arc::new(datasets::Live::open(source).unwrap().0);
    let s = service_of(Arc::clone(&live));
    let manifest = || body(s.handle(Request::new(Method::GET, "/.well-known/mcp.json", &[])));
    let fresh = || {
        let manifest =
            crate::manifest(s.endpoint_url(), "http://127.0.0.1:8081/docs", live.history().live());
        Bytes::from(manifest.to_string())
    };

    let first = manifest();
    assert_eq!(first, fresh());
    let again = manifest();
    assert_eq!(again.as_ptr(), first.as_ptr(), "the kept bytes, not written again");

    // The next day offers cushions up to 1.4 (1.35 before): the schemas say so.
    test_support::write_day(&dir.0, "2026-11-20", |name, text| {
        if name != "ratio_models.json" {
            return text;
        }
        let mut models: serde_json::Value = serde_json::from_str(&text).unwrap();
        models["shapes"]["cushion"]["slider"]["max"] = serde_json::json!(1.4);
        models.to_string()
    });
    live.reload();
    let second = manifest();
    assert_ne!(second, first);
    assert_eq!(second, fresh());
}
