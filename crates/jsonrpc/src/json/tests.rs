//! `Json` reads what `serde_json::Value` reads, with the same errors and the same values.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{Json, Object};

/// Reads `text` both ways and checks they agree.
#[track_caller]
fn agree(text: &[u8]) -> Result<(), TestCaseError> {
    let value = serde_json::from_slice::<Value>(text);
    let borrowed = serde_json::from_slice::<Json<'_>>(text);
    match (&value, &borrowed) {
        (Ok(value), Ok(json)) => {
            prop_assert_eq!(&json.to_value(), value);
            prop_assert_eq!(json.to_string(), value.to_string());
        }
        (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
        _ => prop_assert!(false, "Value: {:?}, Json: {:?}", value, borrowed),
    }
    Ok(())
}

#[test]
fn strings_and_keys_are_borrowed_unless_escaped() {
    let json: Json<'_> = serde_json::from_str(r#"{"plain":"text","esc\"aped":"a\nb"}"#).unwrap();
    let object = json.as_object().unwrap();
    let members: Vec<_> = object.members().collect();
    assert!(matches!(object.members.first(), Some((std::borrow::Cow::Borrowed("plain"), _))));
    assert!(matches!(members[0].1, Json::String(std::borrow::Cow::Borrowed("text"))));
    assert!(matches!(members[1].1, Json::String(std::borrow::Cow::Owned(_))));
    assert_eq!(object.get("esc\"aped").and_then(Json::as_str), Some("a\nb"));
}

#[test]
fn the_last_duplicate_wins_as_in_value() {
    let text = r#"{"b":1,"a":2,"b":3}"#;
    let json: Json<'_> = serde_json::from_str(text).unwrap();
    let object = json.as_object().unwrap();
    assert_eq!(object.get("b"), Some(&Json::Number(3.into())));
    assert_eq!(object.sorted_keys(), ["a", "b"]);
    assert_eq!(json.to_value(), serde_json::from_str::<Value>(text).unwrap());
    assert_eq!(json.to_value(), json!({"a": 2, "b": 3}));
}

#[test]
fn errors_match_value() {
    let deep = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
    for text in [
        "",
        "{",
        "{} x",
        "[1,]",
        "\"\\ud800\"",
        "1e999",
        "\u{feff}{}",
        "{\"a\" 1}",
        "nul",
        deep.as_str(),
    ] {
        agree(text.as_bytes()).unwrap();
    }
    agree(b"\xff\xfe").unwrap();
}

#[test]
fn maps_convert_both_ways() {
    let value = json!({"k": [1, 2.5, "s", null, true, {"n": {}}]});
    let map = value.as_object().unwrap().clone();
    assert_eq!(Object::from(map.clone()).to_map(), map);
    assert_eq!(Json::from(value.clone()).to_value(), value);
}

proptest! {
    #[test]
    fn any_json_reads_the_same(value in crate::tests::json_value()) {
        agree(&serde_json::to_vec(&value).unwrap())?;
    }

    #[test]
    fn any_bytes_read_the_same(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        agree(&bytes)?;
    }

    #[test]
    fn json_like_text_reads_the_same(text in r#"[\[\]{}",:0-9a-z\\ .eE+-]{0,40}"#) {
        agree(text.as_bytes())?;
    }
}
