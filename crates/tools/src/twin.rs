//! [`Twins`]: a tool's `structuredContent` written once into the two forms a `tools/call`
//! result carries: compact JSON, and that JSON as the text of a JSON string (what
//! serde_json writes between the quotes of `serde_json::to_string(&json)`), side by side,
//! so no byte is escaped or written twice. Every tool's members are written from
//! fragments known when compiled ([`fragment!`]: each is one copy of a fixed size a
//! form) and the values between them, the bytes serde_json writes for them (each tool's
//! tests hold its result to them; docs/performance.md, "Writing a tool call's answer").

use std::cell::Cell;

use serde::Serialize;
use serde_json::Error;
use words::{needs_json_escape, push_json_escaped};

use crate::text::Text;

mod pieces;
#[cfg(test)]
mod tests;

pub(crate) use pieces::{hundredths, ten_thousandths};

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

/// The length of `text` escaped as the contents of a JSON string (for [`fragment!`] and
/// `lit!`).
pub(crate) const fn escaped_len(text: &str) -> usize {
    let (bytes, mut at, mut len) = (text.as_bytes(), 0, 0);
    while at < bytes.len() {
        len += if matches!(bytes[at], b'"' | b'\\' | b'\n') { 2 } else { 1 };
        at += 1;
    }
    len
}

/// `text` escaped as the contents of a JSON string, when compiled (for [`fragment!`] and
/// `lit!`, whose only control character is the line break).
pub(crate) const fn escaped<const N: usize>(text: &str) -> [u8; N] {
    let (bytes, mut out, mut at, mut len) = (text.as_bytes(), [0; N], 0, 0);
    while at < bytes.len() {
        let byte = bytes[at];
        assert!(byte >= 0x20 || byte == b'\n', "no control character but a line break");
        if matches!(byte, b'"' | b'\\' | b'\n') {
            out[len] = b'\\';
            len += 1;
        }
        out[len] = if byte == b'\n' { b'n' } else { byte };
        (len, at) = (len + 1, at + 1);
    }
    out
}

/// Appends JSON known when compiled to a [`Twins`]: as is, and escaped when compiled.
macro_rules! fragment {
    ($twins:expr, $json:expr) => {{
        const JSON: &str = $json;
        const ESCAPED: [u8; $crate::twin::escaped_len(JSON)] = $crate::twin::escaped(JSON);
        $twins.fragment(JSON.as_bytes(), &ESCAPED)
    }};
}
pub(crate) use fragment;

/// JSON being written in both forms: compact, and escaped as the contents of a string.
pub(crate) struct Twins {
    plain: Vec<u8>,
    escaped: Vec<u8>,
}

impl Twins {
    /// Nothing written yet, in the buffers of an answer already sent when there are some.
    pub(crate) fn new() -> Twins {
        let (plain, escaped) =
            SPARE.take().unwrap_or_else(|| (Vec::with_capacity(1024), Vec::with_capacity(1280)));
        Twins { plain, escaped }
    }

    /// Both forms written.
    pub(crate) fn finish(self) -> (Vec<u8>, Vec<u8>) {
        debug_assert!({
            let mut escaped = Vec::new();
            push_json_escaped(&mut escaped, &self.plain);
            escaped == self.escaped
        });
        (self.plain, self.escaped)
    }

    /// A fragment and its escaped form, both known when compiled (use [`fragment!`]).
    #[inline(always)]
    pub(crate) fn fragment(&mut self, plain: &[u8], escaped: &[u8]) {
        self.plain.extend_from_slice(plain);
        self.escaped.extend_from_slice(escaped);
    }

    /// Bytes that need no escape, to both.
    fn both(&mut self, bytes: &[u8]) {
        self.plain.extend_from_slice(bytes);
        self.escaped.extend_from_slice(bytes);
    }

    /// A JSON string of a name with nothing to escape (a grade, a shape, a basis, a
    /// snapshot's timestamp: the program's own), written without looking for escapes.
    #[inline(always)]
    pub(crate) fn name(&mut self, name: &str) {
        debug_assert!(!needs_json_escape(name), "{name}");
        self.quoted(name);
    }

    /// `text`, which needs no escape, as a JSON string.
    #[inline(always)]
    fn quoted(&mut self, text: &str) {
        self.plain.push(b'"');
        self.plain.extend_from_slice(text.as_bytes());
        self.plain.push(b'"');
        self.escaped.extend_from_slice(b"\\\"");
        self.escaped.extend_from_slice(text.as_bytes());
        self.escaped.extend_from_slice(b"\\\"");
    }

    /// A JSON string: serde_json's literal, and that literal escaped.
    pub(crate) fn string(&mut self, text: &str) {
        if !needs_json_escape(text) {
            self.quoted(text);
            return;
        }
        // Writing a string into a Vec cannot fail.
        let _ = self.serialized(text);
    }

    /// Any value as serde_json writes it, and that escaped (a pass over it: for values
    /// off the answers' paths, e.g. a refused call's errors).
    pub(crate) fn serialized(&mut self, value: &(impl Serialize + ?Sized)) -> Result<(), Error> {
        let start = self.plain.len();
        serde_json::to_writer(&mut self.plain, value)?;
        push_json_escaped(&mut self.escaped, &self.plain[start..]);
        Ok(())
    }

    /// A JSON string whose contents `write` writes (a [`Text`] is written escaped, so
    /// straight into the compact form). The twin escapes them again only when the text
    /// wrote an escape ([`Text::has_escapes`]); otherwise they are a copy.
    pub(crate) fn text(&mut self, write: impl FnOnce(&mut Text)) {
        self.plain.push(b'"');
        let start = self.plain.len();
        let mut text = Text::after(std::mem::take(&mut self.plain));
        write(&mut text);
        let has_escapes = text.has_escapes();
        self.plain = text.into_escaped();
        self.escaped.extend_from_slice(b"\\\"");
        let contents = &self.plain[start..];
        if has_escapes {
            push_json_escaped(&mut self.escaped, contents);
        } else {
            self.escaped.extend_from_slice(contents);
        }
        self.escaped.extend_from_slice(b"\\\"");
        self.plain.push(b'"');
    }

    /// A number as serde_json writes it: `null` when not finite, else zmij's shortest
    /// digits (whole hundredths from an integer, [`hundredths`]).
    #[inline(always)]
    pub(crate) fn number(&mut self, v: f64) {
        match hundredths(v) {
            Some(digits) => {
                digits.push_to(&mut self.plain);
                digits.push_to(&mut self.escaped);
            }
            None if v.is_finite() => self.both(zmij::Buffer::new().format_finite(v).as_bytes()),
            None => self.both(b"null"),
        }
    }

    /// `true` or `false`.
    pub(crate) fn boolean(&mut self, v: bool) {
        if v {
            fragment!(self, "true");
        } else {
            fragment!(self, "false");
        }
    }

    /// A number or `null`.
    #[inline(always)]
    pub(crate) fn maybe(&mut self, v: Option<f64>) {
        match v {
            Some(v) => self.number(v),
            None => self.both(b"null"),
        }
    }

    /// An integer.
    pub(crate) fn integer(&mut self, v: u64) {
        self.both(words::integer_digits(v, &mut [0; 20]));
    }
}
