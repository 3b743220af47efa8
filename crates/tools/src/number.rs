//! Number formatting for tool texts, links and structured JSON: the very characters `{}`,
//! `{:.N}` and serde_json write for an `f64`, by faster routes. Most numbers here are
//! short decimals (carats, ratios, cents), written from integers; other values go to
//! zmij where it provably writes the same digits, and to the standard formatter
//! elsewhere.

use std::{
    fmt,
    io::{self, Write as _},
};

#[cfg(test)]
mod tests;

/// Magnitudes where zmij writes the digits `{}` writes, without an exponent. Above
/// about 1e7, where 17 digits can be needed, zmij sometimes picks another last digit
/// (seen in a sweep of 60 million values; none below 7e7); tiny values get an exponent.
const SHORTEST_RANGE: std::ops::Range<f64> = 1e-4..1e6;

/// A number that is the nearest `f64` to a decimal with at most four fraction digits, as
/// that decimal: its sign, whole part and fraction digits.
///
/// Below 1e6 an `f64` is spaced far closer than 1e-4, so no other decimal with as few
/// digits reads back as the same number: these digits are the shortest ones, the digits
/// `{}`, zmij and serde_json write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ShortDecimal {
    negative: bool,
    whole: u64,
    /// The fraction digits without trailing zeros, and how many there are (0 to 4).
    fraction: u64,
    fraction_digits: u32,
}

impl ShortDecimal {
    fn of(value: f64) -> Option<ShortDecimal> {
        let magnitude = value.abs();
        // NaN and the infinities are outside too.
        if !matches!(magnitude.partial_cmp(&1e6), Some(std::cmp::Ordering::Less)) {
            return None;
        }
        // The nearest number of ten-thousandths (below 1e10, so exact as an integer and
        // as an f64). Division is correctly rounded: equality means `value` is the
        // nearest f64 to that decimal. A decimal with fewer digits is the same decimal
        // with trailing zeros, so this one test covers 0 to 4 fraction digits.
        let units = (magnitude * 10_000.0 + 0.5) as u64;
        if units as f64 / 10_000.0 != magnitude {
            return None;
        }
        let (mut fraction, mut fraction_digits) = (units % 10_000, 4);
        while fraction_digits > 0 && fraction % 10 == 0 {
            fraction /= 10;
            fraction_digits -= 1;
        }
        Some(ShortDecimal {
            negative: value.is_sign_negative(),
            whole: units / 10_000,
            fraction,
            fraction_digits,
        })
    }

    /// Writes the decimal (ASCII); `point_zero` writes `.0` after a whole number, as
    /// serde_json does.
    fn write_to<W: ?Sized + io::Write>(self, out: &mut W, point_zero: bool) -> io::Result<()> {
        let mut text = StackText::default();
        if self.negative {
            text.push(b"-");
        }
        text.digits(self.whole, 1);
        if self.fraction_digits > 0 {
            text.push(b".");
            text.digits(self.fraction, self.fraction_digits);
        } else if point_zero {
            text.push(b".0");
        }
        out.write_all(text.as_bytes())
    }
}

/// ASCII assembled on the stack and then appended to an output in one copy: a number
/// written piece by piece straight into a `Vec` costs a capacity check and a copy call
/// per piece, and numbers are most of what a quote writes.
pub(crate) struct StackText {
    bytes: [u8; 48],
    len: usize,
}

impl Default for StackText {
    fn default() -> StackText {
        StackText { bytes: [0; 48], len: 0 }
    }
}

