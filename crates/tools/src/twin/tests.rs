//! `to_json_twins` against serde_json: the same JSON, and the same JSON text escaped.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

use super::to_json_twins;

#[track_caller]
fn same_as_serde_json(value: &impl Serialize) {
    let (plain, escaped) = to_json_twins(value).unwrap();
    let reference = serde_json::to_string(value).unwrap();
    assert_eq!(String::from_utf8(plain).unwrap(), reference);
    let escaped = String::from_utf8(escaped).unwrap();
    assert_eq!(format!("\"{escaped}\""), serde_json::to_string(&reference).unwrap());
}

#[derive(Serialize)]
struct Shapes<'a> {
    text: &'a str,
    number: f64,
    count: u64,
    signed: i32,
    flag: bool,
    missing: Option<f64>,
    list: Vec<f64>,
    nested: Option<Inner>,
    unit: (),
    letter: char,
}

#[derive(Serialize)]
struct Inner {
    low: f64,
    high: Option<f64>,
}

#[derive(Serialize)]
enum WithData {
    Pair(u8, u8),
}

#[test]
fn structs_values_and_edge_numbers_are_serde_json_bytes() {
    for number in [0.0, -0.0, 1.0, 1.35, 1e-7, 1e16, 123_456.78, f64::NAN, f64::INFINITY] {
        same_as_serde_json(&Shapes {
            text: "say \"hi\"\\\n\u{1}é",
            number,
            count: u64::MAX,
            signed: -3,
            flag: true,
            missing: None,
            list: vec![number, 2.5],
            nested: Some(Inner { low: number, high: None }),
            unit: (),
            letter: '"',
        });
    }
    same_as_serde_json(&json!({"a": [1, -2, 3.25, null, "x\"y"], "b\"c": {"": {}}, "d": []}));
    same_as_serde_json(&json!({"errors": [{"argument": "carat", "message": "must be a number"}]}));
}

#[derive(Serialize)]
struct Keyed {
    #[serde(rename = "say \"hi\"")]
    quoted: u8,
    plain: Option<Inner>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<Inner>,
    last: Vec<Inner>,
}

#[test]
fn structs_are_serde_json_bytes_whatever_the_shape_before() {
    let inner = |low| Inner { low, high: Some(low) };
    let shape = |nested| Shapes {
        text: "",
        number: 1.5,
        count: 0,
        signed: 0,
        flag: true,
        missing: None,
        list: vec![],
        nested,
        unit: (),
        letter: 'x',
    };
    let shapes = [shape(Some(inner(2.0))), shape(None)];
    for round in 0..3 {
        for shape in &shapes[round % 2..] {
            same_as_serde_json(shape);
            same_as_serde_json(&[inner(1.0), inner(2.5)]);
        }
    }
    // A key that needs an escape, before and after others.
    for skipped in [None, Some(inner(3.0))] {
        let last = vec![inner(1.0), inner(4.0)];
        same_as_serde_json(&Keyed { quoted: 1, plain: Some(inner(0.5)), skipped, last });
        same_as_serde_json(&shapes[0]);
    }
}

#[test]
fn answers_written_into_recycled_buffers_are_serde_json_bytes() {
    let long = json!({ "text": "x".repeat(5000), "n": 1.5 });
    for value in [&long, &json!({ "n": 2.25 }), &long, &json!([])] {
        same_as_serde_json(value);
        let (plain, escaped) = to_json_twins(value).unwrap();
        super::recycle(plain, escaped);
    }
}

#[test]
fn shapes_it_does_not_write_go_to_serde_json() {
    same_as_serde_json(&WithData::Pair(1, 2));
    same_as_serde_json(&std::collections::BTreeMap::from([(1, "one"), (2, "two")]));
    same_as_serde_json(&Value::String("plain".to_owned()));
}

/// The hundredths' digits are zmij's wherever they are written, and nowhere else.
fn same_as_zmij(value: f64) {
    let zmij = zmij::Buffer::new().format(value).to_owned();
    if let Some(digits) = super::hundredths(value) {
        assert_eq!(std::str::from_utf8(digits.as_bytes()).unwrap(), zmij, "{value:e}");
    }
}

#[test]
fn hundredths_are_zmij_digits_at_the_edges() {
    let edges = [0.01, 0.1, 0.5, 1.0, 1.05, 1.5, 9.99, 10.0, 100.01, 999_999.99, 1e6, 0.005];
    for value in edges.into_iter().chain([0.009_999, 1e6 - 1e-9, -1.25, 1.0 / 3.0]) {
        same_as_zmij(value);
        same_as_zmij(-value);
    }
    assert!(super::hundredths(1e6).is_none());
    assert!(super::hundredths(0.015).is_none());
    assert_eq!(super::hundredths(8543.2).unwrap().as_bytes(), b"8543.2");
}

proptest! {
    #[test]
    fn hundredths_are_zmij_digits(cents in 0u64..120_000_000, value in prop::num::f64::ANY) {
        same_as_zmij(cents as f64 / 100.0);
        same_as_zmij(value);
    }

    #[test]
    fn any_numbers_and_strings_are_serde_json_bytes(
        numbers in prop::collection::vec(prop::num::f64::ANY, 0..8),
        text in ".{0,24}",
        count in any::<u64>(),
    ) {
        for number in &numbers {
            same_as_serde_json(&Shapes {
                text: &text,
                number: *number,
                count,
                signed: count as i32,
                flag: false,
                missing: Some(*number),
                list: numbers.clone(),
                nested: Some(Inner { low: *number, high: Some(-number) }),
                unit: (),
                letter: text.chars().next().unwrap_or('x'),
            });
        }
    }
}
