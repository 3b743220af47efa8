//! Listings written back as CSV in the native schema (`docs/methodology.md`), so that the
//! listings target can check that what `methodology::read_listings` accepted reads back
//! the same.

use methodology::{Fluorescence, Listing};

/// The native columns this writer fills, in order.
const HEADER: &str = "carat,color,clarity,shape,cut,price,lw_ratio,lab,polish,symmetry,fluorescence,listing_id,observed";

/// `listings` as native CSV text: a header, one row per listing. Numbers are written in
/// Rust's shortest form that reads back to the same `f64`; text fields are always quoted.
pub fn native_csv(listings: &[Listing]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for listing in listings {
        let number = |value: Option<f64>| value.map(|v| v.to_string()).unwrap_or_default();
        let text = |value: Option<&str>| value.map(quoted).unwrap_or_default();
        let row = [
            number(Some(listing.carat)),
            listing.color.as_str().to_owned(),
            listing.clarity.as_str().to_owned(),
            listing.shape.as_str().to_owned(),
            quoted(listing.cut.as_str()),
            number(Some(listing.price)),
            number(listing.lw_ratio),
            text(listing.lab.as_deref()),
            text(listing.polish.map(|finish| finish.as_str())),
            text(listing.symmetry.map(|finish| finish.as_str())),
            listing.fluorescence.map(fluorescence).unwrap_or_default().to_owned(),
            text(listing.listing_id.as_deref()),
            listing.observed.map(|day| day.format("%Y-%m-%d").to_string()).unwrap_or_default(),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// A CSV field in double quotes, a quote inside doubled (RFC 4180).
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// A word `methodology`'s reader takes for each strength.
fn fluorescence(strength: Fluorescence) -> &'static str {
    match strength {
        Fluorescence::None => "None",
        Fluorescence::Faint => "Faint",
        Fluorescence::Medium => "Medium",
        Fluorescence::Strong => "Strong",
        Fluorescence::VeryStrong => "Very Strong",
    }
}
