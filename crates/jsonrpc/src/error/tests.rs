//! Unit tests for error codes, their HTTP statuses and the error constructors.

use serde_json::{Value, json};

use super::{ErrorCode, ErrorObject};

#[track_caller]
fn check_status(code: i32, expect: u16) {
    assert_eq!(ErrorCode(code).http_status(), expect, "code {code}");
}

#[test]
fn http_status_table() {
    check_status(-32700, 400);
    check_status(-32600, 400);
    check_status(-32601, 404);
    check_status(-32602, 400);
    check_status(-32603, 200);
    check_status(-32020, 400);
    check_status(-32021, 400);
    check_status(-32022, 400);
    check_status(-32000, 200);
    check_status(0, 200);
    check_status(42, 200);
}

#[test]
fn consts_have_the_spec_values() {
    assert_eq!(ErrorCode::PARSE_ERROR, ErrorCode(-32700));
    assert_eq!(ErrorCode::INVALID_REQUEST, ErrorCode(-32600));
    assert_eq!(ErrorCode::METHOD_NOT_FOUND, ErrorCode(-32601));
    assert_eq!(ErrorCode::INVALID_PARAMS, ErrorCode(-32602));
    assert_eq!(ErrorCode::INTERNAL_ERROR, ErrorCode(-32603));
    assert_eq!(ErrorCode::HEADER_MISMATCH, ErrorCode(-32020));
    assert_eq!(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, ErrorCode(-32021));
    assert_eq!(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, ErrorCode(-32022));
}

#[track_caller]
fn check(error: ErrorObject, expect: Value) {
    assert_eq!(serde_json::to_value(&error).unwrap(), expect);
}

#[test]
fn constructors() {
    check(
        ErrorObject::method_not_found("ping", &["server/discover", "tools/list", "tools/call"]),
        json!({"code": -32601, "message": "unknown method \"ping\"; this server offers server/discover, tools/list, tools/call"}),
    );
    check(
        ErrorObject::method_not_found("x", &[]),
        json!({"code": -32601, "message": "unknown method \"x\"; this server offers no methods"}),
    );
    check(
        ErrorObject::unsupported_version("1900-01-01"),
        json!({
            "code": -32022,
            "message": "unsupported protocol version \"1900-01-01\"; this server supports 2026-07-28",
            "data": {"supported": ["2026-07-28"], "requested": "1900-01-01"},
        }),
    );
    check(ErrorObject::parse_error("EOF"), json!({"code": -32700, "message": "parse error: EOF"}));
    check(ErrorObject::invalid_params("bad"), json!({"code": -32602, "message": "bad"}));
    check(ErrorObject::internal("boom"), json!({"code": -32603, "message": "boom"}));
    check(ErrorObject::invalid_request("no"), json!({"code": -32600, "message": "no"}));
    check(ErrorObject::header_mismatch("h"), json!({"code": -32020, "message": "h"}));
}

#[test]
fn missing_capability_carries_the_object() {
    let error = ErrorObject::missing_capability(json!({"sampling": {}}));
    assert_eq!(error.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(error.data, Some(json!({"requiredCapabilities": {"sampling": {}}})));
    assert!(error.message.contains(r#"{"sampling":{}}"#), "{}", error.message);
}

#[test]
fn display_names_message_and_code() {
    assert_eq!(ErrorObject::internal("boom").to_string(), "boom (code -32603)");
}

#[test]
fn quoted_text_is_cut_to_a_bounded_length() {
    let long = "m".repeat(900_000);
    let error = ErrorObject::method_not_found(&long, &["tools/call"]);
    assert!(error.message.len() < 200, "{}", error.message);
    let error = ErrorObject::unsupported_version(&long);
    assert!(serde_json::to_string(&error.data).unwrap().len() < 300);
}
