//! The request body read once into typed, borrowed parts: the envelope's members, the
//! `params` every method reads from (`name`, `arguments`, `_meta` typed, the rest as
//! `serde_json::Value`s), and nothing of what no one reads (read and dropped: the body's
//! other members, and of `_meta` all but the protocol version and the type of the client
//! capabilities). A member sent twice counts once, with its last value, as
//! `serde_json::Value` keeps it; every value is parsed, so a body is accepted or refused
//! exactly as a `Value` read would.

use std::{borrow::Cow, fmt};

use serde::{
    Deserialize, Deserializer,
    de::{DeserializeSeed, MapAccess, SeqAccess, Visitor, value::MapDeserializer},
};
use serde_json::{Map, Value};

use crate::{
    ArgumentFilter, Field, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, Object,
    field::{AN_OBJECT, FieldVisitor},
    filter::Skip,
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
    /// Every other member (`uri`, `cursor`, `protocolVersion`, `ref`, ...); `None` when none
    /// was sent.
    pub other: Option<Map<String, Value>>,
}

/// A request's `params._meta` object, as far as the checks read it. The capabilities'
/// members and every other member (the client's identity, ...) are parsed and dropped:
/// no method reads them, and built into `serde_json::Value`s a typical client's cost a
/// call about 10 % more (docs/performance.md, "Reading a tool call's request").
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta<'a> {
    /// `io.modelcontextprotocol/protocolVersion`.
    pub protocol_version: Option<Field<'a>>,
    /// `io.modelcontextprotocol/clientCapabilities`: the JSON type name of what was sent
    /// (`an object` when it is one; [`crate::type_name`]'s words).
    pub client_capabilities: Option<&'static str>,
}

impl Params<'_> {
    /// A member other than `name`, `arguments` and `_meta`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.other.as_ref()?.get(key)
    }

    /// The params as a `serde_json::Map`: arguments left out by a filter are not in it,
    /// and `_meta` holds what [`Meta`] keeps of it.
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = self.other.clone().unwrap_or_default();
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
        let mut params = Params::default();
        // A `Value` reads without errors.
        let map = MapDeserializer::<_, serde_json::Error>::new(map.into_iter());
        params.read(map, None).unwrap_or_default();
        params
    }
}

impl Meta<'_> {
    /// What is kept of the `_meta` object, as a `serde_json::Map`: the protocol version as
    /// sent, and the client capabilities as `{}` when an object was sent (its members are
    /// not kept).
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = Map::new();
        if let Some(version) = &self.protocol_version {
            map.insert(META_PROTOCOL_VERSION.to_owned(), version.to_value());
        }
        if self.client_capabilities == Some(AN_OBJECT) {
            map.insert(META_CLIENT_CAPABILITIES.to_owned(), Value::Object(Map::new()));
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
#[inline(always)]
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

#[inline(always)]
fn read_from<'de, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
    filter: Option<ArgumentFilter<'_>>,
) -> serde_json::Result<Body<'de>> {
    let mut members = Members::default();
    let sent = BodySeed { filter, members: &mut members }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(match sent {
        AN_OBJECT => Body::Object(members),
        "an array" => Body::Batch,
        other => Body::Other(other),
    })
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

/// An object read member by member into its typed form (`params`, `params._meta`,
/// `params.arguments`), in place.
pub(crate) trait ReadObject<'de>: Default {
    /// Reads the object's members; `filter` says what `params.arguments` keeps.
    fn read<A: MapAccess<'de>>(
        &mut self,
        map: A,
        filter: Option<ArgumentFilter<'_>>,
    ) -> Result<(), A::Error>;
}

/// Reads any value into `out`: an object as `T` reads it, anything else as the [`Field`]
/// it is. A value sent again replaces the one before.
pub(crate) struct Any<'o, 'k, 'de, T> {
    pub(crate) out: &'o mut Option<Sent<'de, T>>,
    pub(crate) filter: Option<ArgumentFilter<'k>>,
}

impl<'de, T: ReadObject<'de>> DeserializeSeed<'de> for Any<'_, '_, 'de, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: ReadObject<'de>> Any<'_, '_, 'de, T> {
    fn other<E>(self, field: Field<'de>) -> Result<(), E> {
        *self.out = Some(Sent::Other(field));
        Ok(())
    }
}