impl StackText {
    /// Appends `bytes`; the callers write numbers, which never come near the capacity.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// Appends the decimal digits of `value` (by itoa), zero-padded to at least `width`
    /// of them (at most 20).
    pub(crate) fn digits(&mut self, value: u64, width: u32) {
        const ZEROS: [u8; 20] = [b'0'; 20];
        let mut buffer = itoa::Buffer::new();
        let digits = buffer.format(value).as_bytes();
        let padding = (width as usize).min(ZEROS.len()).saturating_sub(digits.len());
        self.push(&ZEROS[..padding]);
        self.push(digits);
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// An `f64` as `{}` writes it: the shortest digits that read back as the same number, no
/// exponent (`1.35`, `1`, `0.0001`, `-0`, `NaN`, `inf`). Width and precision flags are
/// ignored.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decimal(pub(crate) f64);

impl Piece for Decimal {
    fn put(&self, out: &mut Vec<u8>) {
        if let Some(short) = ShortDecimal::of(self.0) {
            // Writing to a `Vec` cannot fail.
            let _ = short.write_to(out, false);
        } else if SHORTEST_RANGE.contains(&self.0.abs()) {
            let mut buffer = zmij::Buffer::new();
            let text = buffer.format_finite(self.0);
            // zmij writes `1.0` for 1; `{}` writes `1`.
            out.extend_from_slice(text.strip_suffix(".0").unwrap_or(text).as_bytes());
        } else {
            // Writing to a `Vec` cannot fail.
            let _ = write!(out, "{}", self.0);
        }
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self, f)
    }
}

/// serde_json's compact output with short decimals written from integers: the same
/// bytes as [`serde_json::ser::CompactFormatter`], sooner.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JsonNumbers;

impl JsonNumbers {
    /// Appends `value` as serde_json writes an `f64`: `null` when it is not finite.
    pub(crate) fn write_f64_to(out: &mut Vec<u8>, value: f64) {
        use serde_json::ser::Formatter as _;
        // Writing to a `Vec` cannot fail.
        let _ = if value.is_finite() {
            JsonNumbers.write_f64(out, value)
        } else {
            JsonNumbers.write_null(out)
        };
    }
}

impl serde_json::ser::Formatter for JsonNumbers {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        match ShortDecimal::of(value) {
            Some(short) => short.write_to(writer, true),
            None => serde_json::ser::CompactFormatter.write_f64(writer, value),
        }
    }
}

/// `value` as compact JSON, numbers written by [`JsonNumbers`].
pub(crate) fn to_json(value: &impl serde::Serialize) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(1024);
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, JsonNumbers))?;
    // serde_json writes UTF-8 only.
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// An `f64` as `{:.N}` writes it, for `N` up to 8: rounded to `N` decimals, every
/// decimal written, a `-` for every negative number (even one that rounds to zero).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed {
    value: f64,
    decimals: u32,
}

/// `value` with `decimals` decimals (at most 8).
pub(crate) fn fixed(value: f64, decimals: u32) -> Fixed {
    Fixed { value, decimals: decimals.min(8) }
}

/// Scaled magnitudes below this are exact to better than 1e-7 after one multiplication,
/// far inside [`TIE_MARGIN`].
const SCALED_LIMIT: f64 = 1e9;
/// A scaled value whose fraction is this close to one half may round either way in exact
/// arithmetic: the standard formatter decides.
const TIE_MARGIN: f64 = 1e-6;

impl Piece for Fixed {
    fn put(&self, out: &mut Vec<u8>) {
        let scale = 10u64.pow(self.decimals);
        let scaled = self.value.abs() * scale as f64;
        let fraction = scaled - scaled.floor();
        let exact_enough = scaled < SCALED_LIMIT; // false for NaN and infinities
        if !exact_enough || (fraction - 0.5).abs() <= TIE_MARGIN {
            // Writing to a `Vec` cannot fail.
            let _ = write!(out, "{:.*}", self.decimals as usize, self.value);
            return;
        }
        // Below the limit the scaled value fits a u64 exactly.
        let units = scaled.floor() as u64 + u64::from(fraction > 0.5);
        let mut text = StackText::default();
        if self.value.is_sign_negative() {
            text.push(b"-");
        }
        text.digits(units / scale, 1);
        if self.decimals > 0 {
            text.push(b".");
            text.digits(units % scale, self.decimals);
        }
        out.extend_from_slice(text.as_bytes());
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self, f)
    }
}

/// Something a text line is made of, appended as UTF-8 bytes without the formatting
/// machinery (whose argument handling costs more than these numbers do to write) and
/// without a UTF-8 check per number: text is built as bytes and checked once, in
/// [`into_text`].
pub(crate) trait Piece {
    /// Appends the piece: UTF-8 (text pieces) or ASCII (numbers).
    fn put(&self, out: &mut Vec<u8>);
}

impl Piece for &str {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
}

/// Appends `pieces` to `out`.
pub(crate) fn push(out: &mut Vec<u8>, pieces: &[&dyn Piece]) {
    for piece in pieces {
        piece.put(out);
    }
}

/// Text built from pieces, which write only UTF-8.
pub(crate) fn into_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

/// `Display` for a piece, through a small buffer (off the hot path).
pub(crate) fn display(piece: &dyn Piece, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut bytes = Vec::with_capacity(32);
    piece.put(&mut bytes);
    f.write_str(&String::from_utf8_lossy(&bytes))
}
