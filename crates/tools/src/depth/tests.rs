//! Tests of `get_market_depth`.

use datasets::Snapshot;
use jsonrpc::Object;
use serde_json::{Value, json};

use crate::depth::{availability, market_depth, top_combinations};

fn call(args: Value) -> Result<Value, String> {
    let args = Object::from(args.as_object().unwrap().clone());
    market_depth(&Snapshot::reference(), &args)
        .map(|o| o.structured_value())
        .map_err(|e| e.to_string())
}

#[test]
fn availability_labels_follow_the_thresholds() {
    let labels: Vec<_> = [0, 1, 9, 10, 100, 101].into_iter().map(availability).collect();
    assert_eq!(labels, ["none", "limited", "limited", "available", "available", "strong"]);
}

#[test]
fn nearest_point_is_used_and_reported() {
    let s = call(json!({"carat": 1.04})).unwrap();
    assert_eq!(s["mode"], "carat");
    assert_eq!(s["carat"], 1.04);
    assert_eq!(s["carat_key"], "1.0");
    let by_clarity: u64 =
        s["by_clarity"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(s["comparable_offer_count"], by_clarity);
    assert_eq!(s["available_carats"], Value::Null);
}

#[test]
fn overview_lists_points_and_ten_top_pairs_in_order() {
    let s = call(json!({})).unwrap();
    assert_eq!(s["mode"], "overview");
    let carats: Vec<f64> =
        s["available_carats"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!(carats.windows(2).all(|w| w[0] < w[1]), "{carats:?}");
    let top = s["top_combinations"].as_array().unwrap();
    assert_eq!(top.len(), 10);
    let counts: Vec<u64> = top.iter().map(|t| t["observed_offers"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    let depth = Snapshot::reference().depth().clone();
    assert_eq!(top_combinations(&depth).len(), 10);
}

#[test]
fn bad_carats_are_tool_errors() {
    assert_eq!(
        call(json!({"carat": 0.2})).unwrap_err(),
        "carat must be between 0.3 and 6, got 0.2"
    );
    assert_eq!(
        call(json!({"carat": "1"})).unwrap_err(),
        r#"carat must be a number of carats from 0.3 to 6, got the string "1""#
    );
    assert_eq!(
        call(json!({"size": 1, "carat": 9})).unwrap_err(),
        r#"unknown argument "size"; allowed arguments: carat; carat must be between 0.3 and 6, got 9"#
    );
}

#[test]
fn the_text_lists_grades_best_first_whatever_the_feed_order() {
    let args = Object::from(json!({"carat": 1.0}).as_object().unwrap().clone());
    let text = market_depth(&Snapshot::reference(), &args).unwrap().text();
    let line = |prefix: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(prefix)).expect(prefix);
        line[prefix.len()..].split(", ").map(|p| p.split(' ').next().unwrap().to_owned()).collect()
    };
    assert_eq!(line("By colour: "), ["D", "E", "F", "G", "H", "I", "J", "K", "L", "M"]);
    // The reference feed lists clarities alphabetically (FL, IF, SI1, …).
    assert_eq!(line("By clarity: "), ["FL", "IF", "VVS1", "VVS2", "VS1", "VS2", "SI1", "SI2"]);
}

#[test]
fn every_argument_is_kept_when_a_request_is_read() {
    // A name the filter does not keep would reach this tool as unknown.
    for name in crate::depth::ARGUMENTS {
        assert!(crate::args::ARGUMENT_FILTER.names.contains(name), "{name}");
    }
}
