//! `get_diamond_price`: arguments in, quote out. The one code path shared by the MCP tool
//! and `dcx quote --json`.

use std::sync::Arc;

use datasets::Snapshot;
use jsonrpc::Object;
use pricing::{Evidence, Quote, QuoteError, QuoteField, QuoteInput, QuoteRequest, round_cents};
use serde_json::Value;

use crate::{
    args::{ArgumentErrors, Arguments},
    evidence,
    text::{Text, lit},
    twin::{Twins, fragment},
};

/// Where links in results point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Links {
    /// Base URL of the feed server, without a trailing slash; `tracking_url` points at
    /// its `/track` route.
    feed_url: String,
    /// Whether `feed_url` holds a character JSON escapes: a URL has none, but a `"` or `\`
    /// in the flag's text is still written right.
    feed_url_needs_escape: bool,
}

impl Links {
    /// Links to the feed server at `feed_url` (a trailing `/` is dropped).
    pub fn new(feed_url: &str) -> Links {
        let feed_url = feed_url.trim_end_matches('/').to_owned();
        let feed_url_needs_escape = words::needs_json_escape(&feed_url);
        Links { feed_url, feed_url_needs_escape }
    }

    /// The feed server's base URL, without a trailing slash.
    pub fn feed_url(&self) -> &str {
        &self.feed_url
    }
}

impl Default for Links {
    fn default() -> Links {
        Links::new("http://127.0.0.1:8080")
    }
}

/// A finished tool result: the readable text and the machine-readable object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The `text` content item, escaped as the contents of a JSON string (UTF-8).
    pub(crate) text_escaped: Vec<u8>,
    /// The `structuredContent` object as compact JSON (UTF-8): the result embeds it as is
    /// and also sends it as a JSON text item.
    pub(crate) structured: Vec<u8>,
    /// `structured` escaped as the contents of a JSON string: the JSON text item's bytes
    /// between its quotes, written in the same pass.
    pub(crate) structured_escaped: Vec<u8>,
}

/// A tool's result as a call hands it on: written for this call, or kept for the data it
/// depends on (`memo::LastBuilt`) and shared by every call that asks, not copied.
#[derive(Debug, Clone)]
pub enum Answered {
    /// Written for this call: once sent, its buffers are written into again.
    Written(Output),
    /// Built once per snapshot or history and thread: the DCX answer, the depth overview.
    Kept(Arc<Output>),
}

impl std::ops::Deref for Answered {
    type Target = Output;

    fn deref(&self) -> &Output {
        match self {
            Answered::Written(output) => output,
            Answered::Kept(output) => output,
        }
    }
}

impl Output {
    /// A result with the `text` and the `structured` object written.
    pub(crate) fn written(text: Text, structured: Twins) -> Output {
        let (structured, structured_escaped) = structured.finish();
        Output { text_escaped: text.into_escaped(), structured, structured_escaped }
    }

    /// The `text` content item.
    pub fn text(&self) -> String {
        crate::text::unescaped(&self.text_escaped)
    }

    /// The `structuredContent` as a JSON value, for checks and pretty printing.
    pub fn structured_value(&self) -> Value {
        serde_json::from_slice(&self.structured).expect("structuredContent is valid JSON")
    }

