//! Unit tests for the base64 decoder.

use super::decode;

#[track_caller]
fn check(input: &str, expect: Option<&[u8]>) {
    assert_eq!(decode(input.as_bytes()).as_deref(), expect, "input {input:?}");
}

#[test]
fn decodes_padded_input() {
    check("", Some(b""));
    check("Zg==", Some(b"f"));
    check("Zm8=", Some(b"fo"));
    check("Zm9v", Some(b"foo"));
    check("Zm9vYg==", Some(b"foob"));
    check("Zm9vYmE=", Some(b"fooba"));
    check("Zm9vYmFy", Some(b"foobar"));
    check("SGVsbG8sIOS4lueVjA==", Some("Hello, 世界".as_bytes()));
    check("+/+/", Some(&[0xfb, 0xff, 0xbf]));
}

#[test]
fn rejects_bad_input() {
    check("Zg", None);
    check("Zg=", None);
    check("Zg===", None);
    check("Z===", None);
    check("====", None);
    check("Zg==Zg==", None);
    check("Zm=v", None);
    check("Zm9v!A==", None);
    check("Zm9-", None);
    check("Zm9_", None);
    check("Zm 9v", None);
    check("SGVsbG8sIOS4lueVjA=", None);
}
