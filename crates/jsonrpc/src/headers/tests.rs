//! Unit tests for header lookup, trimming, invalid bytes and the base64 sentinel.

use super::{
    HeaderValue, HeaderView, Routing, check_routing, header_value, is_verbatim, is_visible_ascii,
};
use crate::ErrorCode;

#[track_caller]
fn check_value(raw: &[u8], expect: Result<(&str, bool), &str>) {
    let actual = header_value(raw);
    match expect {
        Ok((text, decoded)) => {
            assert_eq!(actual, Ok(HeaderValue { text: text.into(), decoded }), "raw {raw:?}")
        }
        Err(fragment) => {
            let message = actual.expect_err("expected a rejection");
            assert!(message.contains(fragment), "{message:?} lacks {fragment:?}");
        }
    }
}

#[test]
fn plain_values_are_trimmed() {
    check_value(b"tools/list", Ok(("tools/list", false)));
    check_value(b"  tools/list  ", Ok(("tools/list", false)));
    check_value(b"\t tools/list\t", Ok(("tools/list", false)));
    check_value(b"a b\tc", Ok(("a b\tc", false)));
    check_value(b"", Ok(("", false)));
    check_value(b"   ", Ok(("", false)));
}

#[test]
fn sentinel_values_are_decoded() {
    check_value(b"=?base64?SGVsbG8sIOS4lueVjA==?=", Ok(("Hello, 世界", true)));
    check_value(b"  =?base64?SGVsbG8sIOS4lueVjA==?=  ", Ok(("Hello, 世界", true)));
    check_value(b"=?base64?ICB4ICA=?=", Ok(("  x  ", true)));
    check_value(b"=?base64??=", Ok(("", true)));
}

#[test]
fn sentinel_markers_are_exact() {
    check_value(b"=?BASE64?SGVsbG8=?=", Ok(("=?BASE64?SGVsbG8=?=", false)));
    check_value(b"=?Base64?SGVsbG8=?=", Ok(("=?Base64?SGVsbG8=?=", false)));
    check_value(b"=?base64?SGVsbG8=", Ok(("=?base64?SGVsbG8=", false)));
    check_value(b"=?base64?=", Ok(("=?base64?=", false)));
}

#[test]
fn bad_sentinels_and_bytes_are_rejected() {
    check_value(b"=?base64?SGVsbG8sIOS4lueVjA=?=", Err("not valid padded standard base64"));
    check_value(b"=?base64?SGVsbG8?=", Err("not valid padded standard base64"));
    check_value(b"=?base64?!!!!?=", Err("not valid padded standard base64"));
    check_value(b"=?base64?/w==?=", Err("does not decode to UTF-8"));
    // One spelling per byte string: padding required, no `=` inside, no other alphabet,
    // the unused trailing bits zero (`Zg==` is `f`, `Zh==` is refused).
    for text in ["Zg", "Zg=", "Zg===", "Zg==Zg==", "Zm=v", "Zm9-", "Zm9_", "Zm 9v", "Zh==", "Zm9="]
    {
        let raw = format!("=?base64?{text}?=");
        check_value(raw.as_bytes(), Err("not valid padded standard base64"));
    }
    check_value(b"=?base64?Zg==?=", Ok(("f", true)));
    check_value(b"=?base64?Zm8=?=", Ok(("fo", true)));
    check_value(b"a\x00b", Err("invalid byte 0x00"));
    check_value(b"a\nb", Err("invalid byte 0x0a"));
    check_value(b"a\x7fb", Err("invalid byte 0x7f"));
    check_value("wörld".as_bytes(), Err("invalid byte 0xc3"));
}

#[test]
fn routing_headers_are_matched_case_insensitively_and_counted() {
    let headers =
        HeaderView::new([("mcp-method", &b"a"[..]), ("X-Other", b"x"), ("MCP-METHOD", b"b")]);
    assert_eq!(headers.sent("Mcp-Method"), (Some(&b"a"[..]), 2));
    assert_eq!(headers.sent("Mcp-Name"), (None, 0));
    assert_eq!(headers.sent("X-Other"), (None, 0));
}