    /// Panics unless `structured` is the bytes serde_json writes for its value, in the
    /// writer's member order: the same bytes once sorted (an order of members permutes
    /// them, and nothing else may differ: no space, every number and string as serde_json
    /// writes it), and its twin that JSON escaped.
    #[cfg(test)]
    pub(crate) fn assert_serde_json_bytes(&self) {
        let mut ours = self.structured.clone();
        let mut serde = serde_json::to_vec(&self.structured_value()).unwrap();
        ours.sort_unstable();
        serde.sort_unstable();
        let written = String::from_utf8_lossy(&self.structured);
        assert!(ours == serde, "not serde_json's bytes: {written}");
        let mut escaped = Vec::new();
        words::push_json_escaped(&mut escaped, &self.structured);
        assert_eq!(self.structured_escaped, escaped);
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
#[inline(always)]
pub fn request(arguments: &Object<'_>) -> Result<QuoteRequest, ArgumentErrors> {
    let mut args = Arguments::new(arguments, ARGUMENTS);
    let checked = stone(&mut args);
    args.finish()?;
    Ok(checked.expect("no problem was found"))
}

/// Reads the stone's arguments (`get_diamond_price`'s, which `check_asking_price` shares)
/// by the quote rules, refusing each bad one in `args`.
#[inline(always)]
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
#[inline(always)]
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
    Ok(Output::written(text, structured(&quote, snapshot, evidence.as_ref(), links)))
}

/// The deterministic tracking link of a quote: the feed server's `/track` route.
fn tracking_url(url: &mut Text, quote: &Quote, links: &Links) {
    if links.feed_url_needs_escape {
        url.push_str(&links.feed_url);
    } else {
        url.name(&links.feed_url);
    }
    lit!(url, "/track?shape=");
    url.name(quote.shape.as_str());
    lit!(url, "&carat=");
    url.decimal(quote.carat);
    lit!(url, "&color=");
    url.name(quote.color.as_str());
    lit!(url, "&clarity=");
    url.name(quote.clarity.as_str());
    if quote.shape.is_fancy() {
        lit!(url, "&ratio=");
        url.decimal(quote.shape_ratio);
    }
}

/// The `structuredContent` of a quote (docs/decisions.md 2.5 plus the fancy-shape
/// fields, `null` for round), with the snapshot's `evidence` for it
/// ([`Snapshot::evidence`]; its members left out without spreads), in the order it is
/// written. A new member is a new line here (and in the tool's `outputSchema`).
#[inline(always)]
pub(crate) fn structured(
    quote: &Quote,
    snapshot: &Snapshot,
    evidence: Option<&Evidence>,
    links: &Links,
) -> Twins {
    let fancy = quote.fancy.as_ref();
    let adjustment = fancy.map(|f| f.adjustment);
    let mut out = Twins::new();
    stone_members(&mut out, quote);
    fragment!(out, r#","per_carat_usd":"#);
    out.number(round_cents(quote.per_carat_usd));
    fragment!(out, r#","total_usd":"#);
    out.number(round_cents(quote.total_usd));
    fragment!(out, r#","tracking_url":"#);
    out.text(|url| tracking_url(url, quote, links));
    fragment!(out, r#","as_of":"#);
    out.name(snapshot.ts_text());
    fragment!(out, r#","base_matrix":"#);
    out.name(quote.base.feed_name());
    fragment!(out, r#","base_per_carat_usd":"#);
    out.number(round_cents(quote.base_per_carat_usd));
    fragment!(out, r#","supported_ratio_range":"#);
    ratio_range(&mut out, fancy.map(|f| f.supported_range));
    fragment!(out, r#","observed_ratio_range":"#);
    ratio_range(&mut out, adjustment.map(|a| a.observed_range));
    fragment!(out, r#","price_adjustment_ratio":"#);
    out.maybe(adjustment.map(|a| a.applied_ratio));
    fragment!(out, r#","ratio_multiplier":"#);
    out.number(adjustment.map_or(1.0, |a| a.multiplier));
    fragment!(out, r#","preference_driven_ratio":"#);
    out.boolean(adjustment.is_some_and(|a| a.preference_driven));
    fragment!(out, r#","ratio_band_extrapolated":"#);
    out.boolean(adjustment.is_some_and(|a| a.band_extrapolated));
    fragment!(out, r#","ratio_band":"#);
    match adjustment {
        Some(a) => {
            fragment!(out, r#"{"min_carat":"#);
            out.number(a.band_carats.0);
            fragment!(out, r#","max_carat":"#);
            out.maybe(a.band_carats.1);
            fragment!(out, "}");
        }
        None => fragment!(out, "null"),
    }
    if let Some(evidence) = evidence {
        evidence::members(&mut out, evidence);
    }
    fragment!(out, "}");
    out
}

/// The members a result opens with, the stone: `{"shape":…,"shape_ratio":…` (no `}`).
#[inline(always)]
pub(crate) fn stone_members(out: &mut Twins, quote: &Quote) {
    fragment!(out, r#"{"shape":"#);
    out.name(quote.shape.as_str());
    fragment!(out, r#","carat":"#);
    out.number(quote.carat);
    fragment!(out, r#","color":"#);
    out.name(quote.color.as_str());
    fragment!(out, r#","clarity":"#);
    out.name(quote.clarity.as_str());
    fragment!(out, r#","shape_ratio":"#);
    out.number(quote.shape_ratio);
}

/// The stone a text opens with: `1.23 ct G VS2 oval`.
#[inline(always)]
pub(crate) fn stone_title(out: &mut Text, quote: &Quote) {
    out.decimal(quote.carat);
    lit!(out, " ct ");
    out.name(quote.color.as_str());
    lit!(out, " ");
    out.name(quote.clarity.as_str());
    lit!(out, " ");
    out.name(quote.shape.as_str());
}

/// An inclusive L/W ratio range, `{"min":…,"max":…}`, or `null`.
#[inline(always)]
fn ratio_range(out: &mut Twins, range: Option<(f64, f64)>) {
    match range {
        Some((min, max)) => {
            fragment!(out, r#"{"min":"#);
            out.number(min);
            fragment!(out, r#","max":"#);
            out.number(max);
            fragment!(out, "}");
        }
        None => fragment!(out, "null"),
    }
}

/// The readable text of a quote, with the snapshot's `evidence` for it
/// ([`Snapshot::evidence`]).
#[inline(always)]
pub(crate) fn text(quote: &Quote, snapshot: &Snapshot, evidence: Option<&Evidence>) -> Text {
    let mut out = Text::with_capacity(512);
    stone_title(&mut out, quote);
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
        out.name(quote.base.feed_name());
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
    out.as_of(snapshot.ts_text());
    out
}

#[cfg(test)]
mod tests;
