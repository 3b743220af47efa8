//! `/track`: one stone's quote in the snapshots of a window of days, oldest first: the
//! last [`DEFAULT_DAYS`] days unless `days=N`, `days=all` or `from=YYYY-MM-DD` says
//! otherwise. The default window is held parsed ([`datasets::HELD_DAYS`]), so its cost
//! does not grow with the history; an older day is read from disk when a wider window
//! asks for it (the route is under the rate limit).
//!
//! The target of the tool server's `tracking_url`
//! (`/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4`).

use bytes::Bytes;
use chrono::{Days, NaiveDate};
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

/// The parameters that pick the window of days: `days` (the days up to that many before
/// the live one, or `all`) and `from` (a first day); one of them at most.
const DAYS: &str = "days";
const FROM: &str = "from";
const DAYS_ALLOWED: &str = "a whole number of days from 0 to 36500, or all";
const FROM_ALLOWED: &str = "a date YYYY-MM-DD";
const DAYS_MAX: u64 = 36_500;

/// The window of `/track` and the calculator when the query names none: the live day and
/// the 30 days before it, the days a server holds parsed.
pub(crate) const DEFAULT_DAYS: u64 = datasets::HELD_DAYS;

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

/// Answers `/track?<query>` from `history`: `200` with the entry of every snapshot of
/// the window (with an `ETag`, gzip when asked, `304` when the tag matches), or `400`
/// naming every bad parameter.
pub(crate) fn respond(
    history: &History,
    request: &serve::Request,
    cache_control: &str,
) -> Response<Body> {
    let query = request.uri.query().unwrap_or("");
    let ts = history.live().ts().timestamp();
    match parse(query) {
        Ok(stone) => {
            let tracked = track(history, &stone, from_date(query, history.live_date()));
            let (body, kind) = match wants_csv(query) {
                true => (crate::page::track_csv(&tracked), crate::page::CSV_TYPE),
                false => (serde_json::to_string(&tracked).unwrap_or_default(), "application/json"),
            };
            serve::Representation::for_request(Bytes::from(body), kind, ts, request)
                .respond(request, cache_control)
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
    let known = format!("{}, {FORMAT}, {DAYS}, {FROM}", PARAMETERS.join(", "));
    let mut seen: Vec<&str> = Vec::new();
    for (name, _) in &pairs {
        if !PARAMETERS.contains(&name.as_str()) && ![FORMAT, DAYS, FROM].contains(&name.as_str()) {
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
    if let Some(text) = value(DAYS)
        && days(text).is_none()
    {
        problem(DAYS, format!("days {} is not a number of days", serve::quote(text)), DAYS_ALLOWED);
    }
    if let Some(text) = value(FROM)
        && date(text).is_none()
    {
        problem(FROM, format!("from {} is not a date", serve::quote(text)), FROM_ALLOWED);
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

/// `days=N`: a number of days (`None` when it is not one); `all` is every day.
fn days(text: &str) -> Option<u64> {
    match text.eq_ignore_ascii_case("all") {
        true => Some(u64::MAX),
        false => text.parse().ok().filter(|&days| days <= DAYS_MAX),
    }
}

fn date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok().filter(|_| text.len() == 10)
}

/// The first day of the window a query (checked by [`parse`]) asks for, given the live
/// day: `from`, or `days` before the live day, or [`DEFAULT_DAYS`] before it. Given
/// both, both bounds apply: the window starts at the later of the two.
pub(crate) fn from_date(query: &str, live: NaiveDate) -> NaiveDate {
    let pairs = query::pairs(query);
    let value = |name: &str| pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let since = |days: u64| live.checked_sub_days(Days::new(days)).unwrap_or(NaiveDate::MIN);
    match (value(FROM).and_then(date), value(DAYS).and_then(days)) {
        (Some(from), Some(days)) => from.max(since(days)),
        (Some(from), None) => from,
        (None, days) => since(days.unwrap_or(DEFAULT_DAYS)),
    }
}

/// The stone's entry in every snapshot of `history` from `from` on, oldest first.
pub(crate) fn track(history: &History, request: &QuoteRequest, from: NaiveDate) -> Value {
    let window = history.days_from(from);
    let entries: Vec<Value> = window
        .iter()
        .map(|day| {
            let mut entry = Map::new();
            entry.insert("date".to_owned(), json!(day.date.to_string()));
            entry.insert("ts".to_owned(), json!(day.ts_text()));
            let snapshot = match history.snapshot_of(day) {
                Ok(snapshot) => snapshot,
                Err(err) => {
                    let reason = err.to_string().replace('\n', ";");
                    let message = format!("this day's snapshot cannot be read: {reason}");
                    entry.insert("error".to_owned(), json!(message));
                    return Value::Object(entry);
                }
            };
            match snapshot.quote(request) {
                Ok(quote) => {
                    entry.insert(
                        "per_carat_usd".to_owned(),
                        json!(round_cents(quote.per_carat_usd)),
                    );
                    entry.insert("total_usd".to_owned(), json!(round_cents(quote.total_usd)));
                    if let Some(evidence) = snapshot.evidence(&quote) {
                        crate::check::insert_evidence(&mut entry, &evidence);
                    }
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
        // The window asked for, from the first day held at the earliest: asking again
        // with it gives the same answer.
        "from": from.max(history.days()[0].date).to_string(),
        "history_days": history.days().len(),
        "entries": entries,
    })
}
