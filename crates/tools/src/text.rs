//! [`Text`]: a tool's readable text, written as bytes and checked as UTF-8 once, at the
//! end. Numbers and dollar amounts are ASCII appended as they are written (whole hundredths
//! as a copy of a fixed size), where a `String` checks each piece again (about 80
//! instructions a number).

use std::fmt::{self, Write as _};

use crate::twin::hundredths;

#[cfg(test)]
mod tests;

/// Readable text being written.
pub(crate) struct Text(Vec<u8>);

impl Text {
    pub(crate) fn with_capacity(capacity: usize) -> Text {
        Text(Vec::with_capacity(capacity))
    }

    pub(crate) fn push_str(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    /// The text written.
    pub(crate) fn into_string(self) -> String {
        String::from_utf8(self.0).expect("only whole UTF-8 strings are appended")
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
            digits.push_to(&mut self.0);
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
    /// decimals). Below 1e9, unless `value * 1e4` lies within 1e-6 of a rounding tie (where
    /// the multiplication's own rounding could decide), the nearest whole number of
    /// ten-thousandths is that rounding, its digits written right to left: about 100
    /// instructions where `core::fmt`'s exact mode takes 2,000.
    pub(crate) fn fixed4(&mut self, value: f64) {
        let scaled = value.abs() * 1e4;
        let fraction = scaled - scaled.trunc();
        if !value.is_finite() || value.abs() >= 1e9 || (fraction - 0.5).abs() < 1e-6 {
            // Writing into a Vec cannot fail.
            let _ = write!(self, "{value:.4}");
            return;
        }
        let mut rest = scaled.round() as u64;
        let mut text = [0u8; 24];
        let mut at = text.len();
        for place in 0.. {
            if place == 4 {
                at -= 1;
                text[at] = b'.';
            }
            at -= 1;
            text[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 && place >= 4 {
                break;
            }
        }
        if value.is_sign_negative() {
            at -= 1;
            text[at] = b'-';
        }
        self.0.extend_from_slice(&text[at..]);
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
        self.0.extend_from_slice(&text[at..]);
    }

    /// Appends `amount` as [`words::usd`] writes it.
    pub(crate) fn usd(&mut self, amount: f64) {
        self.0.extend_from_slice(words::usd_ascii(amount, &mut [0; words::USD_BYTES_MAX]));
    }
}

impl fmt::Write for Text {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push_str(text);
        Ok(())
    }
}
