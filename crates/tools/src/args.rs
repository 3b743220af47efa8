//! Reading tool arguments from a JSON object, collecting every problem with the argument
//! it concerns and what is allowed.

use std::fmt;

use jsonrpc::{Json, Object};
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

/// What `parse` accepts, as its own error message says after the `; ` (built only when
/// an argument is wrong or missing).
fn grade_hint<T>(parse: &impl Fn(&str) -> Result<T, pricing::Error>) -> String {
    parse("")
        .map(|_| String::new())
        .unwrap_or_else(|err| err.to_string().split("; ").nth(1).unwrap_or_default().to_owned())
}

/// A reader over one call's arguments.
pub(crate) struct Arguments<'a> {
    arguments: &'a Object<'a>,
    errors: Vec<ArgumentError>,
    more_unknown: usize,
}

fn describe(value: &Json<'_>) -> String {
    match value {
        Json::String(text) => format!("the string {}", jsonrpc::quote(text)),
        Json::Null => "null".to_owned(),
        Json::Bool(b) => format!("the boolean {b}"),
        Json::Array(_) => "an array".to_owned(),
        Json::Object(_) => "an object".to_owned(),
        Json::Number(n) => n.to_string(),
    }
}

impl<'a> Arguments<'a> {
    /// Starts reading; unknown argument names are reported straight away: the first
    /// [`UNKNOWN_LISTED_MAX`] in sorted order, each once (as a JSON object map lists its
    /// keys), the rest counted. One pass over the members, whatever their number.
    pub(crate) fn new(arguments: &'a Object<'a>, known: &[&str]) -> Arguments<'a> {
        let mut first: Vec<&str> = Vec::new();
        let mut unknown = 0;
        for (name, _) in arguments.members() {
            if known.contains(&name) {
                continue;
            }
            unknown += 1;
            match first.binary_search(&name) {
                Ok(_) => {}
                Err(at) if at < UNKNOWN_LISTED_MAX => {
                    first.insert(at, name);
                    first.truncate(UNKNOWN_LISTED_MAX);
                }
                Err(_) => {}
            }
        }
        // Repeats of a listed name are not "more"; any other name is, each time it is sent.
        let listed_sent = arguments.members().filter(|(name, _)| first.contains(name)).count();
        let more_unknown = if first.len() < UNKNOWN_LISTED_MAX { 0 } else { unknown - listed_sent };
        let allowed = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
        let errors = first
            .into_iter()
            .map(|name| ArgumentError {
                argument: jsonrpc::clip(name).into_owned(),
                message: format!(
                    "unknown argument {}; allowed arguments: {allowed}",
                    jsonrpc::quote(name)
                ),
            })
            .collect();
        Arguments { arguments, errors, more_unknown }
    }

    /// Records a problem found by the caller (e.g. a value out of range).
    pub(crate) fn fail(&mut self, argument: &str, message: String) {
        self.errors.push(ArgumentError { argument: argument.to_owned(), message });
    }

    /// A number; `Some(None)` when absent or null, `None` when wrong.
    pub(crate) fn optional_number(&mut self, name: &str, allowed: &str) -> Option<Option<f64>> {
        match self.arguments.get(name) {
            None | Some(Json::Null) => Some(None),
            Some(value) => match value.as_f64() {
                Some(number) => Some(Some(number)),
                None => {
                    self.fail(name, format!("{name} must be {allowed}, got {}", describe(value)));
                    None
                }
            },
        }
    }

    /// A required number.
    pub(crate) fn required_number(&mut self, name: &str, allowed: &str) -> Option<f64> {
        match self.optional_number(name, allowed)? {
            Some(number) => Some(number),
            None => {
                self.fail(name, format!("{name} is required: {allowed}"));
                None
            }
        }
    }

    /// An optional grade or shape name, parsed case-insensitively by `parse`.
    pub(crate) fn optional_grade<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, pricing::Error>,
    ) -> Option<Option<T>> {
        match self.arguments.get(name) {
            None | Some(Json::Null) => Some(None),
            Some(Json::String(text)) => match parse(text) {
                Ok(grade) => Some(Some(grade)),
                Err(err) => {
                    self.fail(name, err.to_string());
                    None
                }
            },
            Some(other) => {
                let hint = grade_hint(&parse);
                self.fail(
                    name,
                    format!("{name} must be a string ({hint}), got {}", describe(other)),
                );
                None
            }
        }
    }

    /// A required grade.
    pub(crate) fn required_grade<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, pricing::Error>,
    ) -> Option<T> {
        match self.optional_grade(name, &parse)? {
            Some(grade) => Some(grade),
            None => {
                let hint = grade_hint(&parse);
                self.fail(name, format!("{name} is required ({hint})"));
                None
            }
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
