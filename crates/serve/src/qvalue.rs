//! Comma-separated header lists whose elements carry a `q` weight (`Accept`,
//! `Accept-Encoding`).

use hyper::{HeaderMap, header::HeaderName};

/// Weights are in thousandths: `q=1` is 1000, `q=0.5` is 500, `q=0` is 0.
pub(crate) type Weight = u16;

/// Every element of every `name` field line as `(value, weight)`, in order.
///
/// The value is the part before the first `;`, trimmed, case preserved. An element
/// whose `q` is malformed is skipped, as are field lines that are not visible ASCII.
pub(crate) fn weighted<'h>(
    headers: &'h HeaderMap,
    name: &HeaderName,
) -> impl Iterator<Item = (&'h str, Weight)> {
    headers
        .get_all(name)
        .iter()
        .filter_map(|line| line.to_str().ok())
        .flat_map(|line| line.split(','))
        .filter_map(element)
}

fn element(element: &str) -> Option<(&str, Weight)> {
    let mut parts = element.split(';');
    let value = parts.next()?.trim();
    if value.is_empty() {
        return None;
    }
    let mut weight = 1000;
    for param in parts {
        if let Some((name, q)) = param.split_once('=')
            && name.trim().eq_ignore_ascii_case("q")
        {
            weight = parse_q(q.trim())?;
        }
    }
    Some((value, weight))
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`
pub(crate) fn parse_q(text: &str) -> Option<Weight> {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (text, ""),
    };
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{fraction:0<3}").parse::<Weight>().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}
