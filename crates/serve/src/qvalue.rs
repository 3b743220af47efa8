//! Comma-separated header lists whose elements carry a `q` weight (`Accept`,
//! `Accept-Encoding`), read as bytes: no allocation, no UTF-8 or Unicode work.

use hyper::{
    HeaderMap,
    header::{HeaderName, HeaderValue},
};

/// Weights are in thousandths: `q=1` is 1000, `q=0.5` is 500, `q=0` is 0.
pub(crate) type Weight = u16;

/// Calls `each` with every element of every `name` field line as `(value, weight)`, in
/// order.
///
/// The value is the part before the first `;`, trimmed, case preserved. An element
/// whose `q` is malformed is skipped, as are field lines that are not visible ASCII
/// (what `HeaderValue::to_str` refuses).
pub(crate) fn weighted(
    headers: &HeaderMap,
    name: &HeaderName,
    mut each: impl FnMut(&[u8], Weight),
) {
    for line in headers.get_all(name) {
        weighted_line(line, &mut each);
    }
}

/// [`weighted`] for one field line.
pub(crate) fn weighted_line(line: &HeaderValue, mut each: impl FnMut(&[u8], Weight)) {
    let line = line.as_bytes();
    if !line.iter().all(|&b| b == b'\t' || (b' '..=b'~').contains(&b)) {
        return;
    }
    for element in line.split(|&b| b == b',') {
        if let Some((value, weight)) = self::element(element) {
            each(value, weight);
        }
    }
}

fn element(element: &[u8]) -> Option<(&[u8], Weight)> {
    let mut parts = element.split(|&b| b == b';');
    let value = parts.next()?.trim_ascii();
    if value.is_empty() {
        return None;
    }
    let mut weight = 1000;
    for param in parts {
        if let Some(equals) = param.iter().position(|&b| b == b'=')
            && param[..equals].trim_ascii().eq_ignore_ascii_case(b"q")
        {
            weight = parse_q(param[equals + 1..].trim_ascii())?;
        }
    }
    Some((value, weight))
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`
pub(crate) fn parse_q(text: &[u8]) -> Option<Weight> {
    let (whole, fraction) = match text.split_first()? {
        (whole, [b'.', fraction @ ..]) => (*whole, fraction),
        (whole, []) => (*whole, &[][..]),
        _ => return None,
    };
    if fraction.len() > 3 || !fraction.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let digits = fraction.iter().fold(0, |sum, &digit| sum * 10 + Weight::from(digit - b'0'));
    let thousandths = digits * [1000, 100, 10, 1][fraction.len()];
    match whole {
        b'0' => Some(thousandths),
        b'1' if thousandths == 0 => Some(1000),
        _ => None,
    }
}
