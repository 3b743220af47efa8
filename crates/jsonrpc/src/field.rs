//! `Field`: one value of a request the checks or a method read, a string borrowed from the
//! body where it had no escapes and any other value as a `serde_json::Value`; `Object`:
//! the members of a request's `params.arguments`.

use std::{borrow::Cow, fmt};

use serde::{
    Deserialize, Deserializer,
    de::{
        MapAccess, SeqAccess, Visitor,
        value::{MapAccessDeserializer, SeqAccessDeserializer},
    },
};
use serde_json::{Map, Number, Value};

use crate::LeftOut;

#[cfg(test)]
mod tests;

/// A value read from a request body: strings borrowed unless they had escapes (the
/// method, the tool name, the version, the string arguments), anything else as the
/// `serde_json::Value` it is. Read with serde_json, it accepts exactly what `Value`
/// accepts, with the same errors.
#[derive(Clone, Debug, PartialEq)]
pub enum Field<'a> {
    /// A string.
    Str(Cow<'a, str>),
    /// Any other value (never a string).
    Value(Value),
}

impl Field<'_> {
    /// The value as a `serde_json::Value`.
    pub fn to_value(&self) -> Value {
        match self {
            Field::Str(text) => Value::String(text.to_string()),
            Field::Value(value) => value.clone(),
        }
    }

    /// The string, when the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Field::Str(text) => Some(text),
            Field::Value(_) => None,
        }
    }

    /// The number as an `f64`, when the value is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Field::Value(value) => value.as_f64(),
            Field::Str(_) => None,
        }
    }

    /// Whether the value is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Field::Value(Value::Object(_)))
    }

    /// The JSON type name, for "got `<type>`" in messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Field::Str(_) => "a string",
            Field::Value(value) => type_name(value),
        }
    }
}

/// [`type_name`] of an object, which some checks ask for by name.
pub(crate) const AN_OBJECT: &str = "an object";

/// The JSON type name of `value`: `null`, `a boolean`, `a number`, `a string`, `an
/// array`, `an object`.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => AN_OBJECT,
    }
}

/// An owned copy of a `serde_json::Value`.
impl From<Value> for Field<'static> {
    fn from(value: Value) -> Field<'static> {
        match value {
            Value::String(text) => Field::Str(Cow::Owned(text)),
            other => Field::Value(other),
        }
    }
}

/// Compact JSON, as `serde_json::Value` displays it.
impl fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_value(), f)
    }
}

impl<'de> Deserialize<'de> for Field<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Field<'de>, D::Error> {
        deserializer.deserialize_any(FieldVisitor)
    }
}

/// Reads any value as a [`Field`].
pub(crate) struct FieldVisitor;

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = Field<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Field<'de>, E> {
        Ok(Field::Value(Value::Bool(value)))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Field<'de>, E> {
        Ok(Field::Value(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Field<'de>, E> {
        Ok(Field::Value(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Field<'de>, E> {
        // serde_json never reads a non-finite number; `Value` would hold null too.
        Ok(Field::Value(Number::from_f64(value).map_or(Value::Null, Value::Number)))
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Field<'de>, E> {
        Ok(Field::Str(Cow::Borrowed(value)))
    }

    fn visit_str<E>(self, value: &str) -> Result<Field<'de>, E> {
        Ok(Field::Str(Cow::Owned(value.to_owned())))
    }

    fn visit_string<E>(self, value: String) -> Result<Field<'de>, E> {
        Ok(Field::Str(Cow::Owned(value)))
    }

    fn visit_unit<E>(self) -> Result<Field<'de>, E> {
        Ok(Field::Value(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Field<'de>, E> {
        Ok(Field::Value(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Field<'de>, D::Error> {
        Field::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Field<'de>, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(Field::Value)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Field<'de>, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Field::Value)
    }
}

/// A request's `params.arguments`: its members in the order they were sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object<'a> {
    /// Each member with how often it was sent: more than once only when a filtered read
    /// kept each name once ([`crate::ArgumentFilter`]).
    pub(crate) members: Vec<(Cow<'a, str>, Field<'a>, usize)>,
    pub(crate) left_out: LeftOut<'a>,
}

/// An empty object, for requests that sent none.
pub static EMPTY_OBJECT: Object<'static> =
    Object { members: Vec::new(), left_out: LeftOut { first: Vec::new(), count: 0 } };

impl<'a> Object<'a> {
    /// The value of `key`; with duplicate keys, the last one (as `serde_json::Value`).
    pub fn get(&self, key: &str) -> Option<&Field<'a>> {
        self.members.iter().rev().find(|(name, ..)| name == key).map(|(_, value, _)| value)
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
    /// [`crate::ArgumentFilter`].
    pub fn left_out(&self) -> &LeftOut<'a> {
        &self.left_out
    }

    /// Every member kept, in the order sent: duplicates included, except when read with
    /// an [`crate::ArgumentFilter`], which keeps each name once (see
    /// [`Object::members_sent`]).
    pub fn members(&self) -> impl Iterator<Item = (&str, &Field<'a>)> {
        self.members.iter().map(|(name, value, _)| (name.as_ref(), value))
    }

    /// Every member kept, each with how often it was sent (always 1 unless a filtered
    /// read kept the name once for several sends, with the last value).
    pub fn members_sent(&self) -> impl Iterator<Item = (&str, &Field<'a>, usize)> {
        self.members.iter().map(|(name, value, sent)| (name.as_ref(), value, *sent))
    }

    /// The object as a `serde_json::Map` (last duplicate wins; members left out are not
    /// in it).
    pub fn to_map(&self) -> Map<String, Value> {
        self.members.iter().map(|(name, value, _)| (name.to_string(), value.to_value())).collect()
    }
}

/// An owned copy of a `serde_json::Map`.
impl From<Map<String, Value>> for Object<'static> {
    fn from(map: Map<String, Value>) -> Object<'static> {
        Object {
            members: map
                .into_iter()
                .map(|(name, value)| (Cow::Owned(name), Field::from(value), 1))
                .collect(),
            left_out: LeftOut::default(),
        }
    }
}
