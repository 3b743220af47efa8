//! Unit tests for `crate::representation`: 200, 304, HEAD and gzip.

use bytes::Bytes;
use hyper::{Method, Response, StatusCode, header::HeaderValue};

use crate::representation::fnv1a64;
use crate::testing::{body, gunzip, header};
use crate::{Body, Representation, Request};

const LAST_MODIFIED: i64 = 784_111_777;
const CACHE: &str = "public, max-age=60";
const CACHE_VALUE: HeaderValue = HeaderValue::from_static(CACHE);

fn csv() -> Representation {
    let identity = Bytes::from("shape,carat,price\nround,1.00,5000\n".repeat(100));
    Representation::new(identity, "text/csv", LAST_MODIFIED)
}

fn get(representation: &Representation, pairs: &[(&str, &str)]) -> Response<Body> {
    representation.respond(&Request::new(Method::GET, "/", pairs), &CACHE_VALUE)
}

#[test]
fn etag_is_fnv1a64_of_the_identity_bytes() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    let representation = Representation::new(Bytes::from_static(b"a"), "text/plain", 0);
    assert_eq!(representation.etag(), "\"af63dc4c8601ec8c\"");
    assert_ne!(csv().etag(), representation.etag());
}

#[test]
fn plain_get_is_identity() {
    let representation = csv();
    let response = get(&representation, &[]);
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "etag"), Some(representation.etag()));
    assert_eq!(header(&response, "last-modified"), Some("Sun, 06 Nov 1994 08:49:37 GMT"));
    assert_eq!(header(&response, "cache-control"), Some(CACHE));
    assert_eq!(header(&response, "vary"), Some("Accept-Encoding"));
    assert_eq!(header(&response, "content-type"), Some("text/csv"));
    assert_eq!(header(&response, "content-encoding"), None);
    // hyper writes `Content-Length` from the body's exact size.
    assert_eq!(header(&response, "content-length"), None);
    let length = hyper::body::Body::size_hint(response.body()).exact();
    assert_eq!(length, Some(representation.identity().len() as u64));
    assert_eq!(body(response), representation.identity());
}

#[test]
fn gzip_when_accepted() {
    let representation = csv();
    let response = get(&representation, &[("accept-encoding", "br, gzip")]);
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "content-encoding"), Some("gzip"));
    assert_eq!(header(&response, "vary"), Some("Accept-Encoding"));
    let gzip_etag = representation.etag().replace('"', "");
    assert_eq!(header(&response, "etag"), Some(format!("\"{gzip_etag}-gz\"").as_str()));
    let length = hyper::body::Body::size_hint(response.body()).exact().unwrap();
    let compressed = body(response);
    assert_eq!(compressed.len() as u64, length);
    assert!(compressed.len() < representation.identity().len());
    assert_eq!(gunzip(&compressed), *representation.identity());
}

#[test]
fn gzip_refused_by_q_zero() {
    let response = get(&csv(), &[("accept-encoding", "gzip;q=0, br")]);
    assert_eq!(header(&response, "content-encoding"), None);
}

#[test]
fn incompressible_bodies_have_only_identity_and_its_tag() {
    let representation = Representation::new(Bytes::from_static(b"{}"), "application/json", 0);
    let response = get(&representation, &[("accept-encoding", "gzip")]);
    assert_eq!(header(&response, "content-encoding"), None);
    assert_eq!(header(&response, "etag"), Some(representation.etag()));
    assert_eq!(body(response), "{}");
    let tag = representation.etag().trim_matches('"').to_owned();
    for (tag, expect) in
        [(format!("\"{tag}\""), 304), (format!("\"{tag}-gz\""), 200), ("\"\"".into(), 200)]
    {
        let response = get(&representation, &[("if-none-match", &tag)]);
        assert_eq!(response.status().as_u16(), expect, "{tag}");
    }
}

#[test]
fn head_has_get_headers_and_no_body() {
    let representation = csv();
    for accept_encoding in ["identity", "gzip"] {
        let pairs = [("accept-encoding", accept_encoding)];
        let got = get(&representation, &pairs);
        let head = representation.respond(&Request::new(Method::HEAD, "/", &pairs), &CACHE_VALUE);
        assert_eq!(head.status(), StatusCode::OK);
        // The `Content-Length` hyper writes for the GET, set here since no body is sent.
        let length = hyper::body::Body::size_hint(got.body()).exact().unwrap();
        let mut expected = got.headers().clone();
        expected.insert("content-length", length.into());
        assert_eq!(head.headers(), &expected);
        assert!(body(head).is_empty());
    }
}

#[track_caller]
fn check_status(pairs: &[(&str, &str)], expect: StatusCode) {
    assert_eq!(get(&csv(), pairs).status(), expect, "{pairs:?}");
}

#[test]
fn if_none_match() {
    let representation = csv();
    let tag = representation.etag().trim_matches('"').to_owned();
    let identity = format!("\"{tag}\"");
    let gzip = format!("\"{tag}-gz\"");
    let weak = format!("W/\"{tag}\"");
    let list = format!("\"0000000000000000\", {gzip}");
    for matching in [identity.as_str(), &gzip, &weak, &list, "*"] {
        check_status(&[("if-none-match", matching)], StatusCode::NOT_MODIFIED);
    }
    check_status(&[("if-none-match", "\"0000000000000000\"")], StatusCode::OK);
    check_status(&[("if-none-match", "garbage")], StatusCode::OK);
}

