//! `/track`: one stone's quote in every snapshot the server holds, oldest first.
//!
//! The target of the tool server's `tracking_url`
//! (`/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4`).

use bytes::Bytes;
use datasets::History;
use hyper::{Response, StatusCode};
use pricing::{Given, QuoteInput, QuoteRequest, round_cents};
use serde_json::{Map, Value, json};
use serve::Body;

use crate::query;

#[cfg(test)]
mod tests;

/// The parameters `/track` accepts.
pub(crate) const PARAMETERS: [&str; 5] = ["shape", "carat", "color", "clarity", "ratio"];

/// The parameter that picks the answer's format, and the formats it takes (JSON unless
/// asked).
const FORMAT: &str = "format";
const FORMATS: &str = "json, csv";

/// Most problems one `/track` error lists; the rest are only counted, so that neither the
/// answer nor the work to build it grows with the query.
pub(crate) const LISTED_PROBLEMS_MAX: usize = 8;

/// One bad parameter: which, what was wrong, and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) parameter: String,
    pub(crate) message: String,
    pub(crate) allowed: String,
}

/// Answers `/track?<query>` from `history`: `200` with every snapshot's entry, or `400`
/// naming every bad parameter.
pub(crate) fn respond(history: &History, query: &str, cache_control: &str) -> Response<Body> {
    match parse(query) {
        Ok(request) if wants_csv(query) => {
            crate::page::track_csv(&track(history, &request), cache_control)
        }
        Ok(request) => {
            let mut response = json(StatusCode::OK, &track(history, &request));
            if let Ok(value) = cache_control.parse() {
                response.headers_mut().insert(hyper::header::CACHE_CONTROL, value);
            }
            response
        }
        Err(Refusal { problems, more }) => {
            let problems: Vec<Value> = problems
                .iter()
                .map(|p| json!({ "parameter": p.parameter, "message": p.message, "allowed": p.allowed }))
                .collect();
            let mut body = json!({
                "error": "invalid parameters",
                "problems": problems,
                "example": "/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4",
            });
            if more > 0 {
                body["more_problems"] = json!(more);
            }
            json(StatusCode::BAD_REQUEST, &body)
        }
    }
}

/// Whether the query asks for CSV (`format=csv`, any case; checked by [`parse`]).
fn wants_csv(query: &str) -> bool {
    query::pairs(query)
        .iter()
        .any(|(name, value)| name == FORMAT && value.eq_ignore_ascii_case("csv"))
}

fn json(status: StatusCode, value: &Value) -> Response<Body> {
    let text = serde_json::to_string(value).unwrap_or_default();
    serve::json_response(status, Bytes::from(text))
}

/// Why a query was refused: the first [`LISTED_PROBLEMS_MAX`] problems in the order
/// found, and how many more there were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) problems: Vec<Problem>,
    pub(crate) more: usize,
}

/// Reads the query into a quote request, reporting every bad parameter at once (the
/// first [`LISTED_PROBLEMS_MAX`] by name, the rest counted).
pub(crate) fn parse(query: &str) -> Result<QuoteRequest, Refusal> {
    let mut problems = Vec::new();
    let mut more = 0;
    let mut problem = |parameter: &str, message: String, allowed: &str| {
        if problems.len() == LISTED_PROBLEMS_MAX {
            more += 1;
            return;
        }
        problems.push(Problem {
            parameter: serve::clip(parameter).into_owned(),
            message,
            allowed: allowed.to_owned(),
        })
    };
    let pairs = query::pairs(query);
    let known = format!("{}, {FORMAT}", PARAMETERS.join(", "));
    let mut seen: Vec<&str> = Vec::new();
    for (name, _) in &pairs {
        if !PARAMETERS.contains(&name.as_str()) && name != FORMAT {
            problem(name, format!("unknown parameter {}", serve::quote(name)), &known);
        } else if seen.contains(&name.as_str()) {
            problem(name, format!("{name} is given more than once"), "one value");
        } else {
            seen.push(name);
        }
    }
    let value = |name: &str| pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let number = |name: &str| value(name).map_or(Given::Missing, Given::number_text);
    // The parameters are the request's field names (`QuoteField::name`).
    let input = QuoteInput {
        carat: number("carat"),
        color: value("color").into(),
        clarity: value("clarity").into(),
        shape: value("shape").into(),
        ratio: number("ratio"),
    };
    if let Some(text) = value(FORMAT)
        && !FORMATS.split(", ").any(|format| format.eq_ignore_ascii_case(text))
    {
        problem(FORMAT, format!("unknown format {}", serve::quote(text)), FORMATS);
    }
    let checked = input.validate();
    for rule in checked.as_ref().err().into_iter().flatten() {
        problem(rule.field.name(), rule.message.clone(), &rule.field.allowed());
    }
    match checked {
        Ok(request) if problems.is_empty() => Ok(request),
        _ => Err(Refusal { problems, more }),
    }
}

/// The stone's entry in every snapshot of `history`, oldest first.
pub(crate) fn track(history: &History, request: &QuoteRequest) -> Value {
    let entries: Vec<Value> = history
        .days()
        .iter()
        .map(|day| {
            let mut entry = Map::new();
            entry.insert("date".to_owned(), json!(day.date.to_string()));
            entry.insert("ts".to_owned(), json!(day.snapshot.ts_text()));
            match day.snapshot.quote(request) {
                Ok(quote) => {
                    entry.insert(
                        "per_carat_usd".to_owned(),
                        json!(round_cents(quote.per_carat_usd)),
                    );
                    entry.insert("total_usd".to_owned(), json!(round_cents(quote.total_usd)));
                    if let Some(fancy) = quote.fancy {
                        let adjustment = fancy.adjustment;
                        entry.insert("shape_ratio".to_owned(), json!(quote.shape_ratio));
                        entry.insert("ratio_multiplier".to_owned(), json!(adjustment.multiplier));
                        entry.insert(
                            "preference_driven_ratio".to_owned(),
                            json!(adjustment.preference_driven),
                        );
                    }
                }
                Err(err) => {
                    entry.insert("error".to_owned(), json!(err.message));
                }
            }
            Value::Object(entry)
        })
        .collect();
    json!({
        "shape": request.shape.as_str(),
        "carat": request.carat,
        "color": request.color.as_str(),
        "clarity": request.clarity.as_str(),
        "ratio": request.ratio,
        "currency": "USD",
        "live_ts": history.live().ts_text(),
        "entries": entries,
    })
}
