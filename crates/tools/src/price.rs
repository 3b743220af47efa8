//! `get_diamond_price`: arguments in, quote out. The one code path shared by the MCP tool
//! and `dcx quote --json`.

use datasets::Snapshot;
use pricing::{CARAT_MAX, CARAT_MIN, Clarity, Color, Quote, QuoteRequest, Shape, round_cents};
use serde_json::{Map, Value, json};

use crate::args::{ArgumentErrors, Arguments};

/// Where links in results point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Links {
    /// Base URL of the feed server, without a trailing slash; `tracking_url` points at
    /// its `/track` route.
    pub feed_url: String,
}

impl Default for Links {
    fn default() -> Links {
        Links { feed_url: "http://127.0.0.1:8080".to_owned() }
    }
}

/// A finished tool result: the readable text and the machine-readable object.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The `text` content item.
    pub text: String,
    /// The `structuredContent` object.
    pub structured: Value,
}

/// The argument names `get_diamond_price` accepts.
pub const ARGUMENTS: &[&str] = &["carat", "color", "clarity", "shape", "shape_ratio"];

/// Reads the arguments into a quote request, reporting every bad argument at once.
pub fn request(arguments: &Map<String, Value>) -> Result<QuoteRequest, ArgumentErrors> {
    let mut args = Arguments::new(arguments, ARGUMENTS);
    let carat = args.required_number("carat", "a number of carats between 0.3 and 6.0");
    if let Some(carat) = carat.filter(|c| !(CARAT_MIN..=CARAT_MAX).contains(c)) {
        args.fail(
            "carat",
            format!("carat must be between {CARAT_MIN} and {CARAT_MAX}, got {carat}"),
        );
    }
    let color = args.required_grade("color", Color::parse);
    let clarity = args.required_grade("clarity", Clarity::parse);
    let shape =
        args.optional_grade("shape", Shape::parse).map(|shape| shape.unwrap_or(Shape::Round));
    let ratio = args.optional_number("shape_ratio", "a length-to-width ratio such as 1.35");
    args.finish()?;
    Ok(QuoteRequest {
        carat: carat.expect("checked"),
        color: color.expect("checked"),
        clarity: clarity.expect("checked"),
        shape: shape.expect("checked"),
        ratio: ratio.expect("checked"),
    })
}

/// Prices the stone the arguments describe from `snapshot`.
pub fn price(
    snapshot: &Snapshot,
    arguments: &Map<String, Value>,
    links: &Links,
) -> Result<Output, ArgumentErrors> {
    let request = request(arguments)?;
    let quote =
        snapshot.quote(&request).map_err(|err| ArgumentErrors::one(err.argument, err.message))?;
    Ok(Output { text: text(&quote, snapshot), structured: structured(&quote, snapshot, links) })
}

/// The deterministic tracking link of a quote: the feed server's `/track` route.
pub fn tracking_url(quote: &Quote, links: &Links) -> String {
    let mut url = format!(
        "{}/track?shape={}&carat={}&color={}&clarity={}",
        links.feed_url.trim_end_matches('/'),
        quote.shape,
        quote.carat,
        quote.color,
        quote.clarity
    );
    if quote.shape.is_fancy() {
        url.push_str(&format!("&ratio={}", quote.shape_ratio));
    }
    url
}

fn range(min: f64, max: f64) -> Value {
    json!({ "min": min, "max": max })
}

/// The `structuredContent` of a quote (seed part 2.5 plus the fancy-shape fields).
pub fn structured(quote: &Quote, snapshot: &Snapshot, links: &Links) -> Value {
    let fancy = quote.fancy.as_ref();
    let adjustment = fancy.map(|f| f.adjustment);
    json!({
        "shape": quote.shape.as_str(),
        "carat": quote.carat,
        "color": quote.color.as_str(),
        "clarity": quote.clarity.as_str(),
        "shape_ratio": quote.shape_ratio,
        "per_carat_usd": round_cents(quote.per_carat_usd),
        "total_usd": round_cents(quote.total_usd),
        "tracking_url": tracking_url(quote, links),
        "as_of": snapshot.ts_text(),
        "base_matrix": quote.base.feed_name(),
        "base_per_carat_usd": round_cents(quote.base_per_carat_usd),
        "supported_ratio_range": fancy.map(|f| range(f.supported_range.0, f.supported_range.1)),
        "observed_ratio_range": adjustment.map(|a| range(a.observed_range.0, a.observed_range.1)),
        "price_adjustment_ratio": adjustment.map(|a| a.applied_ratio),
        "ratio_multiplier": adjustment.map_or(1.0, |a| a.multiplier),
        "preference_driven_ratio": adjustment.is_some_and(|a| a.preference_driven),
        "ratio_band_extrapolated": adjustment.is_some_and(|a| a.band_extrapolated),
        "ratio_band": adjustment.map(|a| json!({ "min_carat": a.band_carats.0, "max_carat": a.band_carats.1 })),
    })
}

/// Formats USD with thousands separators and cents: `$12,345.60`.
pub fn usd(amount: f64) -> String {
    let cents = (round_cents(amount) * 100.0).round() as i64;
    let (whole, frac) = (cents.abs() / 100, cents.abs() % 100);
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    format!("{}${grouped}.{frac:02}", if cents < 0 { "-" } else { "" })
}

/// The readable text of a quote.
pub fn text(quote: &Quote, snapshot: &Snapshot) -> String {
    let mut lines = vec![
        format!("{} ct {} {} {}", quote.carat, quote.color, quote.clarity, quote.shape),
        format!("Per carat: {}", usd(quote.per_carat_usd)),
        format!("Total: {}", usd(quote.total_usd)),
    ];
    if let Some(fancy) = &quote.fancy {
        let a = fancy.adjustment;
        lines.push(format!(
            "L/W ratio: {}{} (supported {}-{}; observed at this size {}-{})",
            quote.shape_ratio,
            if fancy.ratio_defaulted { ", the model's centre" } else { "" },
            fancy.supported_range.0,
            fancy.supported_range.1,
            a.observed_range.0,
            a.observed_range.1
        ));
        lines.push(format!(
            "Ratio adjustment: x{:.4} on the {} base of {}/ct",
            a.multiplier,
            quote.base.feed_name(),
            usd(quote.base_per_carat_usd)
        ));
        if a.preference_driven {
            lines.push(format!(
                "At this ratio pricing is preference-driven: the adjustment is held at the nearest observed ratio ({}).",
                a.applied_ratio
            ));
        }
        if a.band_extrapolated {
            lines.push(format!(
                "No ratio band covers {} ct; the nearest band ({} to {} ct) was used.",
                quote.carat,
                a.band_carats.0,
                a.band_carats.1.map_or("open".to_owned(), |max| max.to_string())
            ));
        }
    }
    lines.push(format!("Data as of {}.", snapshot.ts_text()));
    lines.join("\n")
}

#[cfg(test)]
mod tests;
