//! A strict decoder for standard base64 (RFC 4648 §4, `+` `/`, `=` padding required):
//! it accepts exactly the texts a standard encoder writes, so that one byte string has
//! one spelling (`Zg==` is `f`; `Zh==`, whose unused trailing bits are not zero, is
//! refused, as RFC 4648 §3.5 allows).
//!
//! Written by hand to keep the crate's dependencies to serde, serde_json and thiserror.

#[cfg(test)]
mod tests;

/// Decodes `input`; `None` on a length that is not a multiple of four, a character outside
/// the alphabet, padding anywhere but the last one or two positions, or a last character
/// before the padding whose bits beyond the data are not zero (non-canonical).
pub(crate) fn decode(input: &[u8]) -> Option<Vec<u8>> {
    if !input.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let chunks = input.chunks_exact(4);
    let last = chunks.len().saturating_sub(1);
    for (index, chunk) in chunks.enumerate() {
        let pad = chunk.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && index != last) {
            return None;
        }
        let mut acc: u32 = 0;
        for &byte in &chunk[..4 - pad] {
            acc = (acc << 6) | u32::from(sextet(byte)?);
        }
        acc <<= 6 * pad as u32;
        // The bytes the padding stands for hold the last sextet's unused bits (2 for one
        // `=`, 4 for two): a canonical encoder leaves them zero.
        if acc & ((1 << (8 * pad as u32)) - 1) != 0 {
            return None;
        }
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - pad]);
    }
    Some(out)
}

fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}
