//! Unit tests for `Complete` and `ToolCall::from_params`.

use serde_json::{Map, Value, json};

use super::{Complete, ResultMeta, ServerInfo, ToolCall};
use crate::{ErrorCode, Params};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn meta(server: &ServerInfo) -> ResultMeta<'_> {
    ResultMeta { timestamp: "2026-11-21T10:00:00.123Z", source: "example.com", server }
}

#[test]
fn complete_adds_result_type_and_meta() {
    let server = ServerInfo::new("dcx-tools", "0.1.0");
    let complete = Complete::new(json!({"tools": []}), meta(&server));
    assert_eq!(
        serde_json::to_value(&complete).unwrap(),
        json!({
            "tools": [],
            "resultType": "complete",
            "_meta": {
                "timestamp": "2026-11-21T10:00:00.123Z",
                "source": "example.com",
                "io.modelcontextprotocol/serverInfo": {"name": "dcx-tools", "version": "0.1.0"},
            },
        })
    );
}

#[test]
fn complete_flattens_a_typed_result_in_field_order() {
    #[derive(serde::Serialize)]
    struct Typed {
        content: Vec<u8>,
        #[serde(rename = "isError")]
        is_error: bool,
    }
    let server = ServerInfo::new("s", "1");
    let complete = Complete::new(Typed { content: vec![], is_error: false }, meta(&server));
    assert_eq!(
        serde_json::to_string(&complete).unwrap(),
        r#"{"content":[],"isError":false,"resultType":"complete","_meta":{"timestamp":"2026-11-21T10:00:00.123Z","source":"example.com","io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}"#
    );
}

#[track_caller]
fn check_call(params: Value, expect: Result<(&str, Value), &str>) {
    let params = Params::from(object(params));
    let actual = ToolCall::from_params(&params);
    match expect {
        Ok((name, arguments)) => {
            let call = actual.expect("expected a tool call");
            assert_eq!(call.name, name);
            assert_eq!(Value::Object(call.arguments.to_map()), arguments);
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
