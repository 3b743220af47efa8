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
    text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Appends `text` (UTF-8) escaped as the contents of a JSON string literal. Compact JSON
/// escaped so is the text of a JSON string holding that JSON.
pub fn push_json_escaped(out: &mut Vec<u8>, text: &[u8]) {
    out.reserve(text.len() + text.len() / 4);
    let mut start = 0;
    for (at, &byte) in text.iter().enumerate() {
        let short = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            0..0x20 => 0,
            _ => continue,
        };
        out.extend_from_slice(&text[start..at]);
        start = at + 1;
        if short == 0 {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(byte >> 4)]);
            out.push(HEX[usize::from(byte & 0xf)]);
        } else {
            out.push(b'\\');
            out.push(short);
        }
    }
    out.extend_from_slice(&text[start..]);
}
