//! `get_diamond_price`: arguments in, quote out. The one code path shared by the MCP tool
//! and `dcx quote --json`.

use std::fmt;

use datasets::Snapshot;
use jsonrpc::Object;
use pricing::{Quote, QuoteField, QuoteInput, QuoteRequest, round_cents};
use serde::Serialize;
use serde_json::Value;

use crate::{
    args::{ArgumentErrors, Arguments},
    evidence::{self, Present, RangeContent},
    number::{self, Decimal, Piece, StackText, fixed, push},
    object_writer::json_object,
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
    /// The `structuredContent` object as compact JSON, serialized once: the result embeds
    /// it as is and also sends it as a JSON text item.
    pub structured: String,
    /// `structured` escaped as the contents of a JSON string (the JSON text item's bytes
    /// between its quotes), when the tool wrote it alongside; otherwise it is escaped when
    /// the result is written.
    pub(crate) structured_escaped: Option<Vec<u8>>,
}

impl Output {
    /// A result with `text` and the `structured` object.
    pub fn new(text: String, structured: &impl Serialize) -> Output {
        // Tool objects are structs and string-keyed maps of numbers, strings and
        // options: serializing them cannot fail.
        let structured =
            number::to_json(structured).expect("a tool's structuredContent serializes to JSON");
        Output { text, structured, structured_escaped: None }
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
    let (structured, escaped) = structured(&quote, snapshot, links).to_json_and_escaped();
    Ok(Output { text: text(&quote, snapshot), structured, structured_escaped: Some(escaped) })
}

/// The deterministic tracking link of a quote: the feed server's `/track` route.
pub fn tracking_url(quote: &Quote, links: &Links) -> String {
    let mut url = Vec::with_capacity(links.feed_url.len() + 80);
    push(
        &mut url,
        &[
            &links.feed_url.trim_end_matches('/'),
            &"/track?shape=",
            &quote.shape.as_str(),
            &"&carat=",
            &Decimal(quote.carat),
            &"&color=",
            &quote.color.as_str(),
            &"&clarity=",
            &quote.clarity.as_str(),
        ],
    );
    if quote.shape.is_fancy() {
        push(&mut url, &[&"&ratio=", &Decimal(quote.shape_ratio)]);
    }
    number::into_text(url)
}

json_object! {
    /// The `structuredContent` of `get_diamond_price` (docs/decisions.md 2.5 plus the
    /// fancy-shape fields), in the order it is written. The fancy-shape fields are `null` for round.
    /// Its members are listed once, here: serde and the hand writer (`write.rs`) both
    /// follow this list.
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
        #[serde(skip_serializing_if = "Present::is_absent")]
        range: Present<RangeContent>,
        #[serde(skip_serializing_if = "Present::is_absent")]
        observations: Present<u32>,
        #[serde(skip_serializing_if = "Present::is_absent")]
        basis: Present<&'static str>,
    }
}

json_object! {
    /// An inclusive L/W ratio range.
    struct Range {
        min: f64,
        max: f64,
    }
}

json_object! {
    /// The carats a ratio band covers; `max_carat` is `null` for an open band.
    struct CaratBand {
        min_carat: f64,
        max_carat: Option<f64>,
    }
}

/// The `structuredContent` of a quote.
pub fn structured<'a>(quote: &Quote, snapshot: &'a Snapshot, links: &Links) -> PriceContent<'a> {
    let fancy = quote.fancy.as_ref();
    let adjustment = fancy.map(|f| f.adjustment);
    let evidence = snapshot.evidence(quote);
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
        range: Present(evidence.map(|e| RangeContent::of(&e.range))),
        observations: Present(evidence.map(|e| e.observations)),
        basis: Present(evidence.map(|e| e.basis.as_str())),
    }
}

/// Formats USD with thousands separators and cents: `$12,345.60`.
pub fn usd(amount: f64) -> String {
    Usd(amount).to_string()
}

/// USD with thousands separators and cents, written without allocating.
#[derive(Debug, Clone, Copy)]
pub struct Usd(pub f64);

impl Piece for Usd {
    fn put(&self, out: &mut Vec<u8>) {
        let cents = (round_cents(self.0) * 100.0).round() as i64;
        let (whole, frac) = (cents.unsigned_abs() / 100, cents.unsigned_abs() % 100);
        let mut text = StackText::default();
        text.push(if cents < 0 { b"-$" } else { b"$" });
        // Groups of three digits, most significant first.
        let mut groups = [0u64; 7];
        let (mut rest, mut count) = (whole, 0);
        loop {
            groups[count] = rest % 1000;
            count += 1;
            rest /= 1000;
            if rest == 0 {
                break;
            }
        }
        text.digits(groups[count - 1], 1);
        for &group in groups[..count - 1].iter().rev() {
            text.push(b",");
            text.digits(group, 3);
        }
        text.push(b".");
        text.digits(frac, 2);
        out.extend_from_slice(text.as_bytes());
    }
}

impl fmt::Display for Usd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        number::display(self, f)
    }
}

/// The readable text of a quote.
pub fn text(quote: &Quote, snapshot: &Snapshot) -> String {
    let mut out = Vec::with_capacity(320);
    let (color, clarity, shape) =
        (quote.color.as_str(), quote.clarity.as_str(), quote.shape.as_str());
    push(&mut out, &[&Decimal(quote.carat), &" ct ", &color, &" ", &clarity, &" ", &shape, &"\n"]);
    push(&mut out, &[&"Per carat: ", &Usd(quote.per_carat_usd), &"\n"]);
    push(&mut out, &[&"Total: ", &Usd(quote.total_usd), &"\n"]);
    if let Some(fancy) = &quote.fancy {
        let a = fancy.adjustment;
        let centre = if fancy.ratio_defaulted { ", the model's centre" } else { "" };
        push(
            &mut out,
            &[
                &"L/W ratio: ",
                &Decimal(quote.shape_ratio),
                &centre,
                &" (supported ",
                &Decimal(fancy.supported_range.0),
                &"-",
                &Decimal(fancy.supported_range.1),
                &"; observed at this size ",
                &Decimal(a.observed_range.0),
                &"-",
                &Decimal(a.observed_range.1),
                &")\n",
            ],
        );
        push(
            &mut out,
            &[
                &"Ratio adjustment: x",
                &fixed(a.multiplier, 4),
                &" on the ",
                &quote.base.feed_name(),
                &" base of ",
                &Usd(quote.base_per_carat_usd),
                &"/ct\n",
            ],
        );
        if a.preference_driven {
            push(
                &mut out,
                &[
                    &"At this ratio pricing is preference-driven: the adjustment is held at the nearest observed ratio (",
                    &Decimal(a.applied_ratio),
                    &").\n",
                ],
            );
        }
        if a.band_extrapolated {
            push(
                &mut out,
                &[
                    &"No ratio band covers ",
                    &Decimal(quote.carat),
                    &" ct; the nearest band (",
                    &Decimal(a.band_carats.0),
                    &" to ",
                ],
            );
            match a.band_carats.1 {
                Some(max) => push(&mut out, &[&Decimal(max), &" ct) was used.\n"]),
                None => push(&mut out, &[&"open ct) was used.\n"]),
            }
        }
    }
    if let Some(evidence) = snapshot.evidence(quote) {
        push(&mut out, &[&evidence::line(&evidence).as_str(), &"\n"]);
    }
    push(&mut out, &[&"Data as of ", &snapshot.ts_text(), &"."]);
    number::into_text(out)
}

#[cfg(test)]
mod tests;
mod write;
