//! [`Text`]: a tool's readable text, written as the contents of a JSON string (the form
//! a `tools/call` result carries it in), so it is never scanned or copied again to be
//! escaped. Literals are escaped when compiled ([`lit!`]); numbers and dollar amounts are
//! ASCII appended as they are written (whole hundredths as a copy of a fixed size).

use std::fmt::{self, Write as _};

use words::{integer_digits, push_json_escaped};

use crate::twin::{hundredths, ten_thousandths};

#[cfg(test)]
mod tests;

/// Readable text being written, escaped as the contents of a JSON string.
pub(crate) struct Text {
    escaped: Vec<u8>,
    /// Whether an escape has been written (a JSON text holding this one as a string then
    /// escapes it again; without one it is a copy: [`crate::twin::Twins::text`]).
    has_escapes: bool,
}

/// Appends a string literal to a [`Text`], escaped when compiled.
macro_rules! lit {
    ($out:expr, $text:expr) => {{
        const TEXT: &str = $text;
        const ESCAPED: [u8; $crate::twin::escaped_len(TEXT)] = $crate::twin::escaped(TEXT);
        // An escape always adds bytes.
        const HAS_ESCAPES: bool = ESCAPED.len() != TEXT.len();
        $out.literal(&ESCAPED, HAS_ESCAPES)
    }};
}
pub(crate) use lit;

/// The text whose contents as a JSON string are `escaped`.
pub(crate) fn unescaped(escaped: &[u8]) -> String {
    let literal = [&b"\""[..], escaped, b"\""].concat();
    serde_json::from_slice(&literal).expect("a text is written as a JSON string's contents")
}

impl Text {
    pub(crate) fn with_capacity(capacity: usize) -> Text {
        Text { escaped: Vec::with_capacity(capacity), has_escapes: false }
    }

    /// A text written after the bytes already in `escaped`.
    pub(crate) fn after(escaped: Vec<u8>) -> Text {
        Text { escaped, has_escapes: false }
    }

    /// Appends `text`, escaped.
    pub(crate) fn push_str(&mut self, text: &str) {
        let before = self.escaped.len();
        push_json_escaped(&mut self.escaped, text.as_bytes());
        // An escape always adds bytes.
        self.has_escapes |= self.escaped.len() - before != text.len();
    }

    /// Appends a name with nothing to escape (a grade, a shape, a basis, a snapshot's
    /// timestamp: the program's own), without looking for escapes.
    pub(crate) fn name(&mut self, name: &str) {
        debug_assert!(!words::needs_json_escape(name), "{name}");
        self.escaped.extend_from_slice(name.as_bytes());
    }

    /// Appends a literal escaped when compiled (use [`lit!`]).
    #[inline(always)]
    pub(crate) fn literal(&mut self, escaped: &[u8], has_escapes: bool) {
        self.escaped.extend_from_slice(escaped);
        self.has_escapes |= has_escapes;
    }

    /// Whether an escape has been written since the text began.
    pub(crate) fn has_escapes(&self) -> bool {
        self.has_escapes
    }

    /// The text written, escaped as the contents of a JSON string (UTF-8).
    pub(crate) fn into_escaped(self) -> Vec<u8> {
        self.escaped
    }

    /// Appends `value` as `{}` writes it. Between 1e-4 and 1e6 zmij (serde_json's number
    /// writer) writes the same shortest digits, about a tenth of the instructions, but
    /// `1.0` for 1, and whole hundredths are those digits from an integer
    /// (`twin::hundredths`, a fifth of zmij's); elsewhere (where zmij may write an exponent
    /// or, above 7e7, another last digit) the standard formatter does.
    #[inline(always)]
    pub(crate) fn decimal(&mut self, value: f64) {
        if let Some(mut digits) = hundredths(value) {
            if digits.as_bytes().ends_with(b".0") {
                digits.len -= 2;
            }
            digits.push_to(&mut self.escaped);
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
                .push_to(&mut self.escaped);
        } else {
            // Writing into a Vec cannot fail.
            let _ = write!(self, "{value:.4}");
        }
    }

    /// Appends `value`'s digits, as `{}` writes them.
    pub(crate) fn integer(&mut self, value: u64) {
        self.escaped.extend_from_slice(integer_digits(value, &mut [0; 20]));
    }

    /// Appends the closing line of a tool's text: `Data as of <as_of>.` (a snapshot's
    /// timestamp, which the program writes).
    pub(crate) fn as_of(&mut self, as_of: &str) {
        lit!(self, "Data as of ");
        self.name(as_of);
        lit!(self, ".");
    }

    /// Appends `amount` as [`words::usd`] writes it.
    pub(crate) fn usd(&mut self, amount: f64) {
        self.escaped.extend_from_slice(words::usd_ascii(amount, &mut [0; words::USD_BYTES_MAX]));
    }
}

impl fmt::Write for Text {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push_str(text);
        Ok(())
    }
}
