//! `get_diamond_price`: arguments in, quote out. The one code path shared by the MCP tool
//! and `dcx quote --json`.

use std::fmt::Write as _;

use datasets::Snapshot;
use jsonrpc::Object;
use pricing::{Evidence, Quote, QuoteError, QuoteField, QuoteInput, QuoteRequest, round_cents};
use serde::Serialize;
use serde_json::Value;

use crate::{
    args::{ArgumentErrors, Arguments},
    evidence::{self, RangeContent},
    twin::{hundredths, to_json_twins},
};

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
    /// The `structuredContent` object as compact JSON: the result embeds it as is and
    /// also sends it as a JSON text item.
    pub structured: String,
    /// `structured` escaped as the contents of a JSON string: the JSON text item's bytes
    /// between its quotes, written in the same pass.
    pub(crate) structured_escaped: Vec<u8>,
}

impl Output {
    /// A result with `text` and the `structured` object.
    pub fn new(text: String, structured: &impl Serialize) -> Output {
        // Tool objects are structs and string-keyed maps of numbers, strings and
        // options: serializing them cannot fail.
        let (structured, structured_escaped) =
            to_json_twins(structured).expect("a tool's structuredContent serializes to JSON");
        Output { text, structured, structured_escaped }
    }

    /// The `structuredContent` as a JSON value, for checks and pretty printing.
    pub fn structured_value(&self) -> Value {
        serde_json::from_str(&self.structured).expect("structuredContent is valid JSON")
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
    let checked = stone(&mut args);
    args.finish()?;
    Ok(checked.expect("no problem was found"))
}

/// Reads the stone's arguments (`get_diamond_price`'s, which `check_asking_price` shares)
/// by the quote rules, refusing each bad one in `args`.
pub(crate) fn stone(args: &mut Arguments<'_>) -> Result<QuoteRequest, Vec<QuoteError>> {
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
    checked
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
    let evidence = snapshot.evidence(&quote);
    let text = text(&quote, snapshot, evidence.as_ref());
    Ok(Output::new(text, &structured(&quote, snapshot, evidence.as_ref(), links)))
}

/// The deterministic tracking link of a quote: the feed server's `/track` route.
pub fn tracking_url(quote: &Quote, links: &Links) -> String {
    let mut url = String::with_capacity(links.feed_url.len() + 80);
    url.push_str(links.feed_url.trim_end_matches('/'));
    url.push_str("/track?shape=");
    url.push_str(quote.shape.as_str());
    url.push_str("&carat=");
    push_decimal(&mut url, quote.carat);
    for part in ["&color=", quote.color.as_str(), "&clarity=", quote.clarity.as_str()] {
        url.push_str(part);
    }
    if quote.shape.is_fancy() {
        url.push_str("&ratio=");
        push_decimal(&mut url, quote.shape_ratio);
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
    /// The evidence members (`evidence.rs`), left out when the snapshot has no spreads.
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<RangeContent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    observations: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    basis: Option<&'static str>,
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

/// The `structuredContent` of a quote, with the snapshot's `evidence` for it
/// ([`Snapshot::evidence`]).
pub fn structured<'a>(
    quote: &Quote,
    snapshot: &'a Snapshot,
    evidence: Option<&Evidence>,
    links: &Links,
) -> PriceContent<'a> {
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
        range: evidence.map(|e| RangeContent::of(&e.range)),
        observations: evidence.map(|e| e.observations),
        basis: evidence.map(|e| e.basis.as_str()),
    }
}

/// Appends `value` as `{}` writes it. Between 1e-4 and 1e6 zmij (serde_json's number
/// writer) writes the same shortest digits, about a tenth of the instructions, but `1.0`
/// for 1, and whole hundredths are those digits from an integer (`twin::hundredths`, a
/// fifth of zmij's); elsewhere (where zmij may write an exponent or, above 7e7, another
/// last digit) the standard formatter does.
pub(crate) fn push_decimal(out: &mut String, value: f64) {
    let digits = hundredths(value);
    let mut buffer = zmij::Buffer::new();
    let text = match &digits {
        Some(digits) => std::str::from_utf8(digits.as_bytes()).expect("ASCII digits"),
        None if (1e-4..1e6).contains(&value.abs()) => buffer.format_finite(value),
        None => {
            // Writing into a String cannot fail.
            let _ = write!(out, "{value}");
            return;
        }
    };
    out.push_str(text.strip_suffix(".0").unwrap_or(text));
}

