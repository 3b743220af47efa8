//! Unit tests of `crate::page`: documents round-trip their paths, the sample flag, the
//! OpenAPI description names every route.

use std::sync::Arc;

use datasets::{History, Snapshot};

use super::*;
use crate::served::Served;

#[test]
fn documents_round_trip_their_paths() {
    for document in Document::ALL {
        assert_eq!(Document::from_path(document.path()), Some(document));
        assert_eq!(Document::ALL[document as usize], document);
    }
    assert_eq!(Document::from_path("/matrix.json"), None);
}

#[test]
fn the_reference_snapshot_is_sample_data_and_a_variant_is_not() {
    assert_eq!(sample_note(&History::single(Snapshot::reference())), Some(SAMPLE_NOTE));
    let variant = datasets::reference::generate_variant("2026-11-21T00:00:00Z", 1.01);
    assert_eq!(sample_note(&History::single(Snapshot::parse(variant).unwrap())), None);
}

#[test]
fn the_openapi_description_names_every_route() {
    let text = openapi::document(Snapshot::reference().pricing());
    let openapi: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(openapi["openapi"], "3.1.0");
    let paths = openapi["paths"].as_object().unwrap();
    for route in Route::ALL {
        assert!(paths.contains_key(route.path()), "{} missing from openapi.json", route.path());
    }
    assert_eq!(paths.len(), Route::ALL.len(), "openapi.json names a path that is not a route");
}

#[test]
fn html_answers_carry_the_content_security_policy() {
    let served = Served::new(Arc::new(History::single(Snapshot::reference())), "t", "1");
    let request = serve::Request::new(hyper::Method::GET, "/", &[]);
    let response =
        served.pages.home.respond(&request, &HeaderValue::from_static("public, max-age=60"));
    let headers = response.headers();
    assert_eq!(headers[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY);
    assert_eq!(headers[header::VARY], "Accept, Accept-Encoding");
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert!(CONTENT_SECURITY_POLICY.contains("script-src 'self'"));
    assert!(!CONTENT_SECURITY_POLICY.contains("unsafe"));
}

#[test]
fn the_page_assets_have_no_inline_code_to_block() {
    let served = Served::new(Arc::new(History::single(Snapshot::reference())), "t", "1");
    let html = std::str::from_utf8(served.pages.home.identity()).unwrap();
    assert!(!html.contains(" style="), "inline style attributes break the CSP");
    assert!(!html.contains("<style"), "inline style elements break the CSP");
    let handlers = html.split(" on").skip(1).filter(|rest| {
        let name: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
        !name.is_empty() && rest[name.len()..].starts_with('=')
    });
    assert_eq!(handlers.count(), 0, "inline event handlers break the CSP");
    assert_eq!(html.matches("<script").count(), 1);
    assert!(html.contains(r#"<script src="/site.js" defer></script>"#));
}
