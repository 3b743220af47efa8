//! `HeaderView` and the MCP routing-header rules: lookup, trimming, the base64 sentinel.

use std::{borrow::Cow, fmt};

use base64::{Engine, engine::general_purpose::STANDARD};
use words::quoted;

use crate::ErrorObject;

#[cfg(test)]
mod tests;

/// `MCP-Protocol-Version`: must equal `params._meta["io.modelcontextprotocol/protocolVersion"]`.
pub const HEADER_PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
/// `Mcp-Method`: must equal the body `method`.
pub const HEADER_METHOD: &str = "Mcp-Method";
/// `Mcp-Name`: must equal `params.name` (tools/call, prompts/get) or `params.uri` (resources/read).
pub const HEADER_NAME: &str = "Mcp-Name";

/// The routing headers, the only ones the checks read, in the order of [`Routing`].
const ROUTING: [&str; 3] = [HEADER_PROTOCOL_VERSION, HEADER_METHOD, HEADER_NAME];

/// A routing header, as the checks name it: no name to compare.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Routing {
    ProtocolVersion,
    Method,
    Name,
}

/// The MCP routing headers of a request, picked out of the transport's header list in
/// one pass (names matched case-insensitively, ASCII): for each, its first raw value and
/// how many times it was sent. Other headers are not kept; nothing is allocated.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeaderView<'a> {
    routing: [(Option<&'a [u8]>, usize); 3],
}

impl<'a> HeaderView<'a> {
    /// A view over `headers`, e.g. `HeaderView::new([("Mcp-Method", &b"tools/list"[..])])`.
    pub fn new(headers: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> HeaderView<'a> {
        let mut view = HeaderView::default();
        for (name, value) in headers {
            // The three names differ in length: most names are ruled out by it.
            let slot = ROUTING
                .iter()
                .position(|known| known.len() == name.len() && known.eq_ignore_ascii_case(name));
            if let Some(slot) = slot {
                let (first, times) = &mut view.routing[slot];
                first.get_or_insert(value);
                *times += 1;
            }
        }
        view
    }

    /// Routing header `name` as sent: its first raw value (`None` when absent) and how
    /// many times it was sent. Any other name is absent.
    pub fn sent(&self, name: &str) -> (Option<&'a [u8]>, usize) {
        match ROUTING.iter().position(|known| known.eq_ignore_ascii_case(name)) {
            Some(slot) => self.routing[slot],
            None => (None, 0),
        }
    }

    /// [`HeaderView::sent`] of a routing header.
    pub(crate) fn routing(&self, header: Routing) -> (Option<&'a [u8]>, usize) {
        self.routing[header as usize]
    }
}

impl<'a> FromIterator<(&'a str, &'a [u8])> for HeaderView<'a> {
    fn from_iter<I: IntoIterator<Item = (&'a str, &'a [u8])>>(iter: I) -> HeaderView<'a> {
        HeaderView::new(iter)
    }
}

/// Checks that routing header `header` is present once and, after trimming and base64
/// decoding, equals `expected`, the body value described by `body_field` (written only
/// into an error).
#[inline(always)]
pub(crate) fn check_routing(
    headers: &HeaderView<'_>,
    header: Routing,
    expected: &str,
    body_field: &dyn fmt::Display,
) -> Result<(), ErrorObject> {
    let name = ROUTING[header as usize];
    let raw = match headers.routing(header) {
        (None, _) => {
            return Err(ErrorObject::header_mismatch(format!(
                "header {name} is missing; it must equal {body_field} {}",
                quoted(expected)
            )));
        }
        (Some(_), times @ 2..) => {
            return Err(ErrorObject::header_mismatch(format!(
                "header {name} is sent {times} times; send it once, equal to {body_field} {}",
                quoted(expected)
            )));
        }
        (Some(raw), _) => raw,
    };
    if is_verbatim(raw, expected) {
        return Ok(());
    }
    let value = header_value(raw).map_err(|problem| {
        ErrorObject::header_mismatch(format!(
            "header {name} {problem}; it must equal {body_field} {}",
            quoted(expected)
        ))
    })?;
    if value.text != expected {
        let how = if value.decoded { " (base64-decoded)" } else { "" };
        return Err(ErrorObject::header_mismatch(format!(
            "header {name} {}{how} does not match {body_field} {}",
            quoted(&value.text),
            quoted(expected)
        )));
    }
    Ok(())
}

