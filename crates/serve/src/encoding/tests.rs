//! Unit tests for `crate::encoding`: q-value negotiation and gzip.

use crate::encoding::{gzip, gzip_fast, prefers_gzip};
use crate::qvalue::parse_q;
use crate::testing::{gunzip, headers};

#[track_caller]
fn check(accept_encoding: &[&str], expect: bool) {
    let pairs: Vec<_> = accept_encoding.iter().map(|value| ("accept-encoding", *value)).collect();
    assert_eq!(prefers_gzip(&headers(&pairs)), expect, "{accept_encoding:?}");
}

#[test]
fn negotiation() {
    check(&[], false);
    check(&[""], false);
    check(&["gzip"], true);
    check(&["GZip"], true);
    check(&["x-gzip"], true);
    check(&["gzip, deflate, br"], true);
    check(&["br"], false);
    check(&["identity"], false);
    check(&["gzip;q=0"], false);
    check(&["gzip; q=0.000"], false);
    check(&["gzip;Q=0.001"], true);
    check(&["*"], true);
    check(&["*;q=0"], false);
    check(&["*, gzip;q=0"], false);
    check(&["gzip;q=0, *"], false);
    check(&["br, *;q=0.1"], true);
    check(&["gzip;q=0.5, identity;q=0.8"], false);
    check(&["gzip;q=0.8, identity;q=0.5"], true);
    check(&["gzip;q=0.5, *;q=0.9"], false);
    check(&["identity;q=0, gzip;q=0.2"], true);
    check(&["gzip;q=1.5"], false);
    check(&["gzip;q=abc"], false);
    check(&["br", "gzip"], true);
}

#[test]
fn q_values() {
    assert_eq!(parse_q(b"1"), Some(1000));
    assert_eq!(parse_q(b"1.000"), Some(1000));
    assert_eq!(parse_q(b"0"), Some(0));
    assert_eq!(parse_q(b"0.5"), Some(500));
    assert_eq!(parse_q(b"0.25"), Some(250));
    assert_eq!(parse_q(b"0.001"), Some(1));
    assert_eq!(parse_q(b"0."), Some(0));
    assert_eq!(parse_q(b"1.001"), None);
    assert_eq!(parse_q(b"0.0001"), None);
    assert_eq!(parse_q(b"2"), None);
    assert_eq!(parse_q(b".5"), None);
    assert_eq!(parse_q(b"0.-1"), None);
    assert_eq!(parse_q(b""), None);
}

#[test]
fn gzip_round_trips_and_skips_what_does_not_shrink() {
    let identity = "diamond,price\n".repeat(200).into_bytes();
    let compressed = gzip(&identity).expect("repetitive text compresses");
    assert!(compressed.len() < identity.len());
    assert_eq!(gunzip(&compressed), identity);
    assert_eq!(gzip(b"tiny"), None);
    assert_eq!(gzip(b""), None);
}

/// The fast compressor is reused from body to body: each body decodes to itself, however
/// large, and what does not shrink is left alone.
#[test]
fn fast_gzip_round_trips_body_after_body() {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut noisy = Vec::new();
    for _ in 0..200_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Sixteen symbols: compressible to about half, more than the first reservation.
        noisy.push(b'a' + (state % 16) as u8);
    }
    let bodies = [noisy, "diamond,price\n".repeat(200).into_bytes(), b"x".to_vec()];
    for identity in &bodies {
        let Some(compressed) = gzip_fast(identity) else {
            assert_eq!(identity.len(), 1, "only the tiny body does not shrink");
            continue;
        };
        assert_eq!(&gunzip(&compressed), identity);
    }
}
