//! Query strings: `application/x-www-form-urlencoded` pairs, decoded by hand.

#[cfg(test)]
mod tests;

/// The `name=value` pairs of `query` in order, percent-decoded, `+` read as a space.
///
/// Empty segments (`a=1&&b=2`) are skipped; a segment without `=` has an empty value.
/// Invalid escapes are kept literally and invalid UTF-8 is replaced, so decoding never
/// fails: the parameter checks that follow report anything odd.
pub(crate) fn pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|segment| !segment.is_empty())
        .map(|segment| {
            let (name, value) = segment.split_once('=').unwrap_or((segment, ""));
            (decode(name), decode(value))
        })
        .collect()
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let digit = |at: usize| bytes.get(at).copied().and_then(hex);
                match (digit(i + 1), digit(i + 2)) {
                    (Some(high), Some(low)) => {
                        out.push(high * 16 + low);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(byte: u8) -> Option<u8> {
    (byte as char).to_digit(16).and_then(|digit| u8::try_from(digit).ok())
}
