//! Hand-written JSON for the hot path: a string escaper that writes the very bytes
//! serde_json writes, and a complete success response around result members the caller
//! writes itself. The serde route ([`crate::Response::success_json`] with
//! [`crate::Complete`]) stays the reference: tests compare the two byte for byte.

use crate::{RequestId, ResultMeta, id::Repr};

#[cfg(test)]
mod tests;

/// Appends `text` as a JSON string literal, quotes included, escaped as serde_json
/// escapes: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as
/// `\u00xx` (lower-case hex), everything else (non-ASCII included) as is.
pub fn write_str(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    write_str_contents(out, text);
    out.push(b'"');
}

/// Appends what goes between the quotes of [`write_str`]'s literal: `text`, escaped.
///
/// Eight bytes at a time: each chunk is appended whole (one store, no call to `memcpy`)
/// and cut back to the bytes before the first one that needs an escape. Text with a
/// quote every few bytes (a JSON document as a string) stays cheap that way.
pub fn write_str_contents(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if let Some(&chunk) = bytes[at..].first_chunk::<8>() {
            out.extend_from_slice(&chunk);
            let plain = plain_prefix(u64::from_le_bytes(chunk));
            if plain == 8 {
                at += 8;
                continue;
            }
            out.truncate(out.len() - 8 + plain);
            at += plain;
        } else if ESCAPE[usize::from(bytes[at])] == 0 {
            out.push(bytes[at]);
            at += 1;
            continue;
        }
        write_escape(out, bytes[at]);
        at += 1;
    }
}

/// Appends the escape of `byte`, one that [`ESCAPE`] marks.
fn write_escape(out: &mut Vec<u8>, byte: u8) {
    match ESCAPE[usize::from(byte)] {
        b'u' => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(byte >> 4)],
            HEX[usize::from(byte & 0xf)],
        ]),
        short => out.extend_from_slice(&[b'\\', short]),
    }
}

/// How many leading bytes of the eight in `chunk` (little-endian) need no escape. A byte
/// needs one when it is `"` or `\` (equal to the pattern byte: xor gives zero) or below
/// 0x20; `(x - 0x01…) & !x & 0x80…` marks bytes that were zero (or below the subtracted
/// value), and the lowest mark is always a true one (borrows only run upwards).
fn plain_prefix(chunk: u64) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x;
    let marks = (below(chunk ^ (ONES * u64::from(b'"')), 1)
        | below(chunk ^ (ONES * u64::from(b'\\')), 1)
        | below(chunk, 0x20))
        & HIGHS;
    (marks.trailing_zeros() / 8) as usize
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// For each byte, the character after the backslash of its escape (`u` for `\u00xx`),
/// or 0 when the byte is written as is.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Appends a request id as serde writes it: the integer, or the escaped string.
fn write_id(out: &mut Vec<u8>, id: &RequestId) {
    let mut digits = itoa::Buffer::new();
    match &id.0 {
        Repr::Int(i) => out.extend_from_slice(digits.format(*i).as_bytes()),
        Repr::UInt(u) => out.extend_from_slice(digits.format(*u).as_bytes()),
        Repr::Str(s) => write_str(out, s),
    }
}

/// The body of a success response for `id` whose result is the object that `members`
/// writes (its members only, comma-separated, without braces; possibly none), followed
/// by `"resultType":"complete"` and `_meta`: the same bytes as
/// [`crate::Response::success_json`] with [`crate::Complete`] around the same result.
/// `capacity` is a hint for the whole body's length.
pub fn write_complete(
    id: &RequestId,
    meta: &ResultMeta<'_>,
    capacity: usize,
    members: impl FnOnce(&mut Vec<u8>),
) -> Vec<u8> {
    write_result(id, meta, capacity, br#""resultType":"complete","_meta":{"timestamp":"#, members)
}

/// [`write_complete`] for a legacy (2025-era) client: the same bytes without
/// `"resultType"`, that is [`crate::Response::success_json`] with
/// [`crate::LegacyResult`] around the same result.
pub fn write_legacy_result(
    id: &RequestId,
    meta: &ResultMeta<'_>,
    capacity: usize,
    members: impl FnOnce(&mut Vec<u8>),
) -> Vec<u8> {
    write_result(id, meta, capacity, br#""_meta":{"timestamp":"#, members)
}

/// The response around `members`; `tail` opens the members that follow them, up to the
/// timestamp's value.
fn write_result(
    id: &RequestId,
    meta: &ResultMeta<'_>,
    capacity: usize,
    tail: &[u8],
    members: impl FnOnce(&mut Vec<u8>),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    write_id(&mut out, id);
    out.extend_from_slice(br#","result":{"#);
    members(&mut out);
    if out.last() != Some(&b'{') {
        out.push(b',');
    }
    out.extend_from_slice(tail);
    write_str(&mut out, meta.timestamp);
    out.extend_from_slice(br#","source":"#);
    write_str(&mut out, meta.source);
    out.extend_from_slice(br#","io.modelcontextprotocol/serverInfo":{"name":"#);
    write_str(&mut out, &meta.server.name);
    out.extend_from_slice(br#","version":"#);
    write_str(&mut out, &meta.server.version);
    out.extend_from_slice(b"}}}}");
    out
}
