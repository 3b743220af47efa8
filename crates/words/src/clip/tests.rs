//! Unit tests of the clipping of untrusted text.

use crate::{CLIP_CHARS_MAX, Quoted, clip, quoted};

#[test]
fn short_text_is_kept_whole() {
    assert_eq!(clip("tools/x"), "tools/x");
    assert!(matches!(clip("tools/x"), std::borrow::Cow::Borrowed(_)));
    assert_eq!(quoted("a\"b"), r#""a\"b""#);
    let exact = "é".repeat(CLIP_CHARS_MAX);
    assert_eq!(clip(&exact), exact);
    assert_eq!(quoted(&exact), format!("\"{exact}\""));
}

#[test]
fn long_text_is_cut_and_says_how_long_it_was() {
    let long = "m".repeat(900_000);
    assert_eq!(quoted(&long), format!("\"{}…\" (900000 bytes)", "m".repeat(CLIP_CHARS_MAX)));
    assert_eq!(clip(&long).chars().count(), CLIP_CHARS_MAX + 1);
    let wide = "é".repeat(10_000);
    let cut = format!("{}…", "é".repeat(CLIP_CHARS_MAX));
    assert_eq!(quoted(&wide), format!("\"{cut}\" (20000 bytes)"));
    assert_eq!(Quoted(&wide).to_string(), quoted(&wide));
}