/// Visitor methods that read a value as [`FieldVisitor`] does and keep it as
/// [`Sent::Other`].
macro_rules! forward_to_field {
    ($($visit:ident($($value:ident: $type:ty)?)),*) => {$(
        fn $visit<E: serde::de::Error>(self $(, $value: $type)?) -> Result<(), E> {
            self.other(FieldVisitor.$visit($($value)?)?)
        }
    )*};
}

impl<'de, T: ReadObject<'de>> Visitor<'de> for Any<'_, '_, 'de, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    forward_to_field! {
        visit_bool(value: bool), visit_i64(value: i64), visit_u64(value: u64),
        visit_f64(value: f64), visit_borrowed_str(value: &'de str), visit_str(value: &str),
        visit_string(value: String), visit_unit(), visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.other(FieldVisitor.visit_seq(seq)?)
    }

    #[inline(always)]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        // Read into its place, not moved there.
        match self.out.insert(Sent::Object(T::default())) {
            Sent::Object(object) => object.read(map, self.filter),
            Sent::Other(_) => Ok(()),
        }
    }
}

/// Visitor methods that read a value as [`Skip`] does, to its JSON type name.
macro_rules! forward_to_skip {
    ($($visit:ident($($value:ident: $type:ty)?)),*) => {$(
        fn $visit<E: serde::de::Error>(self $(, $value: $type)?) -> Result<&'static str, E> {
            Skip::Value.$visit($($value)?)
        }
    )*};
}

/// Reads the body: an object's envelope members into `members`; anything else read and
/// dropped. Its value is the JSON type name of the body.
struct BodySeed<'k, 'm, 'de> {
    filter: Option<ArgumentFilter<'k>>,
    members: &'m mut Members<'de>,
}

impl<'de> DeserializeSeed<'de> for BodySeed<'_, '_, 'de> {
    type Value = &'static str;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<&'static str, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BodySeed<'_, '_, 'de> {
    type Value = &'static str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    forward_to_skip! {
        visit_bool(value: bool), visit_i64(value: i64), visit_u64(value: u64),
        visit_f64(value: f64), visit_str(value: &str), visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<&'static str, A::Error> {
        Skip::Value.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<&'static str, A::Error> {
        let members = self.members;
        while let Some(Key(name)) = map.next_key()? {
            match name.as_ref() {
                "jsonrpc" => members.jsonrpc = Some(map.next_value()?),
                "id" => members.id = Some(map.next_value()?),
                "method" => members.method = Some(map.next_value()?),
                "params" => {
                    map.next_value_seed(Any { out: &mut members.params, filter: self.filter })?;
                }
                other => {
                    map.next_value_seed(Skip::Value)?;
                    members.answer |= matches!(other, "result" | "error");
                }
            }
        }
        Ok(AN_OBJECT)
    }
}

impl<'de> ReadObject<'de> for Params<'de> {
    #[inline(always)]
    fn read<A: MapAccess<'de>>(
        &mut self,
        mut map: A,
        filter: Option<ArgumentFilter<'_>>,
    ) -> Result<(), A::Error> {
        let params = self;
        while let Some(Key(name)) = map.next_key()? {
            match name.as_ref() {
                "name" => params.name = Some(map.next_value()?),
                "arguments" => map.next_value_seed(Any { out: &mut params.arguments, filter })?,
                "_meta" => map.next_value_seed(Any { out: &mut params.meta, filter })?,
                _ => {
                    params
                        .other
                        .get_or_insert_default()
                        .insert(name.into_owned(), map.next_value()?);
                }
            }
        }
        Ok(())
    }
}

impl<'de> ReadObject<'de> for Meta<'de> {
    fn read<A: MapAccess<'de>>(
        &mut self,
        mut map: A,
        _: Option<ArgumentFilter<'_>>,
    ) -> Result<(), A::Error> {
        let meta = self;
        while let Some(Key(name)) = map.next_key()? {
            match name.as_ref() {
                META_PROTOCOL_VERSION => meta.protocol_version = Some(map.next_value()?),
                META_CLIENT_CAPABILITIES => {
                    meta.client_capabilities = Some(map.next_value_seed(Skip::Value)?);
                }
                _ => {
                    map.next_value_seed(Skip::Value)?;
                }
            }
        }
        Ok(())
    }
}
