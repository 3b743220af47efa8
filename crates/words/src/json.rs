//! JSON string literals, byte for byte as serde_json writes them: `"` and `\` get a
//! backslash, `\b \f \n \r \t` their short escapes, other control characters `\u00XX`.

#[cfg(test)]
mod tests;

/// `text` as a JSON string literal, quotes included.
pub fn json_string(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len() + 2);
    out.push(b'"');
    push_json_escaped(&mut out, text.as_bytes());
    out.push(b'"');
    // Only ASCII bytes were added, around and between whole UTF-8 sequences.
    String::from_utf8(out).expect("escaping keeps UTF-8 whole")
}

/// Whether `text` holds a byte that a JSON string literal escapes.
pub fn needs_json_escape(text: &str) -> bool {
    first_escape(text.as_bytes()).is_some()
}

/// Appends `text` (UTF-8) escaped as the contents of a JSON string literal. Compact JSON
/// escaped so is the text of a JSON string holding that JSON. The runs between escapes
/// are found eight bytes at a time and copied whole.
pub fn push_json_escaped(out: &mut Vec<u8>, text: &[u8]) {
    out.reserve(text.len() + text.len() / 4);
    let mut rest = text;
    while let Some(at) = first_escape(rest) {
        out.extend_from_slice(&rest[..at]);
        let byte = rest[at];
        let short = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            _ => 0,
        };
        if short == 0 {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(byte >> 4)]);
            out.push(HEX[usize::from(byte & 0xf)]);
        } else {
            out.push(b'\\');
            out.push(short);
        }
        rest = &rest[at + 1..];
    }
    out.extend_from_slice(rest);
}

/// Where the first byte a JSON string escapes (`"`, `\`, below 0x20) is in `bytes`.
/// Eight bytes at a time (the last eight overlapping the ones before), a byte loop only
/// under eight: about a quarter of the instructions of a byte loop.
fn first_escape(bytes: &[u8]) -> Option<usize> {
    if bytes.len() < 8 {
        return bytes.iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\');
    }
    let mut at = 0;
    loop {
        let start = at.min(bytes.len() - 8);
        let chunk: [u8; 8] = bytes[start..start + 8].try_into().expect("eight bytes");
        let flags = escape_flags(u64::from_le_bytes(chunk));
        if flags != 0 {
            // The lowest flag is exact: false ones only come from a borrow out of a true
            // one below them, and the bytes before `at` held none.
            return Some(start + (flags.trailing_zeros() / 8) as usize);
        }
        at = start + 8;
        if at == bytes.len() {
            return None;
        }
    }
}

/// The high bit of each byte of `word` that is below 0x20, a quote or a backslash (and
/// maybe of bytes after such a byte).
fn escape_flags(word: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    let below = word.wrapping_sub(ONES * 0x20);
    let quote = (word ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    // Quote and backslash are ASCII: xor-ing them keeps each byte's high bit.
    (below | quote | backslash) & !word & (ONES * 0x80)
}
