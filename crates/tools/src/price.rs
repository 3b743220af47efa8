//! `get_diamond_price`: arguments in, quote out. The one code path shared by the MCP tool
//! and `dcx quote --json`.

use std::fmt::{self, Write as _};

use datasets::Snapshot;
use jsonrpc::Object;
use pricing::{Quote, QuoteField, QuoteInput, QuoteRequest, round_cents};
use serde::Serialize;
use serde_json::{Value, value::RawValue};

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
#[derive(Debug, Clone)]
pub struct Output {
    /// The `text` content item.
    pub text: String,
    /// The `structuredContent` object as compact JSON, serialized once (serde_json writes
    /// each number once): the result embeds it as is and also sends it as a JSON text item.
    pub structured: Box<RawValue>,
}

impl Output {
    /// A result with `text` and the `structured` object.
    pub fn new(text: String, structured: &impl Serialize) -> Output {
        // Tool objects are structs and string-keyed maps of numbers, strings and
        // options: serializing them cannot fail.
        let structured = serde_json::value::to_raw_value(structured)
            .expect("a tool's structuredContent serializes to JSON");
        Output { text, structured }
    }

    /// The `structuredContent` as a JSON value, for checks and pretty printing.
    pub fn structured_value(&self) -> Value {
        serde_json::from_str(self.structured.get()).expect("structuredContent is valid JSON")
    }
}

/// The argument names `get_diamond_price` accepts.
pub const ARGUMENTS: &[&str] = &["carat", "color", "clarity", "shape", "shape_ratio"];

/// The tool's name for a field of a quote request (the ratio is `shape_ratio`).
pub fn argument_name(field: QuoteField) -> &'static str {
    match field {
        QuoteField::Ratio => "shape_ratio",
        other => other.name(),
    }
}

/// Reads the arguments into a quote request, reporting every bad argument at once:
/// unknown names here, the values by the quote rules (`pricing::QuoteInput`).
pub fn request(arguments: &Object<'_>) -> Result<QuoteRequest, ArgumentErrors> {
    let mut args = Arguments::new(arguments, ARGUMENTS);
    let input = QuoteInput {
        carat: args.number("carat"),
        color: args.text("color"),
        clarity: args.text("clarity"),
        shape: args.text("shape"),
        ratio: args.number(argument_name(QuoteField::Ratio)),
    };
    let checked = input.validate();
    for problem in checked.as_ref().err().into_iter().flatten() {
        args.refuse(argument_name(problem.field), problem.clone());
    }
    args.finish()?;
    Ok(checked.expect("no problem was found"))
}

/// Prices the stone the arguments describe from `snapshot`.
pub fn price(
    snapshot: &Snapshot,
    arguments: &Object<'_>,
    links: &Links,
) -> Result<Output, ArgumentErrors> {
    quote(snapshot, &request(arguments)?, links)
}

/// Prices a request already read (`dcx quote` reads its flags into one) from `snapshot`:
/// the tool's output, or the argument a snapshot's rule refused.
pub fn quote(
    snapshot: &Snapshot,
    request: &QuoteRequest,
    links: &Links,
) -> Result<Output, ArgumentErrors> {
    let quote = snapshot
        .quote(request)
        .map_err(|err| ArgumentErrors::one(argument_name(err.field), err.message))?;
    Ok(Output::new(text(&quote, snapshot), &structured(&quote, snapshot, links)))
}

/// The deterministic tracking link of a quote: the feed server's `/track` route.
pub fn tracking_url(quote: &Quote, links: &Links) -> String {
    let mut url = format!(
        "{}/track?shape={}&carat={}&color={}&clarity={}",
        links.feed_url.trim_end_matches('/'),
        quote.shape.as_str(),
        quote.carat,
        quote.color.as_str(),
        quote.clarity.as_str(),
    );
    if quote.shape.is_fancy() {
        // Writing into a String cannot fail.
        let _ = write!(url, "&ratio={}", quote.shape_ratio);
    }
    url
}

/// The `structuredContent` of `get_diamond_price` (docs/decisions.md 2.5 plus the
/// fancy-shape fields), in the order it is written. The fancy-shape fields are `null` for
/// round. A new member is a new field here (and in the tool's `outputSchema`).
#[derive(Debug, Serialize)]
pub struct PriceContent<'a> {
    shape: &'static str,
    carat: f64,
    color: &'static str,
    clarity: &'static str,
    shape_ratio: f64,
    per_carat_usd: f64,
    total_usd: f64,
    tracking_url: String,
    as_of: &'a str,
    base_matrix: &'static str,
    base_per_carat_usd: f64,
    supported_ratio_range: Option<Range>,
    observed_ratio_range: Option<Range>,
    price_adjustment_ratio: Option<f64>,
    ratio_multiplier: f64,
    preference_driven_ratio: bool,
    ratio_band_extrapolated: bool,
    ratio_band: Option<CaratBand>,
}