/// A routing header value after trimming and sentinel decoding.
#[derive(Debug, PartialEq)]
pub(crate) struct HeaderValue<'a> {
    pub(crate) text: Cow<'a, str>,
    pub(crate) decoded: bool,
}

const SENTINEL_START: &[u8] = b"=?base64?";
const SENTINEL_END: &[u8] = b"?=";

/// Trims spaces and tabs, rejects bytes that are not visible ASCII (spaces and tabs are
/// allowed inside), and decodes a `=?base64?…?=` value. The error completes the sentence
/// "header X …".
pub(crate) fn header_value(raw: &[u8]) -> Result<HeaderValue<'_>, String> {
    let trimmed = trim(raw);
    if let Some(bad) = trimmed.iter().find(|&&b| !(b == b' ' || b == b'\t' || b.is_ascii_graphic()))
    {
        return Err(format!(
            "has an invalid byte 0x{bad:02x}; non-ASCII values must use the =?base64?…?= form"
        ));
    }
    // All bytes are ASCII now, so this cannot fail.
    let text = std::str::from_utf8(trimmed).map_err(|_| "is not ASCII".to_owned())?;
    if !is_sentinel(trimmed) {
        return Ok(HeaderValue { text: Cow::Borrowed(text), decoded: false });
    }
    let payload = &trimmed[SENTINEL_START.len()..trimmed.len() - SENTINEL_END.len()];
    // The standard engine refuses a missing or misplaced `=` and unused trailing bits that
    // are not zero (`Zh==`; RFC 4648 §3.5): one byte string has one spelling.
    let bytes = STANDARD
        .decode(payload)
        .map_err(|_| format!("{} is not valid padded standard base64", quoted(text)))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{} does not decode to UTF-8", quoted(text)))?;
    Ok(HeaderValue { text: Cow::Owned(text), decoded: true })
}

/// Whether `raw` is `expected` itself, visible ASCII without spaces, and so passes
/// [`header_value`] unchanged: the common case, answered without trimming or building the
/// value (any other value goes through [`header_value`]).
fn is_verbatim(raw: &[u8], expected: &str) -> bool {
    raw == expected.as_bytes() && is_visible_ascii(raw) && !is_sentinel(raw)
}

/// Whether every byte of `bytes` is visible ASCII (`!` to `~`): eight bytes at a time, the
/// last eight overlapping the ones before, a byte loop only under eight (fewer
/// instructions than the compiler's vectorized byte loop on values of 10 to 20 bytes).
pub(crate) fn is_visible_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    let Some(last) = bytes.last_chunk::<8>() else {
        return bytes.iter().all(u8::is_ascii_graphic);
    };
    let (words, _) = bytes.as_chunks::<8>();
    let flags = words.iter().chain([last]).fold(0, |flags, word| {
        let word = u64::from_le_bytes(*word);
        // A byte's high bit: below 0x21 (borrowing, which only a byte below 0x21 starts),
        // or above 0x7e (carrying, which only a byte from 0xff starts).
        flags | (word.wrapping_sub(ONES * 0x21) & !word) | word.wrapping_add(ONES) | word
    });
    flags & (ONES * 0x80) == 0
}

/// Whether a trimmed value has the `=?base64?…?=` form.
fn is_sentinel(trimmed: &[u8]) -> bool {
    trimmed.len() >= SENTINEL_START.len() + SENTINEL_END.len()
        && trimmed.starts_with(SENTINEL_START)
        && trimmed.ends_with(SENTINEL_END)
}

pub(crate) fn trim(mut bytes: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = bytes {
        bytes = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = bytes {
        bytes = rest;
    }
    bytes
}
