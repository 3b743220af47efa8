//! `/check`: an asking price weighed against the live snapshot's quote of a stone
//! (`/check?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4&asking_price_usd=6500`):
//! the benchmark, where the ask falls among comparable asks (percentile), its discount
//! against the benchmark and a verdict by the 10th-90th percentile range
//! ([`pricing::Evidence::assess`]), with the range, the asks behind it and the basis of
//! the price. The same fields as the tool server's `check_asking_price`; bad parameters
//! get `/track`'s answer and words. Also the evidence members `/track` entries carry.

use bytes::Bytes;
use datasets::{History, Snapshot};
use hyper::{Response, StatusCode, header::HeaderValue};
use pricing::{Evidence, Given, Quote, QuoteRequest, round_cents, tenth};
use serde::Serialize;
use serde_json::json;
use serve::Body;

use crate::{
    query,
    stone::{self, LISTED_PROBLEMS_MAX, PARAMETERS, Problem, Refusal},
    track,
};

#[cfg(test)]
mod tests;

/// The asking price parameter: the total asked for the stone, USD.
pub(crate) const ASKING: &str = pricing::ASKING_PRICE;

/// An example of a good query, in every `400` answer.
const EXAMPLE: &str =
    "/check?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4&asking_price_usd=6500";

/// The asking price rule ([`pricing::asking_price`]) as `/check` reports a problem.
pub(crate) fn asking_price(given: Given<f64>) -> Result<f64, Problem> {
    pricing::asking_price(given).map_err(|message| Problem {
        parameter: ASKING.to_owned(),
        message,
        allowed: pricing::ASKING_PRICE_ALLOWED.to_owned(),
    })
}

/// The evidence of a quote as published: the range in cents, the asks behind it and the
/// basis of the price (the tool server's names and roundings).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct ShownEvidence {
    pub(crate) basis: &'static str,
    pub(crate) observations: u32,
    pub(crate) range: ShownRange,
}

/// The 10th-90th percentile range of comparable asks, in dollars rounded to cents; its
/// members in the order of their names, as every answer of the feed server writes them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct ShownRange {
    pub(crate) high_per_carat_usd: f64,
    pub(crate) high_usd: f64,
    pub(crate) low_per_carat_usd: f64,
    pub(crate) low_usd: f64,
}

impl ShownEvidence {
    /// `evidence` rounded for publishing.
    pub(crate) fn of(evidence: &Evidence) -> ShownEvidence {
        let range = evidence.range;
        ShownEvidence {
            basis: evidence.basis.as_str(),
            observations: evidence.observations,
            range: ShownRange {
                high_per_carat_usd: round_cents(range.high_per_carat_usd),
                high_usd: round_cents(range.high_usd),
                low_per_carat_usd: round_cents(range.low_per_carat_usd),
                low_usd: round_cents(range.low_usd),
            },
        }
    }
}

/// `/check`'s answer: the fields of the tool's `structuredContent`, in the order of their
/// names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Checked {
    pub(crate) as_of: String,
    pub(crate) asking_price_usd: f64,
    pub(crate) basis: &'static str,
    pub(crate) benchmark_per_carat_usd: f64,
    pub(crate) benchmark_usd: f64,
    pub(crate) carat: f64,
    pub(crate) clarity: &'static str,
    pub(crate) color: &'static str,
    pub(crate) discount_pct: f64,
    pub(crate) observations: u32,
    pub(crate) percentile: f64,
    pub(crate) range: ShownRange,
    pub(crate) shape: &'static str,
    pub(crate) shape_ratio: f64,
    pub(crate) verdict: &'static str,
}

/// The `/check` answer of a stone's quote and an ask.
pub(crate) fn answer(snapshot: &Snapshot, quote: &Quote, evidence: &Evidence, ask: f64) -> Checked {
    let assessed = evidence.assess(ask);
    let shown = ShownEvidence::of(evidence);
    Checked {
        as_of: snapshot.ts_text().to_owned(),
        asking_price_usd: ask,
        basis: shown.basis,
        benchmark_per_carat_usd: round_cents(quote.per_carat_usd),
        benchmark_usd: round_cents(quote.total_usd),
        carat: quote.carat,
        clarity: quote.clarity.as_str(),
        color: quote.color.as_str(),
        discount_pct: tenth(assessed.discount_pct),
        observations: shown.observations,
        percentile: tenth(assessed.percentile),
        range: shown.range,
        shape: quote.shape.as_str(),
        shape_ratio: quote.shape_ratio,
        verdict: assessed.verdict.as_str(),
    }
}