/// An inclusive L/W ratio range.
#[derive(Debug, Serialize)]
struct Range {
    min: f64,
    max: f64,
}

/// The carats a ratio band covers; `max_carat` is `null` for an open band.
#[derive(Debug, Serialize)]
struct CaratBand {
    min_carat: f64,
    max_carat: Option<f64>,
}

/// The `structuredContent` of a quote.
pub fn structured<'a>(quote: &Quote, snapshot: &'a Snapshot, links: &Links) -> PriceContent<'a> {
    let fancy = quote.fancy.as_ref();
    let adjustment = fancy.map(|f| f.adjustment);
    PriceContent {
        shape: quote.shape.as_str(),
        carat: quote.carat,
        color: quote.color.as_str(),
        clarity: quote.clarity.as_str(),
        shape_ratio: quote.shape_ratio,
        per_carat_usd: round_cents(quote.per_carat_usd),
        total_usd: round_cents(quote.total_usd),
        tracking_url: tracking_url(quote, links),
        as_of: snapshot.ts_text(),
        base_matrix: quote.base.feed_name(),
        base_per_carat_usd: round_cents(quote.base_per_carat_usd),
        supported_ratio_range: fancy
            .map(|f| Range { min: f.supported_range.0, max: f.supported_range.1 }),
        observed_ratio_range: adjustment
            .map(|a| Range { min: a.observed_range.0, max: a.observed_range.1 }),
        price_adjustment_ratio: adjustment.map(|a| a.applied_ratio),
        ratio_multiplier: adjustment.map_or(1.0, |a| a.multiplier),
        preference_driven_ratio: adjustment.is_some_and(|a| a.preference_driven),
        ratio_band_extrapolated: adjustment.is_some_and(|a| a.band_extrapolated),
        ratio_band: adjustment
            .map(|a| CaratBand { min_carat: a.band_carats.0, max_carat: a.band_carats.1 }),
    }
}

/// Formats USD with thousands separators and cents: `$12,345.60`.
pub fn usd(amount: f64) -> String {
    Usd(amount).to_string()
}

/// USD with thousands separators and cents.
#[derive(Debug, Clone, Copy)]
pub struct Usd(pub f64);

impl fmt::Display for Usd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cents = (round_cents(self.0) * 100.0).round() as i64;
        let (whole, frac) = (cents.unsigned_abs() / 100, cents.unsigned_abs() % 100);
        f.write_str(if cents < 0 { "-$" } else { "$" })?;
        // Groups of three digits, most significant first.
        let mut scale = 1;
        while whole / scale >= 1000 {
            scale *= 1000;
        }
        write!(f, "{}", whole / scale)?;
        while scale > 1 {
            scale /= 1000;
            write!(f, ",{:03}", whole / scale % 1000)?;
        }
        write!(f, ".{frac:02}")
    }
}

/// The readable text of a quote.
pub fn text(quote: &Quote, snapshot: &Snapshot) -> String {
    let mut out = String::with_capacity(320);
    // Writing into a String cannot fail.
    let _ = write_text(&mut out, quote, snapshot);
    out
}

fn write_text(out: &mut String, quote: &Quote, snapshot: &Snapshot) -> fmt::Result {
    let (color, clarity, shape) =
        (quote.color.as_str(), quote.clarity.as_str(), quote.shape.as_str());
    writeln!(out, "{} ct {color} {clarity} {shape}", quote.carat)?;
    writeln!(out, "Per carat: {}", Usd(quote.per_carat_usd))?;
    writeln!(out, "Total: {}", Usd(quote.total_usd))?;
    if let Some(fancy) = &quote.fancy {
        let a = fancy.adjustment;
        let centre = if fancy.ratio_defaulted { ", the model's centre" } else { "" };
        let (supported, observed) = (fancy.supported_range, a.observed_range);
        writeln!(
            out,
            "L/W ratio: {}{centre} (supported {}-{}; observed at this size {}-{})",
            quote.shape_ratio, supported.0, supported.1, observed.0, observed.1
        )?;
        writeln!(
            out,
            "Ratio adjustment: x{:.4} on the {} base of {}/ct",
            a.multiplier,
            quote.base.feed_name(),
            Usd(quote.base_per_carat_usd)
        )?;
        if a.preference_driven {
            writeln!(
                out,
                "At this ratio pricing is preference-driven: the adjustment is held at the \
                 nearest observed ratio ({}).",
                a.applied_ratio
            )?;
        }
        if a.band_extrapolated {
            write!(
                out,
                "No ratio band covers {} ct; the nearest band ({} to ",
                quote.carat, a.band_carats.0
            )?;
            match a.band_carats.1 {
                Some(max) => writeln!(out, "{max} ct) was used.")?,
                None => writeln!(out, "open ct) was used.")?,
            }
        }
    }
    write!(out, "Data as of {}.", snapshot.ts_text())
}

#[cfg(test)]
mod tests;
