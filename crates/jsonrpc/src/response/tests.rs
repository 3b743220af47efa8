//! Unit tests for `Response`: wire bytes and HTTP status.

use serde_json::{Value, json};

use super::Response;
use crate::{ErrorObject, RequestId};

#[track_caller]
fn check(response: Response, status: u16, body: &str) {
    assert_eq!(response.http_status(), status);
    assert_eq!(String::from_utf8(response.to_json()).unwrap(), body);
}

#[test]
fn success_with_integer_and_string_ids() {
    check(
        Response::ok(RequestId::from(0), json!({})),
        200,
        r#"{"jsonrpc":"2.0","id":0,"result":{}}"#,
    );
    check(
        Response::ok(RequestId::from(""), json!(null)),
        200,
        r#"{"jsonrpc":"2.0","id":"","result":null}"#,
    );
    check(
        Response::ok(RequestId::from(-5), json!([1])),
        200,
        r#"{"jsonrpc":"2.0","id":-5,"result":[1]}"#,
    );
}

#[test]
fn errors_with_and_without_id() {
    check(
        Response::err(None, ErrorObject::parse_error("EOF")),
        400,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: EOF"}}"#,
    );
    check(
        Response::err(Some(RequestId::from("a")), ErrorObject::method_not_found("x", &["y"])),
        404,
        r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"unknown method \"x\"; this server offers y"}}"#,
    );
    check(
        Response::err(Some(RequestId::from(1)), ErrorObject::internal("boom")),
        200,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}"#,
    );
}

#[test]
fn error_data_is_written_when_present() {
    let body =
        Response::err(Some(RequestId::from(3)), ErrorObject::unsupported_version("v9")).to_json();
    let value: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(value["error"]["data"], json!({"supported": ["2026-07-28"], "requested": "v9"}));
    assert_eq!(value["id"], json!(3));
}

#[test]
fn success_json_writes_the_same_bytes_as_a_value_result() {
    #[derive(serde::Serialize)]
    struct Typed {
        a: u8,
        b: &'static str,
    }
    for id in [RequestId::from(0), RequestId::from("x\"y")] {
        let typed = Response::success_json(&id, &Typed { a: 1, b: "two" });
        let value = Response::ok(id, json!({"a": 1, "b": "two"})).to_json();
        assert_eq!(String::from_utf8(typed).unwrap(), String::from_utf8(value).unwrap());
    }
}

#[test]
fn a_result_that_cannot_be_serialized_is_an_internal_error() {
    let mut keys = std::collections::BTreeMap::new();
    keys.insert((1, 2), "tuple keys are not JSON object keys");
    let body = Response::success_json(&RequestId::from(7), &keys);
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["error"]["code"], -32603);
    assert_eq!(body["id"], Value::Null);
}
