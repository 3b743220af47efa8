//! `ObjectWriter`: compact JSON objects written by hand for the hot path, the very bytes
//! serde_json writes with [`crate::number::JsonNumbers`], together with the same JSON
//! escaped as the contents of a JSON string (tests compare both with the slow routes).

use crate::number::JsonNumbers;

/// Writes one JSON object member by member into `out`, and into `escaped` what
/// [`jsonrpc::write_str_contents`] would make of it: the object as the text of a JSON
/// string (`{\"k\":1}`), for a result's JSON text item. Writing both at once costs far
/// less than escaping the finished object, which has a quote every few bytes.
/// [`ObjectWriter::finish`] closes the object. Keys come from [`key!`], spelled out in
/// both forms at compile time.
pub(crate) struct ObjectWriter<'o> {
    out: &'o mut Vec<u8>,
    escaped: &'o mut Vec<u8>,
    empty: bool,
}

/// A member name with its punctuation in both outputs: `,"name":` and `,\"name\":` (the
/// comma is left out for an object's first member). Made by [`key!`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key {
    plain: &'static str,
    escaped: &'static str,
}

impl Key {
    /// The key `,"name":` / `,\"name\":`; panics (at compile time, from [`key!`]) when
    /// `name` would need escaping, which these fixed spellings cannot hold.
    pub(crate) const fn new(name: &'static str, plain: &'static str, escaped: &'static str) -> Key {
        let bytes = name.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            assert!(
                bytes[i] >= 0x20 && bytes[i] != b'"' && bytes[i] != b'\\',
                "key needs escaping"
            );
            i += 1;
        }
        Key { plain, escaped }
    }
}

/// The [`Key`] for member `name` (a string literal, or a field's name), checked at
/// compile time.
macro_rules! key {
    ($name:literal) => {
        const {
            $crate::object_writer::Key::new(
                $name,
                concat!(",\"", $name, "\":"),
                concat!(",\\\"", $name, "\\\":"),
            )
        }
    };
    ($field:ident) => {
        const {
            $crate::object_writer::Key::new(
                stringify!($field),
                concat!(",\"", stringify!($field), "\":"),
                concat!(",\\\"", stringify!($field), "\\\":"),
            )
        }
    };
}
pub(crate) use key;

/// A value an [`ObjectWriter`] writes as one member, as serde_json would serialize it.
pub(crate) trait Member {
    /// Writes `key` and the value.
    fn write_member(&self, o: &mut ObjectWriter<'_>, key: Key);
}

impl Member for f64 {
    fn write_member(&self, o: &mut ObjectWriter<'_>, key: Key) {
        o.f64(key, *self);
    }
}

impl Member for bool {
    fn write_member(&self, o: &mut ObjectWriter<'_>, key: Key) {
        o.bool(key, *self);
    }
}

impl Member for &str {
    fn write_member(&self, o: &mut ObjectWriter<'_>, key: Key) {
        o.str(key, self);
    }
}

impl Member for String {
    fn write_member(&self, o: &mut ObjectWriter<'_>, key: Key) {
        o.str(key, self);
    }
}

impl<T: Member> Member for Option<T> {
    fn write_member(&self, o: &mut ObjectWriter<'_>, key: Key) {
        match self {
            Some(value) => value.write_member(o, key),
            None => o.null(key),
        }
    }
}

/// Declares a struct whose members are listed once: the struct, serialized by serde
/// (`#[derive(Serialize)]`, the slow route and the tests' oracle), and its hand-written
/// route, `write_members` (and [`Member`], to nest it), which writes the same members in
/// the same order with an [`ObjectWriter`]. Every field's type must be a [`Member`].
macro_rules! json_object {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident $(<$lt:lifetime>)? {
            $($(#[$field_meta:meta])* $field:ident : $type:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, serde::Serialize)]
        $vis struct $name $(<$lt>)? {
            $($(#[$field_meta])* $field: $type,)*
        }

        impl $(<$lt>)? $name $(<$lt>)? {
            /// Writes the members, in field order.
            fn write_members(&self, o: &mut $crate::object_writer::ObjectWriter<'_>) {
                $($crate::object_writer::Member::write_member(
                    &self.$field,
                    o,
                    $crate::object_writer::key!($field),
                );)*
            }
        }

        impl $(<$lt>)? $crate::object_writer::Member for $name $(<$lt>)? {
            fn write_member(
                &self,
                o: &mut $crate::object_writer::ObjectWriter<'_>,
                key: $crate::object_writer::Key,
            ) {
                o.object(key, |inner| self.write_members(inner));
            }
        }
    };
}
pub(crate) use json_object;

impl<'o> ObjectWriter<'o> {
    /// Opens an object at the end of `out`, and its escaped copy at the end of `escaped`.
    pub(crate) fn new(out: &'o mut Vec<u8>, escaped: &'o mut Vec<u8>) -> ObjectWriter<'o> {
        let mut writer = ObjectWriter { out, escaped, empty: true };
        writer.verbatim(b"{");
        writer
    }

    /// Appends bytes that need no escaping to both outputs.
    fn verbatim(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
        self.escaped.extend_from_slice(bytes);
    }

    fn key(&mut self, key: Key) {
        // The first member has no comma before it.
        let skip = usize::from(self.empty);
        self.empty = false;
        self.out.extend_from_slice(&key.plain.as_bytes()[skip..]);
        self.escaped.extend_from_slice(&key.escaped.as_bytes()[skip..]);
    }

    /// A string member, escaped (and escaped twice in the copy).
    pub(crate) fn str(&mut self, key: Key, value: &str) {
        self.key(key);
        let start = self.out.len();
        jsonrpc::write_str(self.out, value);
        if self.out.len() - start == value.len() + 2 {
            // Nothing in `value` needed an escape: in the copy, only the quotes do.
            self.escaped.extend_from_slice(b"\\\"");
            self.escaped.extend_from_slice(value.as_bytes());
            self.escaped.extend_from_slice(b"\\\"");
        } else {
            // A string literal that serde_json would write is whole UTF-8.
            let literal = std::str::from_utf8(&self.out[start..]).unwrap_or_default();
            jsonrpc::write_str_contents(self.escaped, literal);
        }
    }

    /// A number member (`null` when not finite, as serde_json writes it).
    pub(crate) fn f64(&mut self, key: Key, value: f64) {
        self.key(key);
        let start = self.out.len();
        JsonNumbers::write_f64_to(self.out, value);
        // Digits, signs, points and `null` need no escaping.
        self.escaped.extend_from_slice(&self.out[start..]);
    }

    /// A whole-number member.
    pub(crate) fn unsigned(&mut self, key: Key, value: u64) {
        self.key(key);
        self.verbatim(itoa::Buffer::new().format(value).as_bytes());
    }

    /// A boolean member.
    pub(crate) fn bool(&mut self, key: Key, value: bool) {
        self.key(key);
        self.verbatim(if value { b"true" } else { b"false" });
    }

    /// A `null` member.
    pub(crate) fn null(&mut self, key: Key) {
        self.key(key);
        self.verbatim(b"null");
    }

    /// An object member whose members `write` writes.
    pub(crate) fn object(&mut self, key: Key, write: impl FnOnce(&mut ObjectWriter<'_>)) {
        self.key(key);
        let mut inner = ObjectWriter::new(self.out, self.escaped);
        write(&mut inner);
        inner.finish();
    }

    /// Closes the object.
    pub(crate) fn finish(mut self) {
        self.verbatim(b"}");
    }
}

#[cfg(test)]
mod tests;
