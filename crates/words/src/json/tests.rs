//! Unit tests of the JSON string literals.

use crate::{json_string, needs_json_escape, push_json_escaped};

#[test]
fn strings_are_escaped_as_serde_json_escapes_them() {
    assert_eq!(json_string("plain"), r#""plain""#);
    assert_eq!(json_string("a\"b\\c\nd\te\u{1}\u{1f}"), r#""a\"b\\c\nd\te\u0001\u001f""#);
    assert_eq!(json_string("\u{8}\u{c}\r\u{7f}"), "\"\\b\\f\\r\u{7f}\"");
    assert_eq!(json_string("carat ≥ 1"), "\"carat ≥ 1\"");
    assert!(needs_json_escape("a\u{1}") && needs_json_escape("\\") && !needs_json_escape("≥"));
}

#[test]
fn compact_json_escaped_is_the_text_of_a_string() {
    let mut out = Vec::new();
    push_json_escaped(&mut out, br#"{"a":"x\"y","b":[1,2]}"#);
    assert_eq!(out, br#"{\"a\":\"x\\\"y\",\"b\":[1,2]}"#);
}

#[test]
fn every_ascii_character_is_escaped_as_serde_json_escapes_it() {
    let mut text: String = (0u8..0x80).map(char::from).collect();
    text.push_str("é≥\u{2028}\u{1f48e}");
    assert_eq!(json_string(&text), serde_json::to_string(&text).unwrap());
    for c in text.chars() {
        let one = c.to_string();
        assert_eq!(json_string(&one), serde_json::to_string(&one).unwrap(), "{c:?}");
    }
}