#[test]
fn routing_check_messages() {
    let view: HeaderView<'_> = [("mcp-name", &b" quote "[..])].into_iter().collect();
    assert_eq!(check_routing(&view, Routing::Name, "quote", &"body params.name"), Ok(()));
    for (headers, expected, message) in [
        (&[][..], "quote", r#"is missing; it must equal body params.name "quote""#),
        (
            &[("Mcp-Name", &b"quote"[..]), ("mcp-name", b"quote")],
            "quote",
            r#"is sent 2 times; send it once, equal to body params.name "quote""#,
        ),
        (&[("Mcp-Name", b"QUOTE")], "quote", r#""QUOTE" does not match body params.name "quote""#),
        (
            &[("Mcp-Name", b"=?base64?eA==?=")],
            "quote",
            r#""x" (base64-decoded) does not match body params.name "quote""#,
        ),
        (
            &[("Mcp-Name", b"=?base64?eA=?=")],
            "x",
            r#""=?base64?eA=?=" is not valid padded standard base64; it must equal body params.name "x""#,
        ),
    ] {
        let view: HeaderView<'_> = headers.iter().copied().collect();
        let error = check_routing(&view, Routing::Name, expected, &"body params.name")
            .expect_err("expected a mismatch");
        assert_eq!(error.code, ErrorCode::HEADER_MISMATCH, "{message}");
        assert_eq!(error.message, format!("header Mcp-Name {message}"));
    }
}

/// Header values and body values built from pieces that meet every branch: spaces and
/// tabs to trim, the sentinel markers, base64 of `x`, a control byte, non-ASCII text.
fn routing_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let piece = prop::sample::select(vec![
        " ",
        "\t",
        "=?base64?",
        "?=",
        "eA==",
        "x",
        "quote",
        "\n",
        "é",
        "a b",
    ]);
    prop::collection::vec(piece, 0..5).prop_map(|pieces| pieces.concat())
}

proptest::proptest! {
    /// The verbatim shortcut gives the answer of the full route: decode the value, then
    /// compare it with the body's.
    #[test]
    fn verbatim_shortcut_agrees_with_decoding(
        raw in routing_text(),
        other in routing_text(),
        pick in 0..3u8,
    ) {
        // Mostly a body value that the header spells verbatim, so the shortcut is taken.
        let expected = match pick {
            0 => other,
            1 => raw.clone(),
            _ => raw.trim_matches([' ', '\t']).to_owned(),
        };
        let view = HeaderView::new([("Mcp-Name", raw.as_bytes())]);
        let passes = check_routing(&view, Routing::Name, &expected, &"body params.name").is_ok();
        let decoded = header_value(raw.as_bytes()).is_ok_and(|value| value.text == expected);
        proptest::prop_assert_eq!(passes, decoded, "raw {:?} expected {:?}", raw, expected);
        if is_verbatim(raw.as_bytes(), &expected) {
            proptest::prop_assert!(decoded);
        }
    }
}

/// Bytes around each edge of visible ASCII (0x20/0x21, 0x7e/0x7f) and from 0x80 up, whose
/// carries and borrows the eight-byte check must not spread.
const EDGES: [u8; 8] = [0x00, 0x20, 0x21, b'a', 0x7e, 0x7f, 0x80, 0xff];

proptest::proptest! {
    /// The eight-at-a-time check answers as the byte rule does, for any length and any
    /// place of a byte outside visible ASCII.
    #[test]
    fn visible_ascii_is_the_byte_rule(
        bytes in proptest::collection::vec(proptest::sample::select(EDGES.to_vec()), 0..40),
        visible in proptest::collection::vec(0x21u8..0x7f, 0..40),
        at in 0usize..40,
    ) {
        for bytes in [bytes.clone(), visible.clone()] {
            proptest::prop_assert_eq!(is_visible_ascii(&bytes), bytes.iter().all(u8::is_ascii_graphic));
        }
        for edge in EDGES {
            let mut one = visible.clone();
            one.insert(at.min(one.len()), edge);
            proptest::prop_assert_eq!(is_visible_ascii(&one), edge.is_ascii_graphic(), "{:?}", one);
        }
    }
}
