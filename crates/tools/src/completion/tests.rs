//! Tests of `completion/complete`.

use datasets::{History, Snapshot};
use jsonrpc::{ErrorCode, Params};
use serde_json::{Value, json};

use crate::completion::complete;

fn run(params: Value) -> Result<Value, jsonrpc::ErrorObject> {
    let history = History::single(Snapshot::reference());
    let params = Params::from(params.as_object().unwrap().clone());
    complete(&params, &history).map(|fields| Value::Object(fields)["completion"].clone())
}

fn prompt(argument: &str, value: &str) -> Value {
    json!({"ref": {"type": "ref/prompt", "name": "price_stone"}, "argument": {"name": argument, "value": value}})
}

#[test]
fn grades_and_shapes_are_filtered_by_prefix() {
    assert_eq!(
        run(prompt("clarity", "vs")).unwrap(),
        json!({"values": ["VS1", "VS2"], "total": 2, "hasMore": false})
    );
    assert_eq!(run(prompt("color", "")).unwrap()["total"], 10);
    assert_eq!(run(prompt("shape", "M")).unwrap()["values"], json!(["marquise"]));
    assert_eq!(run(prompt("carat", "1")).unwrap()["values"], json!([]));
    let fair = json!({"ref": {"type": "ref/prompt", "name": "fair_asking_price"}, "argument": {"name": "asking_price_usd", "value": ""}});
    assert_eq!(run(fair).unwrap()["values"], json!([]));
}

#[test]
fn the_template_completes_dates_and_feeds() {
    let template = |name: &str, value: &str| json!({"ref": {"type": "ref/resource", "uri": "dcx://history/{date}/{feed}"}, "argument": {"name": name, "value": value}});
    let live = History::single(Snapshot::reference()).live_date().to_string();
    assert_eq!(run(template("date", &live[..4])).unwrap()["values"], json!([live]));
    assert_eq!(run(template("date", "1999")).unwrap()["values"], json!([]));
    assert_eq!(
        run(template("feed", "mat")).unwrap()["values"],
        json!(["matrix.json", "matrix_cushion.json"])
    );
}

#[test]
fn unknown_references_are_invalid_params() {
    let other = json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "x"}});
    let error = run(other).unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(error.message.contains("unknown prompt"), "{}", error.message);
    assert!(
        run(prompt("arg1", "")).unwrap_err().message.contains("not an argument of price_stone")
    );
    let uri = json!({"ref": {"type": "ref/resource", "uri": "dcx://feeds/matrix.json"}, "argument": {"name": "date", "value": ""}});
    assert!(run(uri).unwrap_err().message.contains("unknown resource template"));
    assert_eq!(
        run(json!({"argument": {"name": "a", "value": ""}})).unwrap_err().code,
        ErrorCode::INVALID_PARAMS
    );
    assert_eq!(
        run(json!({"ref": {"type": "ref/prompt", "name": "price_stone"}})).unwrap_err().code,
        ErrorCode::INVALID_PARAMS
    );
}
