//! Unit tests of the metrics endpoint's answers.

use std::sync::Arc;

use hyper::{Method, StatusCode};
use serve::Handler;

use crate::metrics::MetricsPage;

fn page() -> MetricsPage {
    let history = datasets::History::single(datasets::Snapshot::reference());
    let live = Arc::new(datasets::Live::fixed(history));
    let clock: serve::Clock = Arc::new(std::time::SystemTime::now);
    MetricsPage(Arc::new(telemetry::Metrics::new("1.2.3", live, clock)))
}

fn ask(method: Method, target: &'static str) -> hyper::Response<serve::Body> {
    page().handle(serve::Request::new(method, target, &[]))
}

#[test]
fn get_metrics_is_the_openmetrics_text_never_cached() {
    let response = ask(Method::GET, "/metrics");
    assert_eq!(response.status(), StatusCode::OK);
    let header = |name| response.headers()[name].to_str().unwrap().to_owned();
    assert_eq!(header("content-type"), telemetry::CONTENT_TYPE);
    assert_eq!(header("cache-control"), "no-store");
    let length = hyper::body::Body::size_hint(response.body()).exact().unwrap();
    assert!(length > 100, "{length} bytes");
}

#[test]
fn other_paths_and_methods_are_refused() {
    assert_eq!(ask(Method::GET, "/").status(), StatusCode::NOT_FOUND);
    assert_eq!(ask(Method::GET, "/metrics/").status(), StatusCode::NOT_FOUND);
    let post = ask(Method::POST, "/metrics");
    assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(post.headers()["allow"], "GET, HEAD");
}
