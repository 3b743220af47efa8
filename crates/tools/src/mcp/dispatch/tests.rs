//! Tests of method dispatch.

use std::sync::Arc;

use datasets::{History, Snapshot};
use jsonrpc::{Era, ErrorCode, Params};
use serde_json::{Value, json};

use crate::{
    mcp::dispatch::{Answer, dispatch},
    price::Links,
};

fn run(method: &str, params: Value) -> Result<Value, jsonrpc::ErrorObject> {
    run_in(Era::Modern, method, params)
}

fn run_in(era: Era, method: &str, params: Value) -> Result<Value, jsonrpc::ErrorObject> {
    answer_in(era, method, params).map(|answer| result(&answer))
}

/// The answer itself, for its era and cache flag.
fn answer_in(era: Era, method: &str, params: Value) -> Result<Answer, jsonrpc::ErrorObject> {
    let history = Arc::new(History::single(Snapshot::reference()));
    let params = Params::from(params.as_object().unwrap().clone());
    dispatch(era, method, &params, &history, &Links::default())
}

/// An answer's own result fields, as the response carries them (without `_meta` and
/// `resultType`).
fn result(answer: &Answer) -> Value {
    let meta = crate::mcp::wire::Meta::new("s".to_owned(), jsonrpc::ServerInfo::new("s", "1"));
    let id = jsonrpc::RequestId::from(1);
    let body = crate::mcp::wire::success(
        &id,
        answer.era,
        &meta,
        std::time::SystemTime::UNIX_EPOCH,
        &answer.result,
    );
    let mut response: Value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)));
    let result = response["result"].as_object_mut().unwrap();
    result.remove("_meta");
    result.remove("resultType");
    Value::Object(result.clone())
}

const LEGACY: Era = Era::Legacy("2025-11-25");

#[test]
fn initialize_is_legacy_only() {
    let modern = run("initialize", json!({"protocolVersion": "2025-11-25"})).unwrap_err();
    assert_eq!(modern.code, ErrorCode::METHOD_NOT_FOUND);
    assert!(modern.message.contains("2025 handshake"), "{}", modern.message);
    let answer = answer_in(LEGACY, "initialize", json!({"protocolVersion": "2025-06-18"})).unwrap();
    assert_eq!(answer.era, Era::Legacy("2025-06-18"), "the negotiated version is the era's");
    let r = result(&answer);
    assert_eq!(r["protocolVersion"], "2025-06-18");
    assert_eq!(
        r["capabilities"],
        json!({"tools": {}, "resources": {}, "prompts": {}, "completions": {}})
    );
    assert_eq!(r["serverInfo"]["name"], "dcx-diamond-pricing");
    assert!(r["instructions"].is_string());
}

#[test]
fn legacy_methods_leave_out_the_2026_fields() {
    assert_eq!(
        run_in(LEGACY, "tools/list", json!({"cursor": "x"})).unwrap_err().code,
        ErrorCode::INVALID_PARAMS
    );
    let call = json!({"name": "get_diamond_price", "arguments": {"carat": 1.0, "color": "D", "clarity": "IF"}});
    assert_eq!(
        run_in(LEGACY, "tools/call", call.clone()).unwrap(),
        run("tools/call", call).unwrap()
    );
    for method in ["server/discover", "resources/subscribe", "logging/setLevel"] {
        let error = run_in(LEGACY, method, json!({})).unwrap_err();
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{method}");
        assert!(
            error.message.contains("initialize, ping, tools/list, tools/call, resources/list"),
            "{}",
            error.message
        );
    }
}

