//! US dollars and counts for people: dollars rounded to cents (half away from zero, as
//! `pricing::round_cents`), a comma every three digits, a minus before the sign.

#[cfg(test)]
mod tests;

/// `amount` in dollars and cents: `$12,345.60`, `-$5.00`; `$0.00` for what rounds to zero.
pub fn usd(amount: f64) -> String {
    let mut out = String::with_capacity(16);
    push_usd(&mut out, amount);
    out
}

/// Appends `amount` as [`usd`] formats it.
pub fn push_usd(out: &mut String, amount: f64) {
    push_ascii(out, usd_ascii(amount, &mut [0; USD_BYTES_MAX]));
}

/// The most bytes [`usd`] writes.
pub const USD_BYTES_MAX: usize = 32;

/// [`usd`]'s text as ASCII bytes, written into `buffer`: for writers that append bytes.
#[inline(always)]
pub fn usd_ascii(amount: f64, buffer: &mut [u8; USD_BYTES_MAX]) -> &[u8] {
    let rounded = (amount * 100.0).round();
    if (0.0..1e8).contains(&rounded) {
        return under_a_million(rounded as u32, buffer);
    }
    digit_by_digit(rounded as i64, buffer)
}

/// [`usd_ascii`] of any whole number of cents, its digits written one at a time.
fn digit_by_digit(cents: i64, buffer: &mut [u8; USD_BYTES_MAX]) -> &[u8] {
    let frac = cents.unsigned_abs() % 100;
    let at = buffer.len() - 3;
    buffer[at..].copy_from_slice(&[b'.', b'0' + (frac / 10) as u8, b'0' + (frac % 10) as u8]);
    let at = dollars(&mut buffer[..at], cents < 0, cents.unsigned_abs() / 100);
    &buffer[at..]
}

/// [`usd_ascii`] of 0 to 99,999,999 cents, from their [`eight_digits`] at once: `$7,217.06`,
/// `$0.50`, no loop over digits (a third of the instructions of writing them one by one).
fn under_a_million(cents: u32, buffer: &mut [u8; USD_BYTES_MAX]) -> &[u8] {
    let digits = eight_digits(cents);
    let ascii = digits | u64::from_ne_bytes([b'0'; 8]);
    // `ddd,ddd.cc` at the top, less the whole dollars' leading zeros (and the comma
    // under $1,000; one digit stays), then `$` before it.
    let text = u128::from(ascii >> 40) << 104
        | u128::from(b',') << 96
        | u128::from((ascii >> 16) & 0xff_ffff) << 72
        | u128::from(b'.') << 64
        | u128::from(ascii & 0xffff) << 48;
    let zeros = ((digits >> 16).leading_zeros() / 8 - 2) as usize;
    let skip = if zeros < 3 { zeros } else { 4 + (zeros - 3).min(2) };
    let text = u128::from(b'$') << 120 | (text << (8 * skip)) >> 8;
    buffer[..16].copy_from_slice(&text.to_be_bytes());
    &buffer[..11 - skip]
}

/// The eight decimal digits of `n` (below 10^8) as byte values 0 to 9, the first in the
/// highest byte: three rounds of one multiplication each, every round splitting each lane
/// of digits in two (n / 10^4 and n % 10^4, then by 100, then by 10). OR-ing
/// `u64::from_ne_bytes([b'0'; 8])` makes them ASCII.
pub fn eight_digits(n: u32) -> u64 {
    let n = u64::from(n);
    let halves = n + ((1 << 32) - 10_000) * ((n * 0xd1b7_1759) >> 45);
    let quarters = halves + ((1 << 16) - 100) * (((halves * 0x147b) >> 19) & 0x7f_0000_007f);
    quarters + ((1 << 8) - 10) * (((quarters * 0x67) >> 10) & 0x000f_000f_000f_000f)
}

/// `value`'s digits, as `{}` and serde_json write them, at the end of `buffer`.
pub fn integer_digits(value: u64, buffer: &mut [u8; 20]) -> &[u8] {
    let (mut at, mut rest) = (buffer.len(), value);
    loop {
        at -= 1;
        buffer[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    &buffer[at..]
}

/// `amount` rounded to whole dollars (half away from zero): `$12,346`, `-$5`.
pub fn usd_whole(amount: f64) -> String {
    let mut out = String::with_capacity(16);
    let whole = amount.round() as i64;
    let mut text = [0u8; USD_BYTES_MAX];
    let at = dollars(&mut text, whole < 0, whole.unsigned_abs());
    push_ascii(&mut out, &text[at..]);
    out
}

/// `n` with a comma before every third digit from the right: `12,345`.
pub fn grouped(n: u64) -> String {
    let mut out = String::with_capacity(26);
    let mut text = [0u8; USD_BYTES_MAX];
    let at = grouped_digits(&mut text, n);
    push_ascii(&mut out, &text[at..]);
    out
}

/// Writes `$` (after `-` when `negative`) and `whole` [`grouped`] at the end of `text`,
/// right to left; returns where it starts.
fn dollars(text: &mut [u8], negative: bool, whole: u64) -> usize {
    let mut at = grouped_digits(text, whole);
    at -= 1;
    text[at] = b'$';
    if negative {
        at -= 1;
        text[at] = b'-';
    }
    at
}

/// Writes `whole` with a comma before every third digit at the end of `text`, right to
/// left; returns where it starts.
fn grouped_digits(text: &mut [u8], whole: u64) -> usize {
    let (mut at, mut rest, mut count) = (text.len(), whole, 0);
    loop {
        if count > 0 && count % 3 == 0 {
            at -= 1;
            text[at] = b',';
        }
        at -= 1;
        text[at] = b'0' + (rest % 10) as u8;
        (rest, count) = (rest / 10, count + 1);
        if rest == 0 {
            break;
        }
    }
    at
}

/// Appends ASCII `text` in one copy (a `char` at a time costs several times as much).
fn push_ascii(out: &mut String, text: &[u8]) {
    out.push_str(std::str::from_utf8(text).expect("ASCII"));
}
