//! `Json`: one JSON value read from a request body, its keys and strings borrowed from the
//! body where they have no escapes: the request is read without copying what it names.

use std::{borrow::Cow, fmt};

use serde::{
    Deserialize, Deserializer,
    de::{MapAccess, SeqAccess, Visitor},
};
use serde_json::{Map, Number, Value};

use crate::LeftOut;

#[cfg(test)]
mod tests;

/// A JSON value borrowing from the text it was read from. Read with
/// `serde_json::from_slice`, it accepts exactly what `serde_json::Value` accepts, with
/// the same errors; an object keeps its members in order, duplicates included, and
/// [`Object::get`] answers with the last one, as `Value` keeps it.
#[derive(Clone, Debug, PartialEq)]
pub enum Json<'a> {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number, as serde_json reads it.
    Number(Number),
    /// A string: borrowed unless it had escapes.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object.
    Object(Object<'a>),
}

/// A JSON object's members in the order they were sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object<'a> {
    pub(crate) members: Vec<(Cow<'a, str>, Json<'a>)>,
    /// How often each member was sent, in the order of `members`, when a filtered read
    /// kept each name once ([`crate::ArgumentFilter`]); empty otherwise (each once).
    pub(crate) sent: Vec<usize>,
    pub(crate) left_out: LeftOut<'a>,
}

/// An empty object, for requests that sent none.
pub static EMPTY_OBJECT: Object<'static> = Object {
    members: Vec::new(),
    sent: Vec::new(),
    left_out: LeftOut { first: Vec::new(), count: 0 },
};

impl<'a> Object<'a> {
    /// The value of `key`; with duplicate keys, the last one (as `serde_json::Value`).
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.members.iter().rev().find(|(name, _)| name == key).map(|(_, value)| value)
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Whether the object has no members (kept or left out).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.left_out.count == 0
    }

    /// The members read but not kept (see [`LeftOut`]); none unless read with an
    /// [`ArgumentFilter`].
    pub fn left_out(&self) -> &LeftOut<'a> {
        &self.left_out
    }

    /// Every member kept, in the order sent: duplicates included, except in `arguments`
    /// read with an [`ArgumentFilter`], which keeps each name once (see
    /// [`Object::members_sent`]).
    pub fn members(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.members.iter().map(|(name, value)| (name.as_ref(), value))
    }

    /// Every member kept, each with how often it was sent (always 1 unless a filtered
    /// read kept the name once for several sends, with the last value).
    pub fn members_sent(&self) -> impl Iterator<Item = (&str, &Json<'a>, usize)> {
        self.members()
            .enumerate()
            .map(|(at, (name, value))| (name, value, self.sent.get(at).copied().unwrap_or(1)))
    }

    /// Takes the value of `key` out (the last one, with duplicate keys).
    pub(crate) fn take(&mut self, key: &str) -> Option<Json<'a>> {
        let index = self.members.iter().rposition(|(name, _)| name == key)?;
        if index < self.sent.len() {
            self.sent.swap_remove(index);
        }
        Some(self.members.swap_remove(index).1)
    }

    /// The distinct keys in sorted order, as a `serde_json::Map` lists them.
    pub fn sorted_keys(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = self.members.iter().map(|(name, _)| name.as_ref()).collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// The object as a `serde_json::Map` (last duplicate wins; members left out are not
    /// in it).
    pub fn to_map(&self) -> Map<String, Value> {
        self.members.iter().map(|(name, value)| (name.to_string(), value.to_value())).collect()
    }
}

impl<'a> Json<'a> {
    /// The value as a `serde_json::Value`.
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(object) => Value::Object(object.to_map()),
        }
    }

    /// The string, when the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number as an `f64`, when the value is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// The object, when the value is one.
    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Json::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The JSON type name, for "got <type>" in messages: `null`, `a boolean`, `a number`,
    /// `a string`, `an array`, `an object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

/// An owned copy of a `serde_json::Value`, for callers that build arguments themselves.
impl From<Value> for Json<'static> {
    fn from(value: Value) -> Json<'static> {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(Cow::Owned(s)),
            Value::Array(items) => Json::Array(items.into_iter().map(Json::from).collect()),
            Value::Object(map) => Json::Object(Object::from(map)),
        }
    }
}

/// An owned copy of a `serde_json::Map`.
impl From<Map<String, Value>> for Object<'static> {
    fn from(map: Map<String, Value>) -> Object<'static> {
        Object {
            members: map
                .into_iter()
                .map(|(name, value)| (Cow::Owned(name), Json::from(value)))
                .collect(),
            sent: Vec::new(),
            left_out: LeftOut::default(),
        }
    }
}

/// Compact JSON, as `serde_json::Value` displays it.
impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_value(), f)
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json<'de>, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

pub(crate) struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Json<'de>, E> {
        // serde_json never reads a non-finite number; `Value` would hold null too.
        Ok(Number::from_f64(value).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(value)))
    }

    fn visit_str<E>(self, value: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(value.to_owned())))
    }

    fn visit_string<E>(self, value: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(value)))
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json<'de>, D::Error> {
        Json::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0).min(16));
        while let Some(Key(name)) = map.next_key()? {
            members.push((name, map.next_value()?));
        }
        Ok(Json::Object(Object { members, sent: Vec::new(), left_out: LeftOut::default() }))
    }
}

/// An object key, borrowed unless it had escapes.
pub(crate) struct Key<'a>(pub(crate) Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key<'de>, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(value)))
    }

    fn visit_str<E>(self, value: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(value.to_owned())))
    }

    fn visit_string<E>(self, value: String) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(value)))
    }
}
