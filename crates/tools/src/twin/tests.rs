//! The twin writer against serde_json: each value the same JSON, and the same JSON text
//! escaped; the hundredths' digits against zmij's.

use proptest::prelude::*;
use serde::Serialize;

use super::{Twins, recycle};

/// `write`'s twins are `value`'s serde_json bytes and their escape, in fresh buffers and
/// in the buffers of an answer already sent.
#[track_caller]
fn same_as_serde_json(value: &impl Serialize, write: impl Fn(&mut Twins)) {
    for _ in 0..2 {
        let mut twins = Twins::new();
        write(&mut twins);
        let (plain, escaped) = twins.finish();
        let reference = serde_json::to_string(value).unwrap();
        assert_eq!(std::str::from_utf8(&plain).unwrap(), reference);
        let escaped_text = std::str::from_utf8(&escaped).unwrap();
        assert_eq!(format!("\"{escaped_text}\""), serde_json::to_string(&reference).unwrap());
        recycle(plain, escaped);
    }
}

#[test]
fn numbers_strings_and_the_rest_are_serde_json_bytes() {
    // The last: a number with all 17 significant digits, once a failing case of a writer
    // of shortest digits.
    let seventeen = f64::from_bits(14_059_686_602_147_930_769);
    for number in [0.0, -0.0, 1.0, 1.35, 1e-7, 1e16, 1e21, 123_456.78, -2.5, 8543.2, seventeen] {
        same_as_serde_json(&number, |twins| twins.number(number));
        same_as_serde_json(&Some(number), |twins| twins.maybe(Some(number)));
    }
    for number in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        same_as_serde_json(&serde_json::Value::Null, |twins| twins.number(number));
    }
    same_as_serde_json(&None::<f64>, |twins| twins.maybe(None));
    for text in ["", "plain", "say \"hi\"\\\n\u{1}é", "\u{7f}\u{2028}"] {
        same_as_serde_json(&text, |twins| twins.string(text));
    }
    same_as_serde_json(&"VS2", |twins| twins.name("VS2"));
    for flag in [true, false] {
        same_as_serde_json(&flag, |twins| twins.boolean(flag));
    }
    for count in [0, 7, u64::MAX] {
        same_as_serde_json(&count, |twins| twins.integer(count));
    }
    let long = "x".repeat(5000);
    same_as_serde_json(&long, |twins| twins.string(&long));
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
    fn any_numbers_and_strings_are_serde_json_bytes(number in prop::num::f64::ANY, text in ".{0,24}") {
        let value = if number.is_finite() { serde_json::json!(number) } else { serde_json::Value::Null };
        same_as_serde_json(&value, |twins| twins.number(number));
        same_as_serde_json(&text, |twins| twins.string(&text));
    }
}
