//! `RequestId`: the JSON-RPC request id, a string or an integer.

use std::fmt;

use serde::{Deserialize, Serialize};

#[cfg(test)]
mod tests;

/// A JSON-RPC request id: a string (`""` included) or an integer (`0` and negatives included).
///
/// It serializes as the plain JSON string or number it was read from. Floats, `null`,
/// booleans, arrays and objects are not ids; [`RequestId::from_json`] rejects them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RequestId(pub(crate) Repr);

/// The private representation. Integers that fit `i64` are always `Int`, so equal ids
/// compare and hash equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum Repr {
    Int(i64),
    /// Only for integers above `i64::MAX`.
    UInt(u64),
    Str(String),
}

/// Longest string id accepted, in bytes: every answer echoes the id, so a longer one
/// would let a request make any answer, even an error, as large as itself.
pub const ID_BYTES_MAX: usize = 1024;

impl RequestId {
    /// Reads an id from a JSON value; `None` unless it is a string of at most
    /// [`ID_BYTES_MAX`] bytes or an integer.
    pub fn from_json(value: &crate::Field<'_>) -> Option<RequestId> {
        match value {
            crate::Field::Str(s) if s.len() <= ID_BYTES_MAX => {
                Some(RequestId(Repr::Str(s.to_string())))
            }
            crate::Field::Str(_) => None,
            crate::Field::Value(serde_json::Value::Number(n)) => match n.as_i64() {
                Some(i) => Some(RequestId(Repr::Int(i))),
                None => n.as_u64().map(|u| RequestId(Repr::UInt(u))),
            },
            _ => None,
        }
    }

    /// The id as a JSON value (a string or a number).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.0 {
            Repr::Int(i) => serde_json::Value::from(*i),
            Repr::UInt(u) => serde_json::Value::from(*u),
            Repr::Str(s) => serde_json::Value::from(s.as_str()),
        }
    }

    /// The string, when the id is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            Repr::Str(s) => Some(s),
            Repr::Int(_) | Repr::UInt(_) => None,
        }
    }

    /// The integer, when the id is an integer that fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match &self.0 {
            Repr::Int(i) => Some(*i),
            Repr::UInt(_) | Repr::Str(_) => None,
        }
    }
}

impl From<i64> for RequestId {
    fn from(value: i64) -> RequestId {
        RequestId(Repr::Int(value))
    }
}

impl From<i32> for RequestId {
    fn from(value: i32) -> RequestId {
        RequestId(Repr::Int(value.into()))
    }
}

impl From<u64> for RequestId {
    fn from(value: u64) -> RequestId {
        match i64::try_from(value) {
            Ok(i) => RequestId(Repr::Int(i)),
            Err(_) => RequestId(Repr::UInt(value)),
        }
    }
}

impl From<String> for RequestId {
    fn from(value: String) -> RequestId {
        RequestId(Repr::Str(value))
    }
}

impl From<&str> for RequestId {
    fn from(value: &str) -> RequestId {
        RequestId(Repr::Str(value.to_owned()))
    }
}

/// Integers print as numbers; strings print JSON-quoted, so `7` and `"7"` stay distinct.
impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Int(i) => write!(f, "{i}"),
            Repr::UInt(u) => write!(f, "{u}"),
            Repr::Str(s) => write!(f, "{}", words::quoted(s)),
        }
    }
}
