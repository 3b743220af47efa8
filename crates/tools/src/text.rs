//! [`Text`]: a tool's readable text, written as bytes and checked as UTF-8 once, at the
//! end. Numbers and dollar amounts are ASCII appended as they are written (whole hundredths
//! as a copy of a fixed size), where a `String` checks each piece again (about 80
//! instructions a number). A text also keeps where its line breaks are while they are the
//! only bytes a JSON string escapes ([`Breaks`]): a response then writes it escaped
//! without looking for escapes (a scan of about 3 instructions a byte).

use std::fmt::{self, Write as _};

use words::{needs_json_escape, push_json_escaped};

use crate::twin::{hundredths, ten_thousandths};

#[cfg(test)]
mod tests;

/// Readable text being written.
pub(crate) struct Text {
    bytes: Vec<u8>,
    /// The line breaks written so far, while no other byte a JSON string escapes is (in
    /// a text made by [`Text::lines`]).
    breaks: Option<Breaks>,
}

/// Most line breaks [`Breaks`] holds.
const BREAKS_MAX: usize = 16;

/// Where a text's line breaks are, in a text with no other byte a JSON string escapes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Breaks {
    at: [u32; BREAKS_MAX],
    len: usize,
}

/// A string literal for [`Text::literal`] ([`lit!`]), checked when compiled: no byte a
/// JSON string escapes but line breaks, which it lists.
#[derive(Clone, Copy)]
pub(crate) struct Literal {
    text: &'static str,
    breaks: [u8; 4],
    len: usize,
}

impl Literal {
    pub(crate) const fn new(text: &'static str) -> Literal {
        let mut literal = Literal { text, breaks: [0; 4], len: 0 };
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] == b'\n' {
                assert!(
                    literal.len < 4 && at < 256,
                    "at most 4 line breaks, in the first 256 bytes"
                );
                literal.breaks[literal.len] = at as u8;
                literal.len += 1;
            } else {
                assert!(bytes[at] >= 0x20 && bytes[at] != b'"' && bytes[at] != b'\\');
            }
            at += 1;
        }
        literal
    }
}

/// Appends a string literal to a [`Text`], checked when compiled (see [`Literal`]).
macro_rules! lit {
    ($out:expr, $text:expr) => {
        $out.literal(const { $crate::text::Literal::new($text) })
    };
}
pub(crate) use lit;

impl Text {
    pub(crate) fn with_capacity(capacity: usize) -> Text {
        Text { bytes: Vec::with_capacity(capacity), breaks: None }
    }

    /// A text that keeps where its line breaks are ([`Text::finish`]).
    pub(crate) fn lines(capacity: usize) -> Text {
        Text { bytes: Vec::with_capacity(capacity), breaks: Some(Breaks::default()) }
    }

    /// Appends `text` (checked for bytes a JSON string escapes, in a [`Text::lines`]).
    pub(crate) fn push_str(&mut self, text: &str) {
        if self.breaks.is_some() && needs_json_escape(text) {
            self.breaks = None;
        }
        self.bytes.extend_from_slice(text.as_bytes());
    }

    /// Appends a literal checked when compiled (use [`lit!`]).
    pub(crate) fn literal(&mut self, literal: Literal) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(literal.text.as_bytes());
        for &at in &literal.breaks[..literal.len] {
            let at = start + usize::from(at);
            match &mut self.breaks {
                Some(breaks) if breaks.len < BREAKS_MAX && at <= u32::MAX as usize => {
                    breaks.at[breaks.len] = at as u32;
                    breaks.len += 1;
                }
                _ => self.breaks = None,
            }
        }
    }

    /// The text written.
    pub(crate) fn into_string(self) -> String {
        self.finish().0
    }

    /// The text written, and where its line breaks are when they are its only bytes a
    /// JSON string escapes.
    pub(crate) fn finish(self) -> (String, Option<Breaks>) {
        let text = String::from_utf8(self.bytes).expect("only whole UTF-8 strings are appended");
        (text, self.breaks)
    }

    /// Appends `value` as `{}` writes it. Between 1e-4 and 1e6 zmij (serde_json's number
    /// writer) writes the same shortest digits, about a tenth of the instructions, but
    /// `1.0` for 1, and whole hundredths are those digits from an integer
    /// (`twin::hundredths`, a fifth of zmij's); elsewhere (where zmij may write an exponent
    /// or, above 7e7, another last digit) the standard formatter does.
    pub(crate) fn decimal(&mut self, value: f64) {
        if let Some(mut digits) = hundredths(value) {
            if digits.as_bytes().ends_with(b".0") {
                digits.len -= 2;
            }
            digits.push_to(&mut self.bytes);
        } else if (1e-4..1e6).contains(&value.abs()) {
            let mut buffer = zmij::Buffer::new();
            let text = buffer.format_finite(value);
            self.push_str(text.strip_suffix(".0").unwrap_or(text));
        } else {
            // Writing into a Vec cannot fail.
            let _ = write!(self, "{value}");
        }
    }

    /// Appends `value` as `{:.4}` writes it (the exact value rounded half to even at four
    /// decimals). Below 1e4, unless `value * 1e4` lies within 1e-6 of a rounding tie (where
    /// the multiplication's own rounding could decide), the nearest whole number of
    /// ten-thousandths is that rounding, written from its eight digits at once
    /// (`twin::ten_thousandths`): about 60 instructions where `core::fmt`'s exact mode
    /// takes 2,000.
    pub(crate) fn fixed4(&mut self, value: f64) {
        let scaled = value.abs() * 1e4;
        if value.abs() < 1e4 && (scaled - scaled.trunc() - 0.5).abs() >= 1e-6 {
            // Away from a tie, adding 0.5 and cutting rounds as `round` does.
            ten_thousandths((scaled + 0.5) as u32, value.is_sign_negative())
                .push_to(&mut self.bytes);
        } else {
            // Writing into a Vec cannot fail.
            let _ = write!(self, "{value:.4}");
        }
    }

    /// Appends `value`'s digits, as `{}` writes them.
    pub(crate) fn integer(&mut self, value: u64) {
        let mut text = [0u8; 20];
        let (mut at, mut rest) = (text.len(), value);
        loop {
            at -= 1;
            text[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.bytes.extend_from_slice(&text[at..]);
    }

    /// Appends `amount` as [`words::usd`] writes it.
    pub(crate) fn usd(&mut self, amount: f64) {
        self.bytes.extend_from_slice(words::usd_ascii(amount, &mut [0; words::USD_BYTES_MAX]));
    }
}

impl fmt::Write for Text {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push_str(text);
        Ok(())
    }
}

/// Appends `text` escaped as the contents of a JSON string: with `breaks`, the runs
/// between its line breaks, each break as `\n`; without, by a scan.
pub(crate) fn push_escaped(out: &mut Vec<u8>, text: &str, breaks: Option<&Breaks>) {
    let Some(breaks) = breaks else {
        push_json_escaped(out, text.as_bytes());
        return;
    };
    let mut from = 0;
    for &at in &breaks.at[..breaks.len] {
        let at = at as usize;
        debug_assert_eq!(text.as_bytes()[at], b'\n');
        out.extend_from_slice(&text.as_bytes()[from..at]);
        out.extend_from_slice(b"\\n");
        from = at + 1;
    }
    out.extend_from_slice(&text.as_bytes()[from..]);
}
