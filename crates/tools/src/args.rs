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

/// Every bad argument of one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentErrors(pub Vec<ArgumentError>);

impl ArgumentErrors {
    /// A single problem.
    pub fn one(argument: &str, message: impl Into<String>) -> ArgumentErrors {
        ArgumentErrors(vec![ArgumentError {
            argument: argument.to_owned(),
            message: message.into(),
        }])
    }

    /// The structured error object of an `isError` result.
    pub fn to_json(&self) -> Value {
        let problems: Vec<Value> = self
            .0
            .iter()
            .map(|e| json!({ "argument": e.argument, "message": e.message }))
            .collect();
        json!({ "error": { "code": "invalid_arguments", "message": self.to_string(), "problems": problems } })
    }
}

impl fmt::Display for ArgumentErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let texts: Vec<&str> = self.0.iter().map(|e| e.message.as_str()).collect();
        f.write_str(&texts.join("; "))
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
}

fn describe(value: &Json<'_>) -> String {
    match value {
        Json::String(text) => format!("the string {text:?}"),
        Json::Null => "null".to_owned(),
        Json::Bool(b) => format!("the boolean {b}"),
        Json::Array(_) => "an array".to_owned(),
        Json::Object(_) => "an object".to_owned(),
        Json::Number(n) => n.to_string(),
    }
}

impl<'a> Arguments<'a> {
    /// Starts reading; unknown argument names are reported straight away.
    pub(crate) fn new(arguments: &'a Object<'a>, known: &[&str]) -> Arguments<'a> {
        let mut errors = Vec::new();
        let any_unknown = arguments.members().any(|(name, _)| !known.contains(&name));
        // Reported in sorted order, each once, as a JSON object map lists its keys.
        for name in if any_unknown { arguments.sorted_keys() } else { Vec::new() } {
            if !known.contains(&name) {
                let allowed = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
                errors.push(ArgumentError {
                    argument: name.to_owned(),
                    message: format!("unknown argument {name:?}; allowed arguments: {allowed}"),
                });
            }
        }
        Arguments { arguments, errors }
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
        if self.errors.is_empty() { Ok(()) } else { Err(ArgumentErrors(self.errors)) }
    }
}
