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

/// Bits beyond the data must be zero: each byte string has one spelling.
#[test]
fn rejects_non_canonical_trailing_bits() {
    check("Zh==", None);
    check("Zv==", None);
    check("Zm9=", None);
    check("Zm/=", None);
    check("Zm8=", Some(b"fo"));
    check("Zg==", Some(b"f"));
    check("AA==", Some(&[0]));
    check("AB==", None);
    check("AAA=", Some(&[0, 0]));
    check("AAB=", None);
}

/// A reference encoder, only for the round-trip property.
fn encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut buf = [0u8; 3];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = u32::from_be_bytes([0, buf[0], buf[1], buf[2]]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

proptest::proptest! {
    #[test]
    fn decode_inverts_encode(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
        proptest::prop_assert_eq!(decode(encode(&bytes).as_bytes()), Some(bytes));
    }

    /// What decodes is what the encoder writes: no second spelling gets through.
    #[test]
    fn decoding_accepts_only_canonical_text(input in "[A-Za-z0-9+/]{2,8}={0,2}") {
        if let Some(bytes) = decode(input.as_bytes()) {
            proptest::prop_assert_eq!(encode(&bytes), input);
        }
    }

    #[test]
    fn decode_never_panics(input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
        let _ = decode(&input);
    }
}
