//! The pieces `twin` copies instead of writing: each struct key quoted in both forms once
//! per thread ([`Keys`]), and whole hundredths' digits ([`hundredths`]), both as
//! fixed-size blocks ([`Padded`]).

use words::{eight_digits, needs_json_escape, push_json_escaped};

/// Most struct keys remembered, and most keys of one answer whose order is.
const KEYS_MAX: usize = 512;

/// The struct keys met before, each as `,"key":` in both forms, and the order the last
/// answer wrote them in: an answer of the same shape finds each key where the last one
/// was, by comparing two pointers, and copies its pieces instead of checking it for
/// escapes and quoting it (about 120 instructions a key). Struct keys are `&'static str`,
/// so what is remembered is bounded by the program, never by what is written.
#[derive(Default)]
pub(super) struct Keys {
    /// Each key met, with its pieces.
    pub(super) known: Vec<Known>,
    /// The last answer's keys in order, as indices into `known`.
    order: Vec<u16>,
}

pub(super) struct Known {
    key: &'static str,
    /// `,"key":` and `"key":`.
    pub(super) plain: [Padded<32>; 2],
    /// `,\"key\":` and `\"key\":`.
    pub(super) escaped: [Padded<32>; 2],
}

/// Up to `N` bytes to append, padded to `N`: appending copies all `N` (a copy of a known
/// size is a few moves) and cuts the padding off again, where a copy of a length known
/// only at run time is a call to `memcpy` (about 35 instructions with its checks).
#[derive(Clone, Copy)]
pub(crate) struct Padded<const N: usize> {
    bytes: [u8; N],
    pub(crate) len: usize,
}

impl<const N: usize> Padded<N> {
    /// `bytes`, if they fit.
    fn new(bytes: &[u8]) -> Option<Padded<N>> {
        let mut padded = [0; N];
        padded.get_mut(..bytes.len())?.copy_from_slice(bytes);
        Some(Padded { bytes: padded, len: bytes.len() })
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    pub(crate) fn push_to(&self, out: &mut Vec<u8>) {
        let end = out.len() + self.len;
        out.extend_from_slice(&self.bytes);
        out.truncate(end);
    }
}

impl Keys {
    /// The index in `known` of the `at`-th key of an answer, `key`: where the last answer
    /// had it, else found or added and remembered there. `None` for a key that needs an
    /// escape or is longer than 26 bytes (the answer then goes to serde_json), or when
    /// full. Inlined where the last answer had it; the rest is a call.
    #[inline]
    pub(super) fn find(&mut self, at: usize, key: &'static str) -> Option<usize> {
        match self.order.get(at) {
            Some(&index) if std::ptr::eq(self.known[usize::from(index)].key, key) => {
                Some(usize::from(index))
            }
            _ => self.find_new(at, key),
        }
    }

    /// [`Keys::find`] of a key not where the last answer had it.
    #[inline(never)]
    fn find_new(&mut self, at: usize, key: &'static str) -> Option<usize> {
        let index = match self.known.iter().position(|known| std::ptr::eq(known.key, key)) {
            Some(index) => index,
            None if self.known.len() < KEYS_MAX && !needs_json_escape(key) => {
                let plain = format!(",\"{key}\":").into_bytes();
                let mut escaped = Vec::with_capacity(plain.len() + 2);
                push_json_escaped(&mut escaped, &plain);
                let pieces = |bytes: &[u8]| Some([Padded::new(bytes)?, Padded::new(&bytes[1..])?]);
                let (plain, escaped) = (pieces(&plain)?, pieces(&escaped)?);
                self.known.push(Known { key, plain, escaped });
                self.known.len() - 1
            }
            None => return None,
        };
        self.order.truncate(at);
        if self.order.len() == at && at < KEYS_MAX {
            self.order.push(u16::try_from(index).expect("at most KEYS_MAX keys"));
        }
        Some(index)
    }
}

/// zmij's shortest digits of `value` when it is a whole number of hundredths from 0.01 to
/// 999,999.99 (cents, carats, ratios), written from that number: `12.5`, `3.0`,
/// `8543.21`, about a tenth of zmij's instructions. When the nearest whole number of
/// hundredths, divided by 100, is `value` again, its digits read back as `value`; an f64
/// of that size is far finer than 0.01, so no shorter digits do. `None` for any other
/// value.
pub(crate) fn hundredths(value: f64) -> Option<Padded<16>> {
    if !(0.01..1e6).contains(&value) {
        return None;
    }
    // The nearest whole number by a cast (`round` is a call); the check keeps it only if
    // it reads back as `value`.
    let scaled = (value * 100.0 + 0.5) as u32;
    if f64::from(scaled) / 100.0 != value {
        return None;
    }
    let digits = eight_digits(scaled);
    // The whole part's six digits but their leading zeros (one digit stays), the point
    // and both decimals, the second left out when it is 0: no loop, no buffer.
    let zeros = ((digits >> 16).leading_zeros() / 8 - 2).min(5) as usize;
    let ascii = digits | u64::from_ne_bytes([b'0'; 8]);
    let text =
        u128::from(ascii >> 16) << 80 | u128::from(b'.') << 72 | u128::from(ascii & 0xffff) << 56;
    let len = 8 - zeros + usize::from(digits & 0xff != 0);
    Some(Padded { bytes: (text << (8 * zeros)).to_be_bytes(), len })
}

/// `{:.4}`'s text of a number whose ten-thousandths, rounded, are `units` (below 10^8),
/// with a `-` when `negative`: `0.8500`, `-12.0625`.
pub(crate) fn ten_thousandths(units: u32, negative: bool) -> Padded<16> {
    let digits = eight_digits(units);
    let ascii = digits | u64::from_ne_bytes([b'0'; 8]);
    let text = u128::from(ascii >> 32) << 96
        | u128::from(b'.') << 88
        | u128::from(ascii & 0xffff_ffff) << 56;
    // The whole part's leading zeros but its last digit.
    let zeros = ((digits >> 32).leading_zeros() / 8 - 4).min(3) as usize;
    let text = text << (8 * zeros);
    let (text, sign) = if negative { (u128::from(b'-') << 120 | text >> 8, 1) } else { (text, 0) };
    Padded { bytes: text.to_be_bytes(), len: 9 - zeros + sign }
}
