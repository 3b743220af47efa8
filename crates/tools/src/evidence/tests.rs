//! Tests of the evidence members of `get_diamond_price`: present with spreads, absent
//! without, serde_json's bytes either way.

use datasets::{Snapshot, reference};
use jsonrpc::Object;
use serde_json::json;

use crate::price::{Links, price};

fn args() -> Object<'static> {
    let stone = json!({"carat": 1.23, "color": "G", "clarity": "VS2", "shape": "oval"});
    Object::from(stone.as_object().unwrap().clone())
}

#[test]
fn a_quote_carries_its_range_observations_and_basis() {
    let snapshot = Snapshot::reference();
    let out = price(&snapshot, &args(), &Links::default()).unwrap();
    out.assert_serde_json_bytes();
    let s = out.structured_value();
    let range = &s["range"];
    let (low, high) = (range["low_usd"].as_f64().unwrap(), range["high_usd"].as_f64().unwrap());
    assert!(low < s["total_usd"].as_f64().unwrap() && s["total_usd"].as_f64().unwrap() < high);
    assert!(
        range["low_per_carat_usd"].as_f64().unwrap()
            < range["high_per_carat_usd"].as_f64().unwrap()
    );
    assert!(s["observations"].is_u64(), "{s}");
    assert!(s["basis"].is_string(), "{s}");
    assert!(
        out.text().contains("Range (10th-90th percentile of comparable asks): $"),
        "{}",
        out.text()
    );
    assert!(out.text().contains("observed ask"), "{}", out.text());
    assert!(out.text().contains(&format!("(basis: {}).", s["basis"].as_str().unwrap())));
}

#[test]
fn without_spreads_the_members_are_absent() {
    let bare = Snapshot::parse(reference::embedded()).unwrap();
    let out = price(&bare, &args(), &Links::default()).unwrap();
    out.assert_serde_json_bytes();
    let s = out.structured_value();
    for name in ["range", "observations", "basis"] {
        assert!(s.get(name).is_none(), "{name}: {s}");
    }
    assert!(!out.text().contains("Range"), "{}", out.text());
}
