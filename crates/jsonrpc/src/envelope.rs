//! The request body read once into typed, borrowed parts: the envelope's members, the
//! `params` every method reads from (`name`, `arguments`, `_meta` typed, the rest as
//! `serde_json::Value`s), and nothing of what no one reads (read and dropped). A member
//! sent twice counts once, with its last value, as `serde_json::Value` keeps it; every
//! value is parsed, so a body is accepted or refused exactly as a `Value` read would.

use std::{borrow::Cow, fmt};

use serde::{
    Deserialize, Deserializer,
    de::{DeserializeSeed, MapAccess, SeqAccess, Visitor},
};
use serde_json::{Map, Value};

use crate::{
    ArgumentFilter, Field, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, Object,
    filter::{ArgumentsSeed, Skip},
};

/// A member of a request that must be an object: the object, read into its typed form,
/// or the other value sent instead (for "must be an object, got ...").
#[derive(Clone, Debug, PartialEq)]
pub enum Sent<'a, T> {
    /// An object.
    Object(T),
    /// Any other value.
    Other(Field<'a>),
}

/// A request's `params`: what the methods read, typed; every other member as sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params<'a> {
    /// `name`: the tool or prompt named.
    pub name: Option<Field<'a>>,
    /// `arguments`: the tool's or prompt's arguments.
    pub arguments: Option<Sent<'a, Object<'a>>>,
    /// `_meta`: the per-request envelope.
    pub meta: Option<Sent<'a, Meta<'a>>>,
    /// Every other member (`uri`, `cursor`, `protocolVersion`, `ref`, ...).
    pub other: Map<String, Value>,
}

/// A request's `params._meta` object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta<'a> {
    /// `io.modelcontextprotocol/protocolVersion`.
    pub protocol_version: Option<Field<'a>>,
    /// `io.modelcontextprotocol/clientCapabilities`.
    pub client_capabilities: Option<Field<'a>>,
    /// Every other member (the client's identity, ...).
    pub other: Map<String, Value>,
}

impl Params<'_> {
    /// A member other than `name`, `arguments` and `_meta`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.other.get(key)
    }

    /// The params as a `serde_json::Map` (arguments left out by a filter are not in it).
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = self.other.clone();
        if let Some(name) = &self.name {
            map.insert("name".to_owned(), name.to_value());
        }
        match &self.arguments {
            Some(Sent::Object(arguments)) => {
                map.insert("arguments".to_owned(), Value::Object(arguments.to_map()));
            }
            Some(Sent::Other(other)) => {
                map.insert("arguments".to_owned(), other.to_value());
            }
            None => {}
        }
        match &self.meta {
            Some(Sent::Object(meta)) => {
                map.insert("_meta".to_owned(), Value::Object(meta.to_map()));
            }
            Some(Sent::Other(other)) => {
                map.insert("_meta".to_owned(), other.to_value());
            }
            None => {}
        }
        map
    }
}

/// An owned copy of a `serde_json::Map`, read as a request's params are (every
/// argument kept).
impl From<Map<String, Value>> for Params<'static> {
    fn from(map: Map<String, Value>) -> Params<'static> {
        match (ParamsSeed { filter: None }).deserialize(Value::Object(map)) {
            Ok(Sent::Object(params)) => params,
            // A `Value` reads without errors, and an object as an object.
            _ => Params::default(),
        }
    }
}

impl Meta<'_> {
    /// The `_meta` object as a `serde_json::Map`.
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = self.other.clone();
        for (key, field) in [
            (META_PROTOCOL_VERSION, &self.protocol_version),
            (META_CLIENT_CAPABILITIES, &self.client_capabilities),
        ] {
            if let Some(field) = field {
                map.insert(key.to_owned(), field.to_value());
            }
        }
        map
    }
}

/// A request body as read: one object's envelope members, a batch, or another value.
#[expect(clippy::large_enum_variant, reason = "read once per request; a box would allocate")]
pub(crate) enum Body<'a> {
    /// One object.
    Object(Members<'a>),
    /// An array.
    Batch,
    /// Any other value: its type name.
    Other(&'static str),
}

/// The members of the body's object the envelope checks read.
#[derive(Default)]
pub(crate) struct Members<'a> {
    pub(crate) jsonrpc: Option<Field<'a>>,
    pub(crate) id: Option<Field<'a>>,
    pub(crate) method: Option<Field<'a>>,
    pub(crate) params: Option<Sent<'a, Params<'a>>>,
    /// Whether `result` or `error` was sent (a response, when `method` was not).
    pub(crate) answer: bool,
}

