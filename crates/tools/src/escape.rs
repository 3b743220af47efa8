//! [`write_str`]: a string as the JSON literal serde_json writes, eight bytes at a time.
//! It buys about 2 k instructions per price call on the readable text (about 350 bytes,
//! a line break every 50) against serde_json's escaper, which looks at one byte at a
//! time (docs/performance.md, "Writing a tool call's answer"). A property test holds it
//! to serde_json's bytes.

#[cfg(test)]
mod tests;

/// Appends `text` as a JSON string literal, quotes included, escaped as serde_json
/// escapes: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as
/// `\u00xx` (lower-case hex), everything else (non-ASCII included) as is.
pub(crate) fn write_str(out: &mut Vec<u8>, text: &str) {
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
fn write_str_contents(out: &mut Vec<u8>, text: &str) {
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
