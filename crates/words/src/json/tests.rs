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

#[test]
fn escapes_are_found_at_every_place_in_short_and_long_texts() {
    // Bytes around each escape that sit next to the ones tested (0x1f/0x20, 0x21-0x23,
    // 0x5b-0x5d) and bytes from 0x80 up, whose high bit the search must not take.
    let plain = [b'a', 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff];
    for len in 0..20 {
        for background in plain {
            let mut bytes = vec![background; len];
            let mut out = Vec::new();
            push_json_escaped(&mut out, &bytes);
            assert_eq!(out, bytes, "{len} x {background:#x}");
            for at in 0..len {
                for escaped in [0u8, 0x1f, b'"', b'\\', b'\n'] {
                    bytes[at] = escaped;
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    assert!(needs_json_escape(&text), "{len} {at} {escaped:#x}");
                    let mut out = Vec::new();
                    push_json_escaped(&mut out, text.as_bytes());
                    let whole = serde_json::to_string(&text).unwrap();
                    assert_eq!(out, whole.as_bytes()[1..whole.len() - 1], "{text:?}");
                    bytes[at] = background;
                }
            }
            if background < 0x80 {
                assert!(!needs_json_escape(std::str::from_utf8(&bytes).unwrap()));
            }
        }
    }
}
