//! The stone a query names (`/track` and the calculator's `/quote`): its parameters
//! read and checked with the words every front end shows ([`pricing::QuoteInput`]),
//! every bad one reported at once, and the window of days it asks for.

use chrono::{Days, NaiveDate};
use pricing::{Given, QuoteInput, QuoteRequest};

use crate::query;

/// The parameters `/track` accepts.
pub(crate) const PARAMETERS: [&str; 5] = ["shape", "carat", "color", "clarity", "ratio"];

/// The parameter that picks the answer's format, and the formats it takes (JSON unless
/// asked).
pub(crate) const FORMAT: &str = "format";
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

/// One bad parameter: which, what was wrong, and what is allowed. Serialized as an
/// item of a `/track` refusal's `problems` (its fields in this order, the order of their
/// names).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Problem {
    pub(crate) allowed: String,
    pub(crate) message: String,
    pub(crate) parameter: String,
}

/// Why a query was refused: the first [`LISTED_PROBLEMS_MAX`] problems in the order
/// found, and how many more there were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) problems: Vec<Problem>,
    pub(crate) more: usize,
}

impl From<pricing::QuoteError> for Refusal {
    /// A quote's one problem, named by its field (the fields are the parameters).
    fn from(err: pricing::QuoteError) -> Refusal {
        let problem = Problem {
            parameter: err.field.name().to_owned(),
            message: err.message,
            allowed: err.field.allowed(),
        };
        Refusal { problems: vec![problem], more: 0 }
    }
}

/// The stone of the example queries: `shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4`.
#[cfg(test)]
pub(crate) const OVAL: QuoteRequest = QuoteRequest {
    carat: 1.23,
    color: pricing::Color::G,
    clarity: pricing::Clarity::Vs2,
    shape: pricing::Shape::Oval,
    ratio: Some(1.4),
};

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
            parameter: words::clip(parameter).into_owned(),
            message,
            allowed: allowed.to_owned(),
        })
    };
    let pairs = query::pairs(query);
    let known = format!("{}, {FORMAT}, {DAYS}, {FROM}", PARAMETERS.join(", "));
    let mut seen: Vec<&str> = Vec::new();
    for (name, _) in &pairs {
        if !PARAMETERS.contains(&name.as_str()) && ![FORMAT, DAYS, FROM].contains(&name.as_str()) {
            problem(name, format!("unknown parameter {}", words::quoted(name)), &known);
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
        problem(FORMAT, format!("unknown format {}", words::quoted(text)), FORMATS);
    }
    if let Some(text) = value(DAYS)
        && days(text).is_none()
    {
        problem(
            DAYS,
            format!("days {} is not a number of days", words::quoted(text)),
            DAYS_ALLOWED,
        );
    }
    if let Some(text) = value(FROM)
        && date(text).is_none()
    {
        problem(FROM, format!("from {} is not a date", words::quoted(text)), FROM_ALLOWED);
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
