//! Unit tests for `RequestId`: accepted JSON shapes, round trips and display.

use serde_json::{Value, json};

use super::RequestId;
use crate::Field;

#[track_caller]
fn check(input: Value, expect: Option<&str>) {
    let id = RequestId::from_json(&Field::from(input.clone()));
    let shown = id.as_ref().map(|id| id.to_string());
    assert_eq!(shown.as_deref(), expect, "input {input}");
    if let Some(id) = id {
        assert_eq!(id.to_json(), input, "to_json round trip");
        assert_eq!(serde_json::to_value(&id).unwrap(), input, "serialize round trip");
        let back: RequestId = serde_json::from_value(input.clone()).unwrap();
        assert_eq!(back, id, "deserialize round trip");
    }
}

#[test]
fn accepts_strings_and_integers() {
    check(json!(0), Some("0"));
    check(json!(7), Some("7"));
    check(json!(-1), Some("-1"));
    check(json!(i64::MIN), Some("-9223372036854775808"));
    check(json!(u64::MAX), Some("18446744073709551615"));
    check(json!(""), Some("\"\""));
    check(json!("server-discover-probe-1"), Some("\"server-discover-probe-1\""));
    check(json!("7"), Some("\"7\""));
}

#[test]
fn rejects_other_shapes() {
    check(json!(null), None);
    check(json!(true), None);
    check(json!(1.5), None);
    check(json!(1.0), None);
    check(json!([1]), None);
    check(json!({"id": 1}), None);
}

#[test]
fn conversions_agree_with_json() {
    assert_eq!(RequestId::from(0), RequestId::from_json(&Field::from(json!(0))).unwrap());
    assert_eq!(RequestId::from(5u64), RequestId::from(5i64));
    assert_eq!(RequestId::from(""), RequestId::from(String::new()));
    assert_ne!(RequestId::from(7), RequestId::from("7"));
    assert_eq!(RequestId::from("a").as_str(), Some("a"));
    assert_eq!(RequestId::from(-3).as_i64(), Some(-3));
    assert_eq!(RequestId::from("a").as_i64(), None);
}

#[test]
fn deserialize_rejects_floats_and_null() {
    assert!(serde_json::from_value::<RequestId>(json!(1.5)).is_err());
    assert!(serde_json::from_value::<RequestId>(json!(null)).is_err());
}
