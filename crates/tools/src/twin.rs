//! [`to_json_twins`]: a tool's `structuredContent`, serialized once (serde derive) into the
//! two forms a `tools/call` result carries: compact JSON, and that JSON as the text of a
//! JSON string. The bytes are serde_json's (tests hold them to it); numbers are written
//! once, and the escaped twin without a second pass.
//!
//! It buys about 9 k instructions per price call against `serde_json::to_string` and an
//! escape pass over its output, about 4 k of it by quoting each struct key once per
//! thread and copying keys and hundredths as fixed-size blocks (`pieces`)
//! (docs/performance.md, "Writing a tool call's answer"). Shapes it does not write (enums
//! with data, non-string map keys, byte strings, keys over 26 bytes) go that slower way.

use std::cell::{Cell, RefCell};

use serde::{
    Serialize,
    ser::{self, Error as _, Impossible},
};
use serde_json::Error;
use words::{needs_json_escape, push_json_escaped};

mod pieces;
#[cfg(test)]
mod tests;

use pieces::Keys;
pub(crate) use pieces::{hundredths, ten_thousandths};

/// `value` as compact JSON, and that JSON escaped as the contents of a JSON string (what
/// serde_json writes between the quotes of `serde_json::to_string(&json)`). Both are
/// UTF-8 kept as bytes, only ever copied into a body.
pub(crate) fn to_json_twins(value: &impl Serialize) -> serde_json::Result<(Vec<u8>, Vec<u8>)> {
    thread_local! {
        static KEYS: RefCell<Keys> = RefCell::new(Keys::default());
    }
    let written = KEYS.with(|keys| match keys.try_borrow_mut() {
        Ok(mut keys) => write(value, &mut keys),
        // Only a `Serialize` that writes twins itself gets here: without the cache.
        Err(_) => write(value, &mut Keys::default()),
    });
    Ok(match written {
        Some(twins) => twins,
        None => {
            let plain = serde_json::to_vec(value)?;
            let mut escaped = Vec::with_capacity(plain.len() + plain.len() / 4);
            push_json_escaped(&mut escaped, &plain);
            (plain, escaped)
        }
    })
}

thread_local! {
    /// The buffers of an answer already sent ([`recycle`]), for the next one to write into.
    static SPARE: Cell<Option<(Vec<u8>, Vec<u8>)>> = const { Cell::new(None) };
}

/// Hands back the two forms once they are copied into a body: the next answer on this
/// thread writes into them instead of allocating (buffers over 64 KiB are freed).
pub(crate) fn recycle(mut plain: Vec<u8>, mut escaped: Vec<u8>) {
    if plain.capacity() <= 1 << 16 && escaped.capacity() <= 1 << 16 {
        plain.clear();
        escaped.clear();
        SPARE.set(Some((plain, escaped)));
    }
}

/// Both forms of `value`, or `None` for a shape left to serde_json.
fn write(value: &impl Serialize, keys: &mut Keys) -> Option<(Vec<u8>, Vec<u8>)> {
    let (plain, escaped) =
        SPARE.take().unwrap_or_else(|| (Vec::with_capacity(1024), Vec::with_capacity(1280)));
    let mut twins = Twins { plain, escaped, keys, at: 0 };
    value.serialize(&mut twins).ok()?;
    Some((twins.plain, twins.escaped))
}

struct Twins<'k> {
    plain: Vec<u8>,
    escaped: Vec<u8>,
    keys: &'k mut Keys,
    /// How many struct keys were written.
    at: usize,
}

impl Twins<'_> {
    /// Bytes that need no escape, to both.
    fn both(&mut self, bytes: &[u8]) {
        self.plain.extend_from_slice(bytes);
        self.escaped.extend_from_slice(bytes);
    }

    /// A JSON string: serde_json's literal, and that literal escaped.
    fn string(&mut self, text: &str) -> Result<(), Error> {
        if !needs_json_escape(text) {
            self.plain.push(b'"');
            self.plain.extend_from_slice(text.as_bytes());
            self.plain.push(b'"');
            self.escaped.push(b'\\');
            self.escaped.push(b'"');
            self.escaped.extend_from_slice(text.as_bytes());
            self.escaped.push(b'\\');
            self.escaped.push(b'"');
            return Ok(());
        }
        let start = self.plain.len();
        serde_json::to_writer(&mut self.plain, text)?;
        push_json_escaped(&mut self.escaped, &self.plain[start..]);
        Ok(())
    }

    /// Anything serde_json writes with no quote or backslash in it (numbers).
    fn bare(&mut self, value: &impl Serialize) -> Result<(), Error> {
        let start = self.plain.len();
        serde_json::to_writer(&mut self.plain, value)?;
        self.escaped.extend_from_slice(&self.plain[start..]);
        Ok(())
    }

    /// `,"key":` (no comma before the first), refusing a key that needs an escape or is
    /// longer than 26 bytes.
    fn key(&mut self, first: bool, key: &'static str) -> Result<(), Error> {
        let at = self.at;
        self.at += 1;
        let Some(index) = self.keys.find(at, key) else {
            return Err(Error::custom("key left to serde_json"));
        };
        let known = &self.keys.known[index];
        known.plain[usize::from(first)].push_to(&mut self.plain);
        known.escaped[usize::from(first)].push_to(&mut self.escaped);
        Ok(())
    }
}

fn unsupported() -> Error {
    Error::custom("shape left to serde_json")
}

/// An object or array being written: whether its first member is still to come.
struct Compound<'t, 'k> {
    twins: &'t mut Twins<'k>,
    first: bool,
}

impl Compound<'_, '_> {
    fn element(&mut self, value: &(impl Serialize + ?Sized)) -> Result<(), Error> {
        if !std::mem::take(&mut self.first) {
            self.twins.both(b",");
        }
        value.serialize(&mut *self.twins)
    }
}

impl<'t, 'k> ser::Serializer for &'t mut Twins<'k> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'t, 'k>;
    type SerializeTuple = Compound<'t, 'k>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Compound<'t, 'k>;
    type SerializeStruct = Compound<'t, 'k>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.both(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.bare(&v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        // What serde_json writes: `null` when not finite, else zmij's shortest digits.
        match hundredths(v) {
            Some(digits) => {
                digits.push_to(&mut self.plain);
                digits.push_to(&mut self.escaped);
            }
            None if v.is_finite() => self.both(zmij::Buffer::new().format_finite(v).as_bytes()),
            None => self.both(b"null"),
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(unsupported())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.both(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        name: &'static str,
    ) -> Result<(), Error> {
        self.string(name)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(unsupported())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'t, 'k>, Error> {
        self.both(b"[");
        Ok(Compound { twins: self, first: true })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'t, 'k>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(unsupported())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(unsupported())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'t, 'k>, Error> {
        self.both(b"{");
        Ok(Compound { twins: self, first: true })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'t, 'k>, Error> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(unsupported())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.twins.both(b"]");
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        let start = self.twins.plain.len() + usize::from(!self.first);
        self.element(key)?;
        // Only string keys: serde_json quotes others its own way.
        match self.twins.plain.get(start) {
            Some(b'"') => Ok(()),
            _ => Err(unsupported()),
        }
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.twins.both(b":");
        value.serialize(&mut *self.twins)
    }
    fn end(self) -> Result<(), Error> {
        self.twins.both(b"}");
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.twins.key(std::mem::take(&mut self.first), key)?;
        value.serialize(&mut *self.twins)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeMap::end(self)
    }
}
