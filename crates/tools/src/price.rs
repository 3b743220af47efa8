//! `get_diamond_price`: arguments in, quote out. The one code path shared by the MCP tool
//! and `dcx quote --json`.

use datasets::Snapshot;
use jsonrpc::Object;
use pricing::{Evidence, Quote, QuoteError, QuoteField, QuoteInput, QuoteRequest, round_cents};
use serde::Serialize;
use serde_json::Value;

use crate::{
    args::{ArgumentErrors, Arguments},
    evidence::{self, RangeContent},
    text::{Breaks, Text, lit},
    twin::to_json_twins,
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
    /// Where `text`'s line breaks are, when they are its only bytes a JSON string escapes.
    pub(crate) text_breaks: Option<Breaks>,
    /// The `structuredContent` object as compact JSON (UTF-8): the result embeds it as is
    /// and also sends it as a JSON text item.
    pub(crate) structured: Vec<u8>,
    /// `structured` escaped as the contents of a JSON string: the JSON text item's bytes
    /// between its quotes, written in the same pass.
    pub(crate) structured_escaped: Vec<u8>,
}

impl Output {
    /// A result with `text` and the `structured` object.
    pub fn new(text: String, structured: &impl Serialize) -> Output {
        Output::with_breaks(text, None, structured)
    }

    /// A result with the `text` written and the `structured` object.
    pub(crate) fn written(text: Text, structured: &impl Serialize) -> Output {
        let (text, breaks) = text.finish();
        Output::with_breaks(text, breaks, structured)
    }

    fn with_breaks(
        text: String,
        text_breaks: Option<Breaks>,
        structured: &impl Serialize,
    ) -> Output {
        // Tool objects are structs and string-keyed maps of numbers, strings and
        // options: serializing them cannot fail.
        let (structured, structured_escaped) =
            to_json_twins(structured).expect("a tool's structuredContent serializes to JSON");
        Output { text, text_breaks, structured, structured_escaped }
    }

    /// The `structuredContent` as a JSON value, for checks and pretty printing.
    pub fn structured_value(&self) -> Value {
        serde_json::from_slice(&self.structured).expect("structuredContent is valid JSON")
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
    Ok(Output::written(text, &structured(&quote, snapshot, evidence.as_ref(), links)))
}

/// The deterministic tracking link of a quote: the feed server's `/track` route.
pub fn tracking_url(quote: &Quote, links: &Links) -> String {
    let mut url = Text::with_capacity(links.feed_url.len() + 80);
    url.push_str(links.feed_url.trim_end_matches('/'));
    url.push_str("/track?shape=");
    url.push_str(quote.shape.as_str());
    url.push_str("&carat=");
    url.decimal(quote.carat);
    for part in ["&color=", quote.color.as_str(), "&clarity=", quote.clarity.as_str()] {
        url.push_str(part);
    }
    if quote.shape.is_fancy() {
        url.push_str("&ratio=");
        url.decimal(quote.shape_ratio);
    }
    url.into_string()
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

/// The readable text of a quote, with the snapshot's `evidence` for it
/// ([`Snapshot::evidence`]).
pub(crate) fn text(quote: &Quote, snapshot: &Snapshot, evidence: Option<&Evidence>) -> Text {
    let mut out = Text::lines(512);
    out.decimal(quote.carat);
    lit!(out, " ct ");
    out.push_str(quote.color.as_str());
    lit!(out, " ");
    out.push_str(quote.clarity.as_str());
    lit!(out, " ");
    out.push_str(quote.shape.as_str());
    lit!(out, "\nPer carat: ");
    out.usd(quote.per_carat_usd);
    lit!(out, "\nTotal: ");
    out.usd(quote.total_usd);
    lit!(out, "\n");
    if let Some(fancy) = &quote.fancy {
        let a = fancy.adjustment;
        lit!(out, "L/W ratio: ");
        out.decimal(quote.shape_ratio);
        if fancy.ratio_defaulted {
            lit!(out, ", the model's centre");
        }
        lit!(out, " (supported ");
        out.decimal(fancy.supported_range.0);
        lit!(out, "-");
        out.decimal(fancy.supported_range.1);
        lit!(out, "; observed at this size ");
        out.decimal(a.observed_range.0);
        lit!(out, "-");
        out.decimal(a.observed_range.1);
        lit!(out, ")\nRatio adjustment: x");
        out.fixed4(a.multiplier);
        lit!(out, " on the ");
        out.push_str(quote.base.feed_name());
        lit!(out, " base of ");
        out.usd(quote.base_per_carat_usd);
        lit!(out, "/ct\n");
        if a.preference_driven {
            lit!(
                out,
                "At this ratio pricing is preference-driven: the adjustment is held at the \
                 nearest observed ratio ("
            );
            out.decimal(a.applied_ratio);
            lit!(out, ").\n");
        }
        if a.band_extrapolated {
            lit!(out, "No ratio band covers ");
            out.decimal(quote.carat);
            lit!(out, " ct; the nearest band (");
            out.decimal(a.band_carats.0);
            lit!(out, " to ");
            match a.band_carats.1 {
                Some(max) => out.decimal(max),
                None => lit!(out, "open"),
            }
            lit!(out, " ct) was used.\n");
        }
    }
    if let Some(evidence) = evidence {
        evidence::push_line(&mut out, evidence);
        lit!(out, "\n");
    }
    lit!(out, "Data as of ");
    out.push_str(snapshot.ts_text());
    lit!(out, ".");
    out
}

#[cfg(test)]
mod tests;
