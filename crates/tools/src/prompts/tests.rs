//! Tests of the prompts: the list, the messages, and the -32602 cases.

use jsonrpc::{ErrorCode, Params};
use serde_json::{Value, json};

use crate::prompts::{Prompt, get, list};

fn get_json(params: Value) -> Result<Value, jsonrpc::ErrorObject> {
    let params = Params::from(params.as_object().unwrap().clone());
    get(&params).map(Value::Object)
}

fn text(result: &Value) -> &str {
    result["messages"][0]["content"]["text"].as_str().unwrap()
}

#[test]
fn the_list_describes_every_argument() {
    let list = list();
    let names: Vec<&str> =
        list.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["price_stone", "fair_asking_price"]);
    for prompt in list.as_array().unwrap() {
        assert!(prompt["description"].is_string());
        for argument in prompt["arguments"].as_array().unwrap() {
            let name = argument["name"].as_str().unwrap();
            assert_eq!(argument["required"], name != "shape", "{name}");
            assert!(crate::args::READ_ARGUMENTS.contains(&name), "{name} would be filtered out");
        }
    }
    for name in crate::price::ARGUMENTS {
        assert!(crate::args::READ_ARGUMENTS.contains(name), "{name}");
    }
}

#[test]
fn price_stone_names_the_tools_and_their_arguments() {
    let r = get_json(json!({"name": "price_stone", "arguments": {"carat": "1.5", "color": "G", "clarity": "VS2", "shape": "oval"}})).unwrap();
    assert_eq!(r["messages"][0]["role"], "user");
    let text = text(&r);
    assert!(text.contains(r#"get_diamond_price with arguments {"carat":1.5,"clarity":"VS2","color":"G","shape":"oval"}"#), "{text}");
    assert!(text.contains(r#"get_market_depth with arguments {"carat":1.5}"#), "{text}");
    let round = get_json(
        json!({"name": "price_stone", "arguments": {"carat": 1, "color": "D", "clarity": "IF"}}),
    )
    .unwrap();
    let round = self::text(&round);
    assert!(round.contains("clarity IF, round"), "{round}");
}

#[test]
fn fair_asking_price_compares_with_the_benchmark() {
    let r = get_json(json!({"name": "fair_asking_price", "arguments": {"carat": "1", "color": "H", "clarity": "SI1", "asking_price_usd": "5200"}})).unwrap();
    let text = text(&r);
    assert!(text.starts_with("A seller asks 5200 USD"), "{text}");
    assert!(text.contains("get_dcx_index") && text.contains("total_usd"), "{text}");
}

#[test]
fn bad_requests_are_invalid_params() {
    let unknown = get_json(json!({"name": "test_simple_prompt"})).unwrap_err();
    assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    assert!(unknown.message.contains("price_stone, fair_asking_price"), "{}", unknown.message);
    let missing =
        get_json(json!({"name": "fair_asking_price", "arguments": {"carat": "1"}})).unwrap_err();
    assert!(
        missing.message.contains("color (") && missing.message.contains("asking_price_usd ("),
        "{}",
        missing.message
    );
    assert!(!missing.message.contains("shape"), "{}", missing.message);
    let wrong = get_json(
        json!({"name": "price_stone", "arguments": {"carat": [1], "color": "D", "clarity": "IF"}}),
    )
    .unwrap_err();
    assert!(wrong.message.contains("carat must be a string"), "{}", wrong.message);
    assert_eq!(
        get_json(json!({"name": "price_stone", "arguments": 3})).unwrap_err().code,
        ErrorCode::INVALID_PARAMS
    );
    assert_eq!(get_json(json!({})).unwrap_err().code, ErrorCode::INVALID_PARAMS);
    assert_eq!(Prompt::from_name("price_stone"), Some(Prompt::Price));
}