#[test]
fn not_modified_carries_validators_and_no_body() {
    let representation = csv();
    let pairs = [("if-none-match", representation.etag()), ("accept-encoding", "gzip")];
    let response = get(&representation, &pairs);
    assert_eq!(response.status(), StatusCode::NOT_MODIFIED);
    assert!(header(&response, "etag").unwrap().ends_with("-gz\""));
    assert_eq!(header(&response, "cache-control"), Some(CACHE));
    assert_eq!(header(&response, "last-modified"), Some("Sun, 06 Nov 1994 08:49:37 GMT"));
    assert_eq!(header(&response, "vary"), Some("Accept-Encoding"));
    assert_eq!(header(&response, "content-length"), None);
    assert_eq!(header(&response, "content-encoding"), None);
    assert!(body(response).is_empty());
}

#[test]
fn if_modified_since() {
    let same = "Sun, 06 Nov 1994 08:49:37 GMT";
    check_status(&[("if-modified-since", same)], StatusCode::NOT_MODIFIED);
    check_status(
        &[("if-modified-since", "Mon, 07 Nov 1994 00:00:00 GMT")],
        StatusCode::NOT_MODIFIED,
    );
    check_status(&[("if-modified-since", "Sun, 06 Nov 1994 08:49:36 GMT")], StatusCode::OK);
    check_status(&[("if-modified-since", "nonsense")], StatusCode::OK);
    // If-None-Match takes precedence: a miss there means 200 even if the date matches.
    let pairs = [("if-none-match", "\"0000000000000000\""), ("if-modified-since", same)];
    check_status(&pairs, StatusCode::OK);
}

#[test]
fn conditions_apply_to_get_and_head_only() {
    let response =
        csv().respond(&Request::new(Method::POST, "/", &[("if-none-match", "*")]), &CACHE_VALUE);
    assert_eq!(response.status(), StatusCode::OK);
}

#[test]
fn added_headers_go_with_every_answer() {
    let representation = csv().with_headers(|headers| {
        headers.insert("x-origin", hyper::header::HeaderValue::from_static("feeds"));
        headers.insert("vary", hyper::header::HeaderValue::from_static("Accept, Accept-Encoding"));
    });
    let etag = representation.etag().to_owned();
    for pairs in [
        vec![],
        vec![("accept-encoding", "gzip")],
        vec![("if-none-match", etag.as_str())],
        vec![("if-none-match", etag.as_str()), ("accept-encoding", "gzip")],
    ] {
        let response = get(&representation, &pairs);
        assert_eq!(header(&response, "x-origin"), Some("feeds"), "{pairs:?}");
        assert_eq!(header(&response, "vary"), Some("Accept, Accept-Encoding"), "{pairs:?}");
        assert_eq!(header(&response, "cache-control"), Some(CACHE), "{pairs:?}");
    }
}

#[test]
fn cache_control_is_set_when_added_headers_moved_its_slot() {
    let representation = csv().with_headers(|headers| {
        headers.remove(hyper::header::CACHE_CONTROL);
        headers.remove(hyper::header::ETAG);
    });
    for pairs in [vec![], vec![("if-modified-since", "Sun, 06 Nov 2094 08:49:37 GMT")]] {
        let response = get(&representation, &pairs);
        assert_eq!(header(&response, "cache-control"), Some(CACHE), "{pairs:?}");
        assert_eq!(header(&response, "etag"), None, "{pairs:?}");
    }
}

/// A per-request representation compresses only for a client that prefers gzip and whose
/// tag does not already match; its tags are those of the prebuilt one.
#[test]
fn a_per_request_representation_compresses_only_when_it_is_sent() {
    let identity = Bytes::from("shape,carat,price\nround,1.00,5000\n".repeat(100));
    let prebuilt = csv();
    let build = |pairs: &[(&str, &str)]| {
        let request = Request::new(Method::GET, "/", pairs);
        let built =
            Representation::for_request(identity.clone(), "text/csv", LAST_MODIFIED, &request);
        (built.gzip.is_some(), built.respond(&request, &CACHE_VALUE))
    };
    let (compressed, plain) = build(&[]);
    assert!(!compressed, "nobody asked for gzip");
    assert_eq!(header(&plain, "etag"), Some(prebuilt.etag()));
    let (compressed, gzipped) = build(&[("accept-encoding", "gzip")]);
    assert!(compressed);
    assert_eq!(header(&gzipped, "content-encoding"), Some("gzip"));
    let tag = header(&gzipped, "etag").unwrap().to_owned();
    assert_eq!(tag, format!("\"{:016x}-gz\"", fnv1a64(&identity)));
    assert_eq!(gunzip(&body(gzipped)), identity);
    let (compressed, not_modified) =
        build(&[("accept-encoding", "gzip"), ("if-none-match", tag.as_str())]);
    assert!(compressed, "the gzip variant's tag, without compressing: a 304 has no body");
    assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(header(&not_modified, "etag"), Some(tag.as_str()));
}