/// Reads one request body (see the module documentation); `filter` says what
/// `params.arguments` keeps (everything without one).
pub(crate) fn read<'a>(
    body: &'a [u8],
    filter: Option<ArgumentFilter<'_>>,
) -> serde_json::Result<Body<'a>> {
    // One UTF-8 check of the whole body, instead of one per string inside it; a body that
    // fails it is read as bytes, for serde_json's own error and its position.
    match std::str::from_utf8(body) {
        Ok(text) => read_from(serde_json::Deserializer::from_str(text), filter),
        Err(_) => read_from(serde_json::Deserializer::from_slice(body), filter),
    }
}

fn read_from<'de, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
    filter: Option<ArgumentFilter<'_>>,
) -> serde_json::Result<Body<'de>> {
    let body = BodySeed { filter }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(body)
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

/// The visitor methods of a value that is not an object: kept as [`Sent::Other`] (cold:
/// only a refusal reads it).
macro_rules! other_values {
    () => {
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok($crate::envelope::Sent::Other($crate::Field::Value(v.into())))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok($crate::envelope::Sent::Other($crate::Field::Value(v.into())))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok($crate::envelope::Sent::Other($crate::Field::Value(v.into())))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
            // As `Value` reads it: serde_json never reads a non-finite number.
            Ok($crate::envelope::Sent::Other($crate::Field::Value(v.into())))
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok($crate::envelope::Sent::Other($crate::Field::Str(v.to_owned().into())))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok($crate::envelope::Sent::Other($crate::Field::Value(serde_json::Value::Null)))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            let value = <serde_json::Value as serde::Deserialize>::deserialize(
                serde::de::value::SeqAccessDeserializer::new(seq),
            )?;
            Ok($crate::envelope::Sent::Other($crate::Field::Value(value)))
        }
    };
}
pub(crate) use other_values;

/// Reads the body: an object's envelope members; anything else read and dropped.
#[derive(Clone, Copy)]
struct BodySeed<'k> {
    filter: Option<ArgumentFilter<'k>>,
}

impl<'de> DeserializeSeed<'de> for BodySeed<'_> {
    type Value = Body<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Body<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BodySeed<'_> {
    type Value = Body<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Body<'de>, E> {
        Ok(Body::Other("a boolean"))
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Body<'de>, E> {
        Ok(Body::Other("a number"))
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Body<'de>, E> {
        Ok(Body::Other("a number"))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Body<'de>, E> {
        Ok(Body::Other("a number"))
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Body<'de>, E> {
        Ok(Body::Other("a string"))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Body<'de>, E> {
        Ok(Body::Other("null"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Body<'de>, A::Error> {
        while seq.next_element_seed(Skip::Value)?.is_some() {}
        Ok(Body::Batch)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Body<'de>, A::Error> {
        let mut members = Members::default();
        while let Some(Key(name)) = map.next_key()? {
            match name.as_ref() {
                "jsonrpc" => members.jsonrpc = Some(map.next_value()?),
                "id" => members.id = Some(map.next_value()?),
                "method" => members.method = Some(map.next_value()?),
                "params" => {
                    members.params = Some(map.next_value_seed(ParamsSeed { filter: self.filter })?);
                }
                other => {
                    map.next_value_seed(Skip::Value)?;
                    members.answer |= matches!(other, "result" | "error");
                }
            }
        }
        Ok(Body::Object(members))
    }
}

/// Reads `params`.
#[derive(Clone, Copy)]
struct ParamsSeed<'k> {
    filter: Option<ArgumentFilter<'k>>,
}

impl<'de> DeserializeSeed<'de> for ParamsSeed<'_> {
    type Value = Sent<'de, Params<'de>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ParamsSeed<'_> {
    type Value = Sent<'de, Params<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut params = Params::default();
        while let Some(Key(name)) = map.next_key()? {
            match name.as_ref() {
                "name" => params.name = Some(map.next_value()?),
                "arguments" => {
                    params.arguments =
                        Some(map.next_value_seed(ArgumentsSeed { filter: self.filter })?);
                }
                "_meta" => params.meta = Some(map.next_value_seed(MetaSeed)?),
                _ => {
                    params.other.insert(name.into_owned(), map.next_value()?);
                }
            }
        }
        Ok(Sent::Object(params))
    }

    other_values!();
}

/// Reads `params._meta`.
#[derive(Clone, Copy)]
struct MetaSeed;

impl<'de> DeserializeSeed<'de> for MetaSeed {
    type Value = Sent<'de, Meta<'de>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MetaSeed {
    type Value = Sent<'de, Meta<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut meta = Meta::default();
        while let Some(Key(name)) = map.next_key()? {
            match name.as_ref() {
                META_PROTOCOL_VERSION => meta.protocol_version = Some(map.next_value()?),
                META_CLIENT_CAPABILITIES => meta.client_capabilities = Some(map.next_value()?),
                _ => {
                    meta.other.insert(name.into_owned(), map.next_value()?);
                }
            }
        }
        Ok(Sent::Object(meta))
    }

    other_values!();
}
