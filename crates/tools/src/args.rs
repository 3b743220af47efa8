//! Reading tool arguments from a JSON object, collecting every problem with the argument
//! it concerns and what is allowed.

use std::{borrow::Cow, fmt};

use jsonrpc::{ArgumentFilter, Field, Object};
use pricing::{Given, QuoteError};
use serde_json::{Value, json};

/// One bad argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// The argument's name.
    pub argument: String,
    /// What was wrong and what is allowed.
    pub message: String,
}

/// Most unknown argument names one answer lists; the rest are only counted, so that
/// neither the answer nor the work to build it grows with the number of names sent.
pub const UNKNOWN_LISTED_MAX: usize = 8;

/// What a request keeps of its `arguments` when it is read: the members some tool or
/// prompt reads ([`READ_ARGUMENTS`]), and of the others only the count and the first
/// [`UNKNOWN_LISTED_MAX`] names.
pub(crate) const ARGUMENT_FILTER: ArgumentFilter<'static> =
    ArgumentFilter { names: READ_ARGUMENTS, named: UNKNOWN_LISTED_MAX };

/// Every argument name a tool or a prompt reads: those of `get_diamond_price` (which
/// include `get_market_depth`'s) and the prompts' `asking_price_usd`. A tool still
/// reports the names it does not take as unknown.
pub(crate) const READ_ARGUMENTS: &[&str] =
    &["carat", "color", "clarity", "shape", "shape_ratio", "asking_price_usd"];

/// The bad arguments of one call: every problem with a known argument, the first
/// [`UNKNOWN_LISTED_MAX`] unknown names (in sorted order), and how many more unknown
/// names were sent (counted as sent, repeats included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentErrors {
    /// The problems named one by one.
    pub listed: Vec<ArgumentError>,
    /// Unknown argument names sent beyond those listed.
    pub more_unknown: usize,
}

impl ArgumentErrors {
    /// A single problem.
    pub fn one(argument: &str, message: impl Into<String>) -> ArgumentErrors {
        ArgumentErrors {
            listed: vec![ArgumentError { argument: argument.to_owned(), message: message.into() }],
            more_unknown: 0,
        }
    }

    /// The structured error object of an `isError` result; `moreUnknownArguments`
    /// appears only when some unknown names were left unlisted.
    pub fn to_json(&self) -> Value {
        let problems: Vec<Value> = self
            .listed
            .iter()
            .map(|e| json!({ "argument": e.argument, "message": e.message }))
            .collect();
        let mut error = json!({ "code": "invalid_arguments", "message": self.to_string(), "problems": problems });
        if self.more_unknown > 0 {
            error["moreUnknownArguments"] = json!(self.more_unknown);
        }
        json!({ "error": error })
    }
}

impl fmt::Display for ArgumentErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let texts: Vec<&str> = self.listed.iter().map(|e| e.message.as_str()).collect();
        f.write_str(&texts.join("; "))?;
        match self.more_unknown {
            0 => Ok(()),
            1 => f.write_str("; and 1 more unknown argument"),
            more => write!(f, "; and {more} more unknown arguments"),
        }
    }
}

impl std::error::Error for ArgumentErrors {}

/// A reader over one call's arguments.
pub(crate) struct Arguments<'a> {
    arguments: &'a Object<'a>,
    errors: Vec<ArgumentError>,
    more_unknown: usize,
}

fn describe(value: &Field<'_>) -> String {
    match value {
        Field::Str(text) => format!("the string {}", words::quoted(text)),
        Field::Value(Value::String(text)) => format!("the string {}", words::quoted(text)),
        Field::Value(Value::Null) => "null".to_owned(),
        Field::Value(Value::Bool(b)) => format!("the boolean {b}"),
        Field::Value(Value::Array(_)) => "an array".to_owned(),
        Field::Value(Value::Object(_)) => "an object".to_owned(),
        Field::Value(Value::Number(n)) => n.to_string(),
    }
}

impl<'a> Arguments<'a> {
    /// Starts reading; unknown argument names are reported straight away: the first
    /// [`UNKNOWN_LISTED_MAX`] in sorted order, each once (as a JSON object map lists its
    /// keys), the rest counted as sent.
    #[inline(always)]
    pub(crate) fn new(arguments: &'a Object<'a>, known: &[&'a str]) -> Arguments<'a> {
        // Members left out when the request was read (`ARGUMENT_FILTER`) are unknown to
        // every tool; the kept ones may still be unknown to this one.
        let mut unknown = arguments.left_out().clone();
        for (name, _, sent) in arguments.members_sent() {
            if !known.contains(&name) {
                unknown.add_times(Cow::Borrowed(name), sent, UNKNOWN_LISTED_MAX);
            }
        }
        // Repeats of a listed name are not "more"; any other name is, each time it is sent.
        let listed_sent: usize = unknown.first.iter().map(|(_, sent)| sent).sum();
        let more_unknown =
            if unknown.first.len() < UNKNOWN_LISTED_MAX { 0 } else { unknown.count - listed_sent };
        let allowed = match (unknown.first.is_empty(), known.is_empty()) {
            (true, _) => String::new(), // Nothing to name: no list to write.
            (false, true) => "none".to_owned(),
            (false, false) => known.join(", "),
        };
        let errors = unknown
            .first
            .iter()
            .map(|(name, _)| ArgumentError {
                argument: words::clip(name).into_owned(),
                message: format!(
                    "unknown argument {}; allowed arguments: {allowed}",
                    words::quoted(name)
                ),
            })
            .collect();
        Arguments { arguments, errors, more_unknown }
    }

    /// The value of the argument `name` (the last one sent), if sent.
    fn get(&self, name: &str) -> Option<&'a Field<'a>> {
        self.arguments.get(name)
    }

    /// Records a problem the quote rules found, under the argument's name.
    pub(crate) fn refuse(&mut self, argument: &str, problem: QuoteError) {
        self.errors.push(ArgumentError { argument: argument.to_owned(), message: problem.message });
    }

    /// A number as the quote rules take it: missing when absent or null.
    pub(crate) fn number(&self, name: &str) -> Given<f64> {
        match self.get(name) {
            None | Some(Field::Value(Value::Null)) => Given::Missing,
            Some(value) => {
                value.as_f64().map_or_else(|| Given::Unreadable(describe(value)), Given::Value)
            }
        }
    }

    /// A text (a grade or shape name) as the quote rules take it.
    pub(crate) fn text(&self, name: &str) -> Given<&'a str> {
        match self.get(name) {
            None | Some(Field::Value(Value::Null)) => Given::Missing,
            Some(Field::Str(text)) => Given::Value(text),
            Some(other) => Given::Unreadable(describe(other)),
        }
    }

    /// Ends reading: every problem found, or nothing.
    pub(crate) fn finish(self) -> Result<(), ArgumentErrors> {
        if self.errors.is_empty() && self.more_unknown == 0 {
            Ok(())
        } else {
            Err(ArgumentErrors { listed: self.errors, more_unknown: self.more_unknown })
        }
    }
}
