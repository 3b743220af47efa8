//! Numbers for people: counts with thousands separators, percent changes, carats (dollars
//! are `words::usd`).

#[cfg(test)]
mod tests;

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
