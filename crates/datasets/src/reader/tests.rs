//! Unit tests of the reader's quoting of input.

use super::{CLIP_CHARS_MAX, clip, quoted};

#[test]
fn the_clip_is_the_services_clip() {
    assert_eq!(CLIP_CHARS_MAX, words::CLIP_CHARS_MAX);
    let exact = "é".repeat(CLIP_CHARS_MAX);
    let long = "k".repeat(CLIP_CHARS_MAX + 1);
    for text in ["", "1.0", exact.as_str(), long.as_str(), &"é".repeat(10_000)] {
        assert_eq!(clip(text), words::clip(text), "{text}");
    }
}

#[test]
fn long_input_is_quoted_cut() {
    assert_eq!(quoted("1.0"), r#""1.0""#);
    assert_eq!(quoted("a\"b"), r#""a\"b""#);
    let long = "9".repeat(100_000);
    assert_eq!(quoted(&long), format!("\"{}…\" (100000 bytes)", "9".repeat(CLIP_CHARS_MAX)));
}
