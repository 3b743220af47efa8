//! `ObjectWriter`: compact JSON objects written by hand for the hot path, the very bytes
//! serde_json writes with [`crate::number::JsonNumbers`] (tests compare the two).

use crate::number::JsonNumbers;

/// Writes one JSON object member by member into a buffer; [`ObjectWriter::finish`]
/// closes it. Keys are written as given: they must need no escaping.
pub(crate) struct ObjectWriter<'o> {
    out: &'o mut Vec<u8>,
    empty: bool,
}

impl<'o> ObjectWriter<'o> {
    /// Opens an object at the end of `out`.
    pub(crate) fn new(out: &'o mut Vec<u8>) -> ObjectWriter<'o> {
        out.push(b'{');
        ObjectWriter { out, empty: true }
    }

    fn key(&mut self, key: &str) {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    /// A string member, escaped.
    pub(crate) fn str(&mut self, key: &str, value: &str) {
        self.key(key);
        jsonrpc::write_str(self.out, value);
    }

    /// A number member (`null` when not finite, as serde_json writes it).
    pub(crate) fn f64(&mut self, key: &str, value: f64) {
        self.key(key);
        JsonNumbers::write_f64_to(self.out, value);
    }

    /// A number member, or `null`.
    pub(crate) fn opt_f64(&mut self, key: &str, value: Option<f64>) {
        match value {
            Some(value) => self.f64(key, value),
            None => self.null(key),
        }
    }

    /// A boolean member.
    pub(crate) fn bool(&mut self, key: &str, value: bool) {
        self.key(key);
        self.out.extend_from_slice(if value { b"true" } else { b"false" });
    }

    /// A `null` member.
    pub(crate) fn null(&mut self, key: &str) {
        self.key(key);
        self.out.extend_from_slice(b"null");
    }

    /// An object member whose members `write` writes.
    pub(crate) fn object(&mut self, key: &str, write: impl FnOnce(&mut ObjectWriter<'_>)) {
        self.key(key);
        let mut inner = ObjectWriter::new(self.out);
        write(&mut inner);
        inner.finish();
    }

    /// Closes the object.
    pub(crate) fn finish(self) {
        self.out.push(b'}');
    }
}
