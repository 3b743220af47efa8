//! `completion/complete`: values for the prompts' shape, colour and clarity arguments and
//! for the history template's date and feed, filtered by the typed prefix (ignoring case).
//! Other arguments (carat, the asking price) are free numbers: no values.

use datasets::History;
use jsonrpc::{ErrorObject, Params};
use pricing::{Clarity, Color, Shape};
use serde_json::{Map, Value, json};

use crate::{prompts, resources};

#[cfg(test)]
mod tests;

/// Most values one answer carries (the revisions' limit).
const VALUES_MAX: usize = 100;

/// Answers `completion/complete`: `{"completion": {"values", "total", "hasMore"}}`. A
/// missing or malformed `ref` or `argument`, an unknown prompt or a URI that is not this
/// server's template is -32602.
pub(crate) fn complete(
    params: &Params<'_>,
    history: &History,
) -> Result<Map<String, Value>, ErrorObject> {
    let reference = match params.get("ref") {
        Some(Value::Object(reference)) => reference,
        _ => return Err(malformed("params.ref, an object with type and name or uri")),
    };
    let (name, typed) = match params.get("argument") {
        Some(Value::Object(argument)) => match (argument.get("name"), argument.get("value")) {
            (Some(Value::String(name)), Some(Value::String(value))) => (name, value),
            _ => return Err(malformed("params.argument.name and .value, both strings")),
        },
        _ => return Err(malformed("params.argument, an object with name and value")),
    };
    let candidates: Vec<String> = match reference.get("type").and_then(Value::as_str) {
        Some("ref/prompt") => {
            let prompt = prompts::named(
                "completion/complete",
                reference.get("name").and_then(Value::as_str),
            )?;
            match name.as_str() {
                "shape" => Shape::ALL.iter().map(|s| s.as_str().to_owned()).collect(),
                "color" => Color::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
                "clarity" => Clarity::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
                other if prompt.has_argument(other) => Vec::new(),
                other => return Err(unknown_argument(other, prompt.name())),
            }
        }
        Some("ref/resource") => {
            let uri = reference.get("uri").and_then(Value::as_str).unwrap_or_default();
            if uri != resources::HISTORY_TEMPLATE {
                return Err(ErrorObject::invalid_params(format!(
                    "unknown resource template {}; this server offers {}",
                    words::quoted(uri),
                    resources::HISTORY_TEMPLATE
                )));
            }
            match name.as_str() {
                // Newest first: the day a caller most likely wants.
                "date" => history.days().iter().rev().map(|day| day.date.to_string()).collect(),
                "feed" => resources::feed_files().into_iter().map(str::to_owned).collect(),
                other => return Err(unknown_argument(other, resources::HISTORY_TEMPLATE)),
            }
        }
        _ => return Err(malformed("params.ref.type, \"ref/prompt\" or \"ref/resource\"")),
    };
    let typed = typed.trim().to_lowercase();
    let matching: Vec<String> =
        candidates.into_iter().filter(|value| value.to_lowercase().starts_with(&typed)).collect();
    let total = matching.len();
    let values: Vec<String> = matching.into_iter().take(VALUES_MAX).collect();
    let completion = json!({ "values": values, "total": total, "hasMore": total > VALUES_MAX });
    Ok(Map::from_iter([("completion".to_owned(), completion)]))
}

fn malformed(wanted: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("completion/complete needs {wanted}"))
}

fn unknown_argument(name: &str, of: &str) -> ErrorObject {
    ErrorObject::invalid_params(format!("{} is not an argument of {of}", words::quoted(name)))
}
