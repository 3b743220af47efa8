//! Criterion benches of one request through each server's handler, in process (no
//! socket): `tools/call get_diamond_price` on the tool server and `GET /matrix.json`
//! (gzip) on the feed server, each beside a baseline handler that answers with the same
//! bytes built once. The ratio is what the service adds to a fixed-body server. The
//! `tool_call_parts` group splits the tool call into its envelope checks and the tool.

use std::{hint::black_box, sync::Arc};

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use hyper::{Method, Response, StatusCode, body::Body as _, header};
use serve::{Body, Handler, Request};

/// The request body `scripts/bench-tools.sh` sends.
const PRICE_CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_diamond_price","arguments":{"carat":1.23,"color":"G","clarity":"VS2","shape":"oval","shape_ratio":1.35},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

fn request(
    method: Method,
    path: &'static str,
    headers: &[(&'static str, &'static str)],
    body: &'static str,
) -> Request {
    Request {
        peer: ([127, 0, 0, 1], 40000).into(),
        ..Request::new(method, path, headers).with_body(body)
    }
}

/// Clones a request, as hyper hands each one over fresh.
fn fresh(template: &Request) -> Request {
    Request {
        method: template.method.clone(),
        uri: template.uri.clone(),
        headers: template.headers.clone(),
        body: template.body.clone(),
        peer: template.peer,
    }
}

/// The irreducible handler: a prebuilt body and one content-type header.
fn fixed(body: &Bytes) -> Response<Body> {
    serve::json_response(StatusCode::OK, body.clone())
}

fn body_len(response: &Response<Body>) -> u64 {
    response.body().size_hint().exact().unwrap_or(0)
}

fn tool_call(c: &mut Criterion) {
    let live = Arc::new(datasets::Live::fixed(datasets::History::single(
        datasets::Snapshot::parse(datasets::reference::embedded()).expect("valid"),
    )));
    let clock: tools::Clock = Arc::new(std::time::SystemTime::now);
    let service = tools::handler(&tools::Config::new(live, clock), ([127, 0, 0, 1], 8081).into());
    let call = request(
        Method::POST,
        "/",
        &test_support::http::mcp_headers("tools/call", Some("get_diamond_price")),
        PRICE_CALL,
    );
    let response = service.handle(fresh(&call));
    assert_eq!(response.status(), StatusCode::OK);
    let same_size = Bytes::from(vec![b' '; usize::try_from(body_len(&response)).unwrap()]);

    let mut group = c.benchmark_group("tool_server");
    group.bench_function("baseline_fixed_body", |b| b.iter(|| fixed(black_box(&same_size))));
    group.bench_function("tools_call_get_diamond_price_oval", |b| {
        b.iter(|| service.handle(fresh(black_box(&call))))
    });
    group.finish();
}

/// The parts of one `tools/call get_diamond_price`: the envelope and header checks, then
/// the tool itself (arguments to text and structured JSON). The rest of the full call is
/// dispatch, the response bytes and HTTP.
fn tool_call_parts(c: &mut Criterion) {
    let headers: &[(&str, &[u8])] = &[
        ("content-type", b"application/json"),
        ("mcp-protocol-version", b"2026-07-28"),
        ("mcp-method", b"tools/call"),
        ("mcp-name", b"get_diamond_price"),
    ];
    let snapshot = datasets::Snapshot::parse(datasets::reference::embedded()).expect("valid");
    let links = tools::price::Links::default();
    let value: serde_json::Value = serde_json::from_str(PRICE_CALL).expect("JSON");
    let arguments =
        tools::Object::from(value["params"]["arguments"].as_object().expect("an object").clone());

    let mut group = c.benchmark_group("tool_call_parts");
    group.bench_function("classify", |b| {
        b.iter(|| {
            let view: jsonrpc::HeaderView<'_> = headers.iter().copied().collect();
            jsonrpc::classify(&view, black_box(PRICE_CALL.as_bytes()))
        })
    });
    group.bench_function("price_tool", |b| {
        b.iter(|| tools::price::price(&snapshot, black_box(&arguments), &links))
    });
    group.finish();
}

fn feed(c: &mut Criterion) {
    let (live, _) =
        datasets::Live::open(datasets::Source::Embedded).expect("the embedded snapshot");
    let now = chrono::DateTime::from_timestamp(1_763_683_200, 0).expect("a valid instant");
    let feeds = feeds::Feeds::new(feeds::Config::new(
        Arc::new(live),
        Arc::new(move || std::time::SystemTime::from(now)),
    ));
    let get = request(Method::GET, "/matrix.json", &[("accept-encoding", "gzip")], "");
    let response = feeds.handle(fresh(&get));
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");
    let same_size = Bytes::from(vec![b' '; usize::try_from(body_len(&response)).unwrap()]);

    let mut group = c.benchmark_group("feed_server");
    group.bench_function("baseline_fixed_body", |b| b.iter(|| fixed(black_box(&same_size))));
    group.bench_function("get_matrix_json_gzip", |b| {
        b.iter(|| feeds.handle(fresh(black_box(&get))))
    });
    group.finish();
}

criterion_group!(benches, tool_call, tool_call_parts, feed);
criterion_main!(benches);
