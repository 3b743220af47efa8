//! The pieces `twin` and `text` copy instead of writing: whole hundredths' digits
//! ([`hundredths`]) and ten-thousandths ([`ten_thousandths`]), as fixed-size blocks
//! ([`Padded`]).

use words::eight_digits;

/// Up to `N` bytes to append, padded to `N`: appending copies all `N` (a copy of a known
/// size is a few moves) and cuts the padding off again, where a copy of a length known
/// only at run time is a call to `memcpy` (about 35 instructions with its checks).
#[derive(Clone, Copy)]
pub(crate) struct Padded<const N: usize> {
    bytes: [u8; N],
    pub(crate) len: usize,
}

impl<const N: usize> Padded<N> {
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    pub(crate) fn push_to(&self, out: &mut Vec<u8>) {
        let end = out.len() + self.len;
        out.extend_from_slice(&self.bytes);
        out.truncate(end);
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