#[test]
fn discover_advertises_tools_and_cache_hints() {
    let r = run("server/discover", json!({})).unwrap();
    assert_eq!(r["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(
        r["capabilities"],
        json!({"tools": {}, "resources": {}, "prompts": {}, "completions": {}})
    );
    assert_eq!(r["ttlMs"], 86_400_000);
    assert_eq!(r["cacheScope"], "public");
}

#[test]
fn tools_are_listed_in_a_fixed_order() {
    let r = run("tools/list", json!({})).unwrap();
    let names: Vec<&str> =
        r["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["get_diamond_price", "get_dcx_index", "get_market_depth", "check_asking_price"]
    );
}

#[test]
fn other_methods_are_not_found() {
    for method in [
        "ping",
        "resources/subscribe",
        "resources/unsubscribe",
        "logging/setLevel",
        "subscriptions/listen",
    ] {
        assert_eq!(
            run(method, json!({})).unwrap_err().code,
            ErrorCode::METHOD_NOT_FOUND,
            "{method}"
        );
    }
}

#[test]
fn calls_split_protocol_errors_from_tool_errors() {
    let unknown = run("tools/call", json!({"name": "nope"})).unwrap_err();
    assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    assert!(unknown.message.contains("get_diamond_price"), "{}", unknown.message);
    let bad = run("tools/call", json!({"name": "get_dcx_index", "arguments": []})).unwrap_err();
    assert_eq!(bad.code, ErrorCode::INVALID_PARAMS);
    let r =
        run("tools/call", json!({"name": "get_diamond_price", "arguments": {"carat": 9}})).unwrap();
    assert_eq!(r["isError"], true);
    assert!(r.get("structuredContent").is_none());
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("carat") && text.contains("color is required"), "{text}");
    let error: Value = serde_json::from_str(r["content"][1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(error["error"]["code"], "invalid_arguments");
    let ok = run("tools/call", json!({"name": "get_dcx_index"})).unwrap();
    assert_eq!(ok["isError"], false);
    let json_text: Value =
        serde_json::from_str(ok["content"][1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(json_text, ok["structuredContent"]);
}

#[test]
fn the_json_text_item_is_the_structured_content() {
    for (name, arguments) in [
        (
            "get_diamond_price",
            json!({"carat": 1.23, "color": "G", "clarity": "VS2", "shape": "oval"}),
        ),
        ("get_dcx_index", json!({})),
        ("get_market_depth", json!({"carat": 1.0})),
        ("get_market_depth", json!({})),
    ] {
        let r = run("tools/call", json!({"name": name, "arguments": arguments})).unwrap();
        assert_eq!(r["isError"], false, "{name}");
        let text = r["content"][1]["text"].as_str().unwrap();
        let parsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(parsed, r["structuredContent"], "{name}");
        assert!(r["structuredContent"].is_object(), "{name}");
        assert_eq!(r["content"][0]["type"], "text");
        assert_eq!(r["content"][1]["type"], "text");
    }
}

/// What a `tools/call` came to, as the tool-call hook hears it; other methods are no call.
#[test]
fn calls_are_reported_by_tool_and_outcome() {
    use crate::{CallOutcome, Tool, ToolCalled, mcp::dispatch::called};
    let report = |method: &str, params: Value| {
        let result = answer_in(Era::Modern, method, params.clone());
        called(method, &Params::from(params.as_object().unwrap().clone()), &result)
    };
    let price = |arguments: Value| json!({"name": "get_diamond_price", "arguments": arguments});
    let good = price(json!({"carat": 1.0, "color": "G", "clarity": "VS2"}));
    let expected = |tool, outcome| Some(ToolCalled { tool, outcome });
    assert_eq!(report("tools/call", good), expected(Some(Tool::Price), CallOutcome::Ok));
    let bad = price(json!({"carat": 99, "color": "G", "clarity": "VS2"}));
    let refused = expected(Some(Tool::Price), CallOutcome::InvalidArguments);
    assert_eq!(report("tools/call", bad), refused);
    let unknown = json!({"name": "get_weather", "arguments": {}});
    assert_eq!(report("tools/call", unknown), expected(None, CallOutcome::Rejected));
    assert_eq!(report("tools/list", json!({})), None);
}

#[test]
fn lists_carry_the_cache_hints_in_2026_only() {
    for (method, key) in [
        ("tools/list", "tools"),
        ("resources/list", "resources"),
        ("resources/templates/list", "resourceTemplates"),
        ("prompts/list", "prompts"),
    ] {
        let modern = run(method, json!({})).unwrap();
        assert_eq!(modern["ttlMs"], 86_400_000, "{method}");
        assert_eq!(modern["cacheScope"], "public", "{method}");
        let legacy = run_in(LEGACY, method, json!({})).unwrap();
        assert_eq!(legacy.as_object().unwrap().keys().collect::<Vec<_>>(), [key], "{method}");
        assert_eq!(legacy[key], modern[key], "{method}");
        assert!(answer_in(Era::Modern, method, json!({})).unwrap().cacheable, "{method}");
        let cursor = run(method, json!({"cursor": "x"})).unwrap_err();
        assert_eq!(cursor.code, ErrorCode::INVALID_PARAMS, "{method}");
        assert!(cursor.message.contains(method), "{}", cursor.message);
    }
}

#[test]
fn reads_are_hinted_by_how_long_they_stay_true() {
    let live = json!({"uri": "dcx://feeds/index.json"});
    let modern = run("resources/read", live.clone()).unwrap();
    assert_eq!(modern["ttlMs"], crate::resources::LIVE_TTL_MS);
    assert!(!answer_in(Era::Modern, "resources/read", live.clone()).unwrap().cacheable);
    let doc = json!({"uri": "dcx://docs/api.md"});
    assert_eq!(run("resources/read", doc.clone()).unwrap()["ttlMs"], 86_400_000);
    assert!(answer_in(LEGACY, "resources/read", doc).unwrap().cacheable);
    let legacy = run_in(LEGACY, "resources/read", live).unwrap();
    assert_eq!(legacy.as_object().unwrap().keys().collect::<Vec<_>>(), ["contents"]);
    assert_eq!(legacy["contents"], modern["contents"]);
    let missing = run("resources/read", json!({})).unwrap_err();
    assert_eq!(missing.code, ErrorCode::INVALID_PARAMS);
    let unknown = json!({"uri": "test://nope"});
    assert_eq!(run("resources/read", unknown.clone()).unwrap_err().code, ErrorCode::INVALID_PARAMS);
    assert_eq!(run_in(LEGACY, "resources/read", unknown).unwrap_err().code, ErrorCode(-32002));
}

#[test]
fn prompts_and_completions_are_answered_in_both_eras() {
    let get =
        json!({"name": "price_stone", "arguments": {"carat": "1", "color": "D", "clarity": "IF"}});
    let modern = run("prompts/get", get.clone()).unwrap();
    assert!(modern.get("ttlMs").is_none());
    assert_eq!(modern, run_in(LEGACY, "prompts/get", get).unwrap());
    let complete = json!({"ref": {"type": "ref/prompt", "name": "fair_asking_price"}, "argument": {"name": "color", "value": "d"}});
    let modern = run("completion/complete", complete.clone()).unwrap();
    assert_eq!(modern["completion"]["values"], json!(["D"]));
    assert_eq!(modern, run_in(LEGACY, "completion/complete", complete).unwrap());
    let shape = json!({"ref": {"type": "ref/prompt", "name": "price_stone"}, "argument": {"name": "shape", "value": ""}});
    assert!(!answer_in(Era::Modern, "completion/complete", shape).unwrap().cacheable);
}
