//! Fuzz target: the feed server's query parsing, through its request handler
//! (`feeds::Feeds`, the function the HTTP layer calls): the fuzzer's bytes are the query
//! string of `GET /track?…` and of `GET /quote?…` (bytes a request line cannot carry are
//! percent-encoded first, as a browser would). Seeds: the `/track` links of
//! `fixtures/jsonrpc/*.golden`, the examples of `docs/api.md`, `fuzz/seeds/feed_query/`.
//!
//! Checked for every input: no panic; `/track` answers `200` or `400`, `/quote` `200` or
//! `400`; a `/track` refusal is JSON of at most `fuzz::ERROR_BODY_MAX` bytes naming at
//! most 8 problems, each with its parameter, message and what is allowed; a `/track`
//! answer in JSON echoes the stone and its window (`from`), and asking again with the
//! echoed values alone (the canonical query) gives the same answer byte for byte; a
//! `/quote` page grows at most 6 bytes per query byte (HTML escaping) over the empty
//! form, plus the price section.
#![no_main]

use std::{collections::HashMap, sync::LazyLock};

use bytes::Bytes;
use hyper::{HeaderMap, Method, StatusCode};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, value::RawValue};
use serve::Handler;

static FEEDS: LazyLock<feeds::Feeds> =
    LazyLock::new(|| feeds::Feeds::new(feeds::Config::new(fuzz::live(), fuzz::clock())));

/// The calculator page without a query: the empty form.
static EMPTY_FORM_BYTES: LazyLock<usize> = LazyLock::new(|| get("/quote", b"").1.len());

/// Most problems a `/track` refusal names (`docs/reliability.md`).
const LISTED_PROBLEMS_MAX: usize = 8;

fn get(path: &str, query: &[u8]) -> (StatusCode, Bytes) {
    let uri = fuzz::target(path, query);
    let request = fuzz::request(Method::GET, uri, HeaderMap::new(), Bytes::new());
    let (head, body) = fuzz::split(FEEDS.handle(request));
    (head.status, body)
}

fuzz_target!(|query: &[u8]| {
    track(query);
    let (status, page) = get("/quote", query);
    assert!(matches!(status.as_u16(), 200 | 400), "/quote {status}");
    let bound = *EMPTY_FORM_BYTES + fuzz::ERROR_BODY_MAX + 6 * query.len();
    assert!(
        page.len() <= bound,
        "/quote page of {} bytes for {} query bytes",
        page.len(),
        query.len()
    );
});

fn track(query: &[u8]) {
    let (status, body) = get("/track", query);
    match status.as_u16() {
        400 => {
            assert!(body.len() <= fuzz::ERROR_BODY_MAX, "/track error of {} bytes", body.len());
            let refusal: Value = serde_json::from_slice(&body).expect("a /track refusal is JSON");
            let problems = refusal["problems"].as_array().expect("a refusal lists its problems");
            assert!(!problems.is_empty() && problems.len() <= LISTED_PROBLEMS_MAX, "{refusal}");
            for problem in problems {
                for field in ["parameter", "message", "allowed"] {
                    assert!(problem[field].is_string(), "{field} of {problem}");
                }
                assert!(!problem["message"].as_str().unwrap_or_default().is_empty(), "{problem}");
            }
            let more = &refusal["more_problems"];
            assert!(more.is_null() || more.as_u64().is_some_and(|n| n > 0), "{refusal}");
        }
        200 if body.first() == Some(&b'{') => {
            let answer: Value = serde_json::from_slice(&body).expect("a /track answer is JSON");
            // Numbers as the answer wrote them: a parsed `f64` may be a bit off (serde_json
            // parses floats to within a bit unless asked for exact round trips).
            let raw: HashMap<&str, &RawValue> = serde_json::from_slice(&body).expect("JSON");
            let mut canonical = String::new();
            for field in ["shape", "carat", "color", "clarity", "ratio", "from"] {
                let value = match &answer[field] {
                    Value::Null if field == "ratio" => continue,
                    Value::String(text) => text.clone(),
                    Value::Number(_) => raw[field].get().to_owned(),
                    other => panic!("/track echoes {field} as {other}"),
                };
                // A `+` in a query is a space (a number's exponent may have one).
                canonical.push_str(&format!("{field}={}&", value.replace('+', "%2B")));
            }
            let again = get("/track", canonical.trim_end_matches('&').as_bytes());
            assert_eq!(again.0, StatusCode::OK, "{canonical}");
            assert!(again.1 == body, "{canonical} answers otherwise than the query it echoes");
        }
        200 => assert!(!body.is_empty(), "an empty /track CSV"),
        _ => panic!("/track {status}"),
    }
}
