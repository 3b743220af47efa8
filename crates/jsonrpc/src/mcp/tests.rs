//! Unit tests for `complete` and `ToolCall::from_params`.

use serde_json::{Map, Value, json};

use super::{ServerInfo, ToolCall, complete};
use crate::ErrorCode;

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

#[track_caller]
fn check_complete(result: Value, expect: Value) {
    let server = ServerInfo::new("dcx-tools", "0.1.0");
    assert_eq!(complete(object(result), &server), expect);
}

#[test]
fn complete_adds_result_type_and_server_info() {
    check_complete(
        json!({"tools": []}),
        json!({
            "tools": [],
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "dcx-tools", "version": "0.1.0"}},
        }),
    );
}

#[test]
fn complete_merges_existing_meta() {
    check_complete(
        json!({"content": [], "_meta": {"x/trace": "t", "io.modelcontextprotocol/serverInfo": "old"}}),
        json!({
            "content": [],
            "resultType": "complete",
            "_meta": {
                "x/trace": "t",
                "io.modelcontextprotocol/serverInfo": {"name": "dcx-tools", "version": "0.1.0"},
            },
        }),
    );
}

#[test]
fn complete_replaces_a_non_object_meta_and_result_type() {
    check_complete(
        json!({"resultType": "input_required", "_meta": 3}),
        json!({
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "dcx-tools", "version": "0.1.0"}},
        }),
    );
}

#[track_caller]
fn check_call(params: Value, expect: Result<(&str, Value), &str>) {
    let actual = ToolCall::from_params(&object(params));
    match expect {
        Ok((name, arguments)) => {
            let call = actual.expect("expected a tool call");
            assert_eq!(call.name, name);
            assert_eq!(Value::Object(call.arguments), arguments);
        }
        Err(message) => {
            let error = actual.expect_err("expected an error");
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
            assert_eq!(error.code.http_status(), 400);
            assert_eq!(error.message, message);
        }
    }
}

#[test]
fn tool_call_params() {
    check_call(
        json!({"name": "quote", "arguments": {"carat": 1.0}}),
        Ok(("quote", json!({"carat": 1.0}))),
    );
    check_call(json!({"name": "quote", "_meta": {}}), Ok(("quote", json!({}))));
    check_call(json!({"name": ""}), Ok(("", json!({}))));
    check_call(json!({}), Err("tools/call needs params.name, a string"));
    check_call(json!({"name": 5}), Err("tools/call needs params.name, a string"));
    check_call(json!({"name": null}), Err("tools/call needs params.name, a string"));
    check_call(
        json!({"name": "quote", "arguments": [1]}),
        Err("tools/call params.arguments must be an object, got an array"),
    );
    check_call(
        json!({"name": "quote", "arguments": null}),
        Err("tools/call params.arguments must be an object, got null"),
    );
}
