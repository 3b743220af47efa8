//! Fuzz target: the tool server's request handler (`tools::ToolService`, the very function
//! the HTTP layer calls), given a fuzzer-chosen method, path, header fields (such as
//! `MCP-Protocol-Version`, `Mcp-Method`, `Accept`, `Content-Type` and `Origin`) and body.
//! Input: bytes written like an HTTP request (`fuzz::raw_request`); seeds are
//! `fixtures/jsonrpc/*.http`.
//!
//! Checked for every input: no panic; no 5xx; an error body at most
//! `fuzz::ERROR_BODY_MAX`; an `application/json` body is JSON; a `POST /` answer in JSON
//! is one JSON-RPC response (`"jsonrpc": "2.0"`, exactly one of `result` and `error`, an
//! error with an integer `code` and a `message`); a `202` has no body.
#![no_main]

use std::sync::LazyLock;

use hyper::{Method, header};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use serve::Handler;

static SERVICE: LazyLock<tools::ToolService> = LazyLock::new(|| {
    let mut config = tools::Config::new(fuzz::live(), fuzz::clock());
    config.public_url = Some("https://mcp.example.com/".to_owned());
    config.allowed_origins = vec!["https://app.example.com".to_owned()];
    tools::handler(&config, ([127, 0, 0, 1], 8081).into())
});

fuzz_target!(|data: &[u8]| {
    let request = fuzz::raw_request(data);
    let rpc = request.method == Method::POST && request.uri.path() == "/";
    let (head, body) = fuzz::split(SERVICE.handle(request));
    let status = head.status;
    assert!(!status.is_server_error(), "{status}");
    if status.is_client_error() {
        assert!(body.len() <= fuzz::ERROR_BODY_MAX, "{status}: {} bytes", body.len());
    }
    if status.as_u16() == 202 {
        assert!(body.is_empty(), "202 with a body");
    }
    let json = head.headers.get(header::CONTENT_TYPE).is_some_and(|v| v == "application/json");
    if !json {
        return;
    }
    let value: Value = serde_json::from_slice(&body)
        .unwrap_or_else(|err| panic!("{status}: application/json that is not JSON ({err})"));
    if rpc {
        let answer = value.as_object().expect("a JSON-RPC answer is one object");
        assert_eq!(answer.get("jsonrpc"), Some(&Value::from("2.0")), "{value}");
        match (answer.get("result"), answer.get("error")) {
            (Some(_), None) => {}
            (None, Some(error)) => {
                assert!(error.get("code").is_some_and(Value::is_i64), "{value}");
                assert!(error.get("message").is_some_and(Value::is_string), "{value}");
            }
            _ => panic!("a JSON-RPC answer has exactly one of result and error: {value}"),
        }
    }
});
