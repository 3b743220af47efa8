//! [`Twins`] as a serde `Serializer`, for the values [`super::to_json_twins`] writes:
//! serde_json's bytes for every shape but enums with data, non-string map keys and byte
//! strings, which it refuses (they go to serde_json itself).

use serde::{
    Serialize,
    ser::{self, Error as _, Impossible},
};
use serde_json::Error;

use super::Twins;

fn unsupported() -> Error {
    Error::custom("shape left to serde_json")
}

/// An object or array being written: whether its first member is still to come.
pub(crate) struct Compound<'t> {
    twins: &'t mut Twins,
    first: bool,
}

impl Compound<'_> {
    fn element(&mut self, value: &(impl Serialize + ?Sized)) -> Result<(), Error> {
        if !std::mem::take(&mut self.first) {
            self.twins.both(b",");
        }
        value.serialize(&mut *self.twins)
    }
}

impl<'t> ser::Serializer for &'t mut Twins {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'t>;
    type SerializeTuple = Compound<'t>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Compound<'t>;
    type SerializeStruct = Compound<'t>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.boolean(v);
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
        self.number(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
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
        self.string(name);
        Ok(())
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
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'t>, Error> {
        self.both(b"[");
        Ok(Compound { twins: self, first: true })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'t>, Error> {
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
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'t>, Error> {
        self.both(b"{");
        Ok(Compound { twins: self, first: true })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'t>, Error> {
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

impl ser::SerializeSeq for Compound<'_> {
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

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
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

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeMap::end(self)
    }
}
