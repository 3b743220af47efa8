//! The escaper writes what serde_json writes.

use proptest::prelude::*;

use super::write_str;

fn literal(text: &str) -> String {
    let mut out = Vec::new();
    write_str(&mut out, text);
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn escapes_like_serde_json() {
    for text in
        ["", "plain", "a\"b\\c", "line\nnext\ttab\r\u{8}\u{c}", "\u{0}\u{1f}\u{7f}", "é – 💎"]
    {
        assert_eq!(literal(text), serde_json::to_string(text).unwrap(), "{text:?}");
    }
}

proptest! {
    #[test]
    fn any_text_is_serde_json_bytes(text in "(.|\n|\t|\"|\\\\|\u{1}){0,64}") {
        prop_assert_eq!(literal(&text), serde_json::to_string(&text).unwrap());
    }
}
