//! A small JSON walker that records an [`Issue`] for every wrong or missing value instead
//! of stopping at the first.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::error::Issue;

#[cfg(test)]
mod tests;

/// Walks one feed, collecting issues.
pub(crate) struct Reader {
    pub(crate) feed: &'static str,
    pub(crate) issues: Vec<Issue>,
}

/// Appends `key` to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub(crate) fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// Appends an array index to a JSON pointer.
pub(crate) fn item(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

impl Reader {
    pub(crate) fn new(feed: &'static str) -> Reader {
        Reader { feed, issues: Vec::new() }
    }

    pub(crate) fn issue(&mut self, pointer: &str, message: impl Into<String>) {
        self.issues.push(Issue {
            feed: self.feed,
            pointer: pointer.to_owned(),
            message: message.into(),
        });
    }

    /// `result`'s value, or `None` with its error recorded as an issue at `pointer`.
    pub(crate) fn ok<T>(&mut self, pointer: &str, result: Result<T, impl ToString>) -> Option<T> {
        result.map_err(|err| self.issue(pointer, err.to_string())).ok()
    }

    /// Parses the bytes as JSON; a syntax error is one issue at the document root.
    pub(crate) fn parse(&mut self, bytes: &[u8]) -> Option<Value> {
        match serde_json::from_slice(bytes) {
            Ok(value) => Some(value),
            Err(err) => {
                self.issue("", format!("malformed json: {err}"));
                None
            }
        }
    }

    pub(crate) fn object<'v>(
        &mut self,
        value: &'v Value,
        pointer: &str,
    ) -> Option<&'v Map<String, Value>> {
        let found = value.as_object();
        if found.is_none() {
            self.issue(pointer, format!("expected an object, got {}", kind(value)));
        }
        found
    }

    pub(crate) fn array<'v>(&mut self, value: &'v Value, pointer: &str) -> Option<&'v Vec<Value>> {
        let found = value.as_array();
        if found.is_none() {
            self.issue(pointer, format!("expected an array, got {}", kind(value)));
        }
        found
    }

    /// A required member of `object`.
    pub(crate) fn field<'v>(
        &mut self,
        object: &'v Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Option<&'v Value> {
        let found = object.get(key);
        if found.is_none() {
            self.issue(pointer, format!("missing field `{key}`"));
        }
        found
    }

    pub(crate) fn number(&mut self, value: &Value, pointer: &str) -> Option<f64> {
        match value.as_f64() {
            Some(number) if number.is_finite() => Some(number),
            _ => {
                self.issue(pointer, format!("expected a finite number, got {}", kind(value)));
                None
            }
        }
    }

    /// A required number member.
    pub(crate) fn number_field(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Option<f64> {
        let value = self.field(object, pointer, key)?;
        self.number(value, &child(pointer, key))
    }

    /// An optional number member: absent and `null` both read as `None`.
    pub(crate) fn optional_number(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Option<Option<f64>> {
        match object.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(value) => self.number(value, &child(pointer, key)).map(Some),
        }
    }

    pub(crate) fn string<'v>(&mut self, value: &'v Value, pointer: &str) -> Option<&'v str> {
        let found = value.as_str();
        if found.is_none() {
            self.issue(pointer, format!("expected a string, got {}", kind(value)));
        }
        found
    }

    /// A listing count: a non-negative integer.
    pub(crate) fn count(&mut self, value: &Value, pointer: &str) -> Option<u64> {
        let found = value.as_u64();
        if found.is_none() {
            self.issue(
                pointer,
                format!("expected a non-negative integer count, got {}", clip(&value.to_string())),
            );
        }
        found
    }

    /// The required `ts` member: ISO 8601 in UTC, ending in `Z`.
    pub(crate) fn ts(&mut self, object: &Map<String, Value>) -> Option<DateTime<Utc>> {
        let value = self.field(object, "", "ts")?;
        let text = self.string(value, "/ts")?;
        let parsed = DateTime::parse_from_rfc3339(text).ok().filter(|_| text.ends_with('Z'));
        if parsed.is_none() {
            self.issue(
                "/ts",
                format!(
                    "expected an ISO 8601 UTC timestamp like 2026-11-20T00:00:00Z, got {}",
                    quoted(text)
                ),
            );
        }
        parsed.map(|ts| ts.with_timezone(&Utc))
    }

    /// A carat key: a decimal string holding a finite, positive number.
    pub(crate) fn carat_key(&mut self, key: &str, pointer: &str) -> Option<f64> {
        match key.trim().parse::<f64>() {
            Ok(carat) if carat.is_finite() && carat > 0.0 && key == key.trim() => Some(carat),
            _ => {
                self.issue(
                    pointer,
                    format!("carat key {} is not a positive decimal number", quoted(key)),
                );
                None
            }
        }
    }
}

/// Most characters of input a message repeats; the rest is cut. The bound and [`clip`] are
/// `words`' (the services' one home of them), copied: a published library cannot depend
/// on an unpublished crate (a test holds the copy to `words`).
pub(crate) const CLIP_CHARS_MAX: usize = 64;

/// `text` itself when short, else its first [`CLIP_CHARS_MAX`] characters and `…`.
pub(crate) fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(CLIP_CHARS_MAX) {
        None => text.into(),
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
    }
}

/// `text` quoted for a message as Rust quotes it (as `pricing` quotes a refused grade),
/// cut as [`clip`] cuts it and then followed by its full length (`"aaa…" (21000 bytes)`).
pub(crate) fn quoted(text: &str) -> String {
    match clip(text) {
        std::borrow::Cow::Borrowed(whole) => format!("{whole:?}"),
        std::borrow::Cow::Owned(cut) => format!("{cut:?} ({} bytes)", text.len()),
    }
}

/// A short name of a JSON value's type for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
