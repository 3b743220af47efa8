//! `Field` reads what `serde_json::Value` reads, with the same errors and the same values;
//! strings stay borrowed from the body unless they had escapes.

use std::borrow::Cow;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{Field, Object};

/// Reads `text` both ways and checks they agree.
#[track_caller]
fn agree(text: &[u8]) -> Result<(), TestCaseError> {
    let value = serde_json::from_slice::<Value>(text);
    let field = serde_json::from_slice::<Field<'_>>(text);
    match (&value, &field) {
        (Ok(value), Ok(field)) => {
            prop_assert_eq!(&field.to_value(), value);
            prop_assert_eq!(field.to_string(), value.to_string());
            prop_assert_eq!(field.type_name(), super::type_name(value));
        }
        (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
        _ => prop_assert!(false, "Value: {:?}, Field: {:?}", value, field),
    }
    Ok(())
}

#[test]
fn strings_are_borrowed_unless_escaped() {
    let plain: Field<'_> = serde_json::from_str(r#""text""#).unwrap();
    assert!(matches!(plain, Field::Str(Cow::Borrowed("text"))));
    let escaped: Field<'_> = serde_json::from_str(r#""a\nb""#).unwrap();
    assert!(matches!(&escaped, Field::Str(Cow::Owned(text)) if text == "a\nb"));
    assert_eq!(escaped.as_str(), Some("a\nb"));
    let number: Field<'_> = serde_json::from_str("1.5").unwrap();
    assert_eq!(number.as_f64(), Some(1.5));
    assert_eq!(number.as_str(), None);
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
    assert_eq!(Field::from(value.clone()).to_value(), value);
    assert_eq!(Field::from(json!("s")), Field::Str(Cow::Borrowed("s")));
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