/// Appends `value` as `{:.4}` writes it (the exact value rounded half to even at four
/// decimals). Below 1e9, unless `value * 1e4` lies within 1e-6 of a rounding tie (where
/// the multiplication's own rounding could decide), the nearest whole number of
/// ten-thousandths is that rounding, its digits written right to left: about 100
/// instructions where `core::fmt`'s exact mode takes 2,000.
pub(crate) fn push_fixed4(out: &mut String, value: f64) {
    let scaled = value.abs() * 1e4;
    let fraction = scaled - scaled.trunc();
    if !value.is_finite() || value.abs() >= 1e9 || (fraction - 0.5).abs() < 1e-6 {
        // Writing into a String cannot fail.
        let _ = write!(out, "{value:.4}");
        return;
    }
    let mut rest = scaled.round() as u64;
    let mut text = [0u8; 24];
    let mut at = text.len();
    for place in 0.. {
        if place == 4 {
            at -= 1;
            text[at] = b'.';
        }
        at -= 1;
        text[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 && place >= 4 {
            break;
        }
    }
    if value.is_sign_negative() {
        at -= 1;
        text[at] = b'-';
    }
    out.push_str(std::str::from_utf8(&text[at..]).expect("ASCII digits"));
}

/// The readable text of a quote, with the snapshot's `evidence` for it
/// ([`Snapshot::evidence`]).
pub fn text(quote: &Quote, snapshot: &Snapshot, evidence: Option<&Evidence>) -> String {
    let mut out = String::with_capacity(320);
    let (color, clarity, shape) =
        (quote.color.as_str(), quote.clarity.as_str(), quote.shape.as_str());
    push_decimal(&mut out, quote.carat);
    for part in [" ct ", color, " ", clarity, " ", shape, "\nPer carat: "] {
        out.push_str(part);
    }
    words::push_usd(&mut out, quote.per_carat_usd);
    out.push_str("\nTotal: ");
    words::push_usd(&mut out, quote.total_usd);
    out.push('\n');
    if let Some(fancy) = &quote.fancy {
        let a = fancy.adjustment;
        out.push_str("L/W ratio: ");
        push_decimal(&mut out, quote.shape_ratio);
        if fancy.ratio_defaulted {
            out.push_str(", the model's centre");
        }
        out.push_str(" (supported ");
        push_decimal(&mut out, fancy.supported_range.0);
        out.push('-');
        push_decimal(&mut out, fancy.supported_range.1);
        out.push_str("; observed at this size ");
        push_decimal(&mut out, a.observed_range.0);
        out.push('-');
        push_decimal(&mut out, a.observed_range.1);
        out.push_str(")\nRatio adjustment: x");
        push_fixed4(&mut out, a.multiplier);
        out.push_str(" on the ");
        out.push_str(quote.base.feed_name());
        out.push_str(" base of ");
        words::push_usd(&mut out, quote.base_per_carat_usd);
        out.push_str("/ct\n");
        if a.preference_driven {
            out.push_str(
                "At this ratio pricing is preference-driven: the adjustment is held at the \
                 nearest observed ratio (",
            );
            push_decimal(&mut out, a.applied_ratio);
            out.push_str(").\n");
        }
        if a.band_extrapolated {
            out.push_str("No ratio band covers ");
            push_decimal(&mut out, quote.carat);
            out.push_str(" ct; the nearest band (");
            push_decimal(&mut out, a.band_carats.0);
            out.push_str(" to ");
            match a.band_carats.1 {
                Some(max) => push_decimal(&mut out, max),
                None => out.push_str("open"),
            }
            out.push_str(" ct) was used.\n");
        }
    }
    if let Some(evidence) = evidence {
        evidence::push_line(&mut out, evidence);
        out.push('\n');
    }
    out.push_str("Data as of ");
    out.push_str(snapshot.ts_text());
    out.push('.');
    out
}

#[cfg(test)]
mod tests;
