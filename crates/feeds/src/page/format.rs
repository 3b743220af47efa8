//! Numbers for people: dollars with thousands separators, percent changes, dates.

#[cfg(test)]
mod tests;

/// `amount` in dollars and cents with thousands separators: `$12,345.67`, `-$5.00`.
pub(crate) fn usd(amount: f64) -> String {
    dollars(amount, 2)
}

/// `amount` rounded to whole dollars with thousands separators: `$12,346`.
pub(crate) fn usd_whole(amount: f64) -> String {
    dollars(amount, 0)
}

fn dollars(amount: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", amount.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let sign = if amount < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        "-"
    } else {
        ""
    };
    let mut out = format!("{sign}${}", group_thousands(whole));
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// `digits` (ASCII digits only) with a comma every three from the right.
fn group_thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A count with thousands separators: `12,345`.
pub(crate) fn count(n: u64) -> String {
    group_thousands(&n.to_string())
}

/// A signed percent change with two decimals and a real minus sign: `+1.31%`, `−0.47%`,
/// `0.00%`.
pub(crate) fn percent(change: f64) -> String {
    let text = format!("{:.2}", change.abs());
    match text.as_str() {
        "0.00" => "0.00%".to_owned(),
        _ if change < 0.0 => format!("\u{2212}{text}%"),
        _ => format!("+{text}%"),
    }
}

/// Which way a change went, for styling: `up`, `down` or `flat` (as shown, to cents).
pub(crate) fn direction(change: f64) -> &'static str {
    match percent(change).chars().next() {
        Some('+') => "up",
        Some('\u{2212}') => "down",
        _ => "flat",
    }
}

/// A carat band key as published, e.g. `1.0` for 1.0 ct.
pub(crate) fn carat(carat: f64) -> String {
    let text = format!("{carat}");
    if text.contains('.') { text } else { format!("{text}.0") }
}
