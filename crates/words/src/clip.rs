//! Untrusted text repeated in a message: cut to [`CLIP_CHARS_MAX`] characters, so that no
//! input makes an error large.

use std::{borrow::Cow, fmt};

use crate::json_string;

#[cfg(test)]
mod tests;

/// Most characters of untrusted text a message repeats; the rest is cut.
pub const CLIP_CHARS_MAX: usize = 64;

/// `text` itself when short, else its first [`CLIP_CHARS_MAX`] characters and `…`: for
/// echoing untrusted text as a value with a bounded size.
pub fn clip(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(CLIP_CHARS_MAX) {
        None => text.into(),
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
    }
}

/// `text` as a JSON string literal for a message: at most [`CLIP_CHARS_MAX`] characters of
/// it; longer text is cut, marked with `…` and followed by its full length
/// (`"aaa…" (21000 bytes)`).
pub fn quoted(text: &str) -> String {
    match clip(text) {
        Cow::Borrowed(whole) => json_string(whole),
        Cow::Owned(cut) => format!("{} ({} bytes)", json_string(&cut), text.len()),
    }
}

/// [`quoted`] written only when displayed, for messages that may never be built.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quoted(self.0))
    }
}