/// Reads a `/check` query: the stone by `/track`'s rules and words, and the ask; every bad
/// parameter at once (the first [`LISTED_PROBLEMS_MAX`], the rest counted).
pub(crate) fn parse(query: &str) -> Result<(QuoteRequest, f64), Refusal> {
    let pairs = query::pairs(query);
    let mut problems = Vec::new();
    let known = format!("{}, {ASKING}", PARAMETERS.join(", "));
    for (name, _) in pairs.iter().filter(|(name, _)| !is_stone(name) && name != ASKING) {
        let message = format!("unknown parameter {}", words::quoted(name));
        problems.push(Problem {
            parameter: words::clip(name).into_owned(),
            message,
            allowed: known.clone(),
        });
    }
    let asks: Vec<&str> =
        pairs.iter().filter(|(n, _)| n == ASKING).map(|(_, v)| v.as_str()).collect();
    // The stone's parameters as sent, for `/track`'s own checks.
    let given: Vec<&str> = query
        .split('&')
        .filter(|segment| query::pairs(segment).first().is_some_and(|(name, _)| is_stone(name)))
        .collect();
    let (request, more) = match stone::parse(&given.join("&")) {
        Ok(request) => (Some(request), 0),
        Err(refusal) => {
            problems.extend(refusal.problems);
            (None, refusal.more)
        }
    };
    let ask = match asks.as_slice() {
        [_, _, ..] => Err(Problem {
            parameter: ASKING.to_owned(),
            message: format!("{ASKING} is given more than once"),
            allowed: "one value".to_owned(),
        }),
        asks => asking_price(asks.first().map_or(Given::Missing, |text| Given::number_text(text))),
    };
    let ask = ask.map_err(|problem| problems.push(problem)).ok();
    match (request, ask) {
        (Some(request), Some(ask)) if problems.is_empty() => Ok((request, ask)),
        _ => {
            let more = more + problems.len().saturating_sub(LISTED_PROBLEMS_MAX);
            problems.truncate(LISTED_PROBLEMS_MAX);
            Err(Refusal { problems, more })
        }
    }
}

fn is_stone(name: &str) -> bool {
    PARAMETERS.contains(&name)
}

/// Answers `/check?<query>` from the live snapshot of `history`: `200` with the answer
/// (with an `ETag`, gzip when asked, `304` when the tag matches); `400` naming every bad
/// parameter, as `/track` does; `503` when the live snapshot has no spread data.
pub(crate) fn respond(
    history: &History,
    request: &serve::Request,
    cache_control: &HeaderValue,
) -> Response<Body> {
    let live = history.live();
    let checked = parse(request.uri.query().unwrap_or(""))
        .and_then(|(stone, ask)| Ok((live.quote(&stone)?, ask)));
    match checked {
        Ok((quote, ask)) => match live.evidence(&quote) {
            Some(evidence) => {
                let body = serde_json::to_string(&answer(live, &quote, &evidence, ask))
                    .expect("an answer serializes");
                let ts = live.ts().timestamp();
                serve::Representation::for_request(
                    Bytes::from(body),
                    "application/json",
                    ts,
                    request,
                )
                .respond(request, cache_control)
            }
            None => {
                let body = json!({ "error": "no spread data", "message": no_spreads(live) });
                serve::json_response(StatusCode::SERVICE_UNAVAILABLE, Bytes::from(body.to_string()))
            }
        },
        Err(refusal) => track::refused(EXAMPLE, &refusal),
    }
}

/// Why no ask can be checked against `snapshot`.
pub(crate) fn no_spreads(snapshot: &Snapshot) -> String {
    format!(
        "no asking price can be checked now: the live snapshot ({}) has no spread data \
         (matrix_stats.json); /track and /quote still price the stone",
        snapshot.ts_text()
    )
}
