//! `check_asking_price`: a stone (the arguments of `get_diamond_price`) and the total
//! asked for it in; the benchmark price, where the ask falls among comparable asks
//! (percentile), its discount against the benchmark and a verdict by the 10th-90th
//! percentile range out ([`pricing::Evidence::assess`]). Needs the live snapshot's
//! spreads (`matrix_stats.json`); without them the call is a tool error saying so.

use std::fmt::Write as _;

use datasets::Snapshot;
use jsonrpc::Object;
use pricing::{Assessment, Evidence, Quote, asking_price, round_cents, tenth};
use serde_json::{Value, json};

use crate::{
    args::{ArgumentError, ArgumentErrors, Arguments},
    evidence,
    price::{self, Output, argument_name},
    text::{Text, lit},
    twin::{Twins, fragment},
};

#[cfg(test)]
mod tests;

/// The asking price argument: the total asked for the stone, USD.
pub(crate) const ASKING: &str = pricing::ASKING_PRICE;

/// The argument names `check_asking_price` accepts: `get_diamond_price`'s and the ask.
pub(crate) const ARGUMENTS: &[&str] =
    &["carat", "color", "clarity", "shape", "shape_ratio", "asking_price_usd"];

/// The `structuredContent` of `check_asking_price`: an ask weighed against a quote's
/// evidence, in the order it is written.
fn structured(
    quote: &Quote,
    evidence: &Evidence,
    asking: f64,
    assessment: &Assessment,
    snapshot: &Snapshot,
) -> Twins {
    let mut out = Twins::new();
    price::stone_members(&mut out, quote);
    fragment!(out, r#","asking_price_usd":"#);
    out.number(asking);
    fragment!(out, r#","benchmark_usd":"#);
    out.number(round_cents(quote.total_usd));
    fragment!(out, r#","benchmark_per_carat_usd":"#);
    out.number(round_cents(quote.per_carat_usd));
    fragment!(out, r#","percentile":"#);
    out.number(tenth(assessment.percentile));
    fragment!(out, r#","discount_pct":"#);
    out.number(tenth(assessment.discount_pct));
    fragment!(out, r#","verdict":"#);
    out.name(assessment.verdict.as_str());
    evidence::members(&mut out, evidence);
    fragment!(out, r#","as_of":"#);
    out.name(snapshot.ts_text());
    fragment!(out, "}");
    out
}

/// Runs `check_asking_price` on `snapshot`: every bad argument at once (the quote rules',
/// then the ask's), then the argument a snapshot's rule refused, then the evidence.
pub(crate) fn check_asking_price(
    snapshot: &Snapshot,
    arguments: &Object<'_>,
) -> Result<Output, ArgumentErrors> {
    let mut args = Arguments::new(arguments, ARGUMENTS);
    let checked = price::stone(&mut args);
    let asking = asking_price(args.number(ASKING));
    match (args.finish(), &asking) {
        (Ok(()), Ok(_)) => {}
        (Ok(()), Err(message)) => return Err(ArgumentErrors::one(ASKING, message.clone())),
        (Err(mut errors), asking) => {
            if let Err(message) = asking {
                let problem =
                    ArgumentError { argument: ASKING.to_owned(), message: message.clone() };
                errors.listed.push(problem);
            }
            return Err(errors);
        }
    }
    let (request, asking) = (checked.expect("no problem was found"), asking.unwrap_or_default());
    let quote = snapshot
        .quote(&request)
        .map_err(|err| ArgumentErrors::one(argument_name(err.field), err.message))?;
    let Some(evidence) = snapshot.evidence(&quote) else {
        return Err(ArgumentErrors::one(ASKING, no_spreads(snapshot)));
    };
    let assessment = evidence.assess(asking);
    let content = structured(&quote, &evidence, asking, &assessment, snapshot);
    Ok(Output::written(text(&quote, &evidence, asking, &assessment, snapshot), content))
}

/// The tool error when the live snapshot has no spreads.
pub(crate) fn no_spreads(snapshot: &Snapshot) -> String {
    format!(
        "no asking price can be checked now: the live snapshot ({}) has no spread data \
         (matrix_stats.json); get_diamond_price still prices the stone",
        snapshot.ts_text()
    )
}

/// The readable text: the stone and its ask, the benchmark, the verdict with the
/// percentile and discount, the range line of `get_diamond_price` and the snapshot time.
fn text(
    quote: &Quote,
    evidence: &Evidence,
    asking: f64,
    assessment: &Assessment,
    snapshot: &Snapshot,
) -> Text {
    let mut out = Text::with_capacity(400);
    price::stone_title(&mut out, quote);
    if quote.shape.is_fancy() {
        lit!(out, ", L/W ");
        out.decimal(quote.shape_ratio);
    }
    lit!(out, "\nAsking: ");
    out.usd(asking);
    lit!(out, "\nBenchmark: ");
    out.usd(quote.total_usd);
    lit!(out, " (");
    out.usd(quote.per_carat_usd);
    lit!(out, " per carat)\n");
    let discount = tenth(assessment.discount_pct);
    let side = match discount {
        d if d < 0.0 => " % below the benchmark",
        d if d > 0.0 => " % above the benchmark",
        _ => " % from the benchmark",
    };
    // Writing into a Vec cannot fail.
    let _ = writeln!(
        out,
        "Verdict: {} (by the 10th-90th percentile range); the ask is at percentile {:.1} of \
         comparable asks, {:.1}{side}.",
        assessment.verdict.as_str(),
        tenth(assessment.percentile),
        discount.abs(),
    );
    evidence::push_line(&mut out, evidence);
    lit!(out, "\n");
    out.as_of(snapshot.ts_text());
    out
}

/// The `check_asking_price` result schema.
pub(crate) fn output_schema() -> Value {
    let mut schema = crate::schemas::price_output();
    let price = schema["properties"].take();
    let keep = ["shape", "carat", "color", "clarity", "shape_ratio", "as_of"];
    let usd = |what: &str| json!({ "type": "number", "minimum": 0, "description": what });
    let mut properties = serde_json::Map::new();
    for name in keep {
        properties.insert(name.to_owned(), price[name].clone());
    }
    properties.insert(ASKING.to_owned(), usd("The total asked, as given."));
    properties.insert(
        "benchmark_usd".to_owned(),
        usd("The benchmark total price (get_diamond_price's total_usd), USD rounded to cents."),
    );
    properties.insert("benchmark_per_carat_usd".to_owned(), usd("The benchmark price per carat (get_diamond_price's per_carat_usd), USD rounded to cents."));
    properties.insert("percentile".to_owned(), json!({ "type": "number", "minimum": 0, "maximum": 100, "description": "Where the ask falls among comparable asks, 0 to 100 (one decimal): linear in log price between the published percentiles, normal tails beyond them." }));
    properties.insert("discount_pct".to_owned(), json!({ "type": "number", "description": "The ask against the benchmark in percent (one decimal): -12.5 means 12.5 % below it." }));
    properties.insert("verdict".to_owned(), json!({ "type": "string", "enum": ["below_market", "within_market", "above_market"], "description": "below_market under the range's low end (10th percentile), above_market over its high end (90th), within_market otherwise (ends included)." }));
    properties.insert("range".to_owned(), evidence::range_schema());
    properties.insert("observations".to_owned(), evidence::observations_schema());
    properties.insert("basis".to_owned(), evidence::basis_schema());
    let required: Vec<&String> = properties.keys().collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The `check_asking_price` arguments for the snapshot priced from `prices`:
/// `get_diamond_price`'s (the same rules, the live snapshot's ratios) and the ask.
pub(crate) fn input_schema(prices: &pricing::PricingSet) -> Value {
    let mut schema = crate::schemas::price_input(prices);
    schema["properties"][ASKING] = json!({
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "The total asked for the stone, US dollars: a finite number greater than 0.",
    });
    if let Some(required) = schema["required"].as_array_mut() {
        required.push(json!(ASKING));
    }
    schema
}
