//! US dollars for people: rounded to cents (half away from zero, as
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
    let cents = (amount * 100.0).round() as i64;
    push_dollars(out, cents < 0, cents.unsigned_abs() / 100);
    let frac = cents.unsigned_abs() % 100;
    out.push('.');
    out.push(char::from(b'0' + (frac / 10) as u8));
    out.push(char::from(b'0' + (frac % 10) as u8));
}

/// `amount` rounded to whole dollars (half away from zero): `$12,346`, `-$5`.
pub fn usd_whole(amount: f64) -> String {
    let mut out = String::with_capacity(16);
    let whole = amount.round() as i64;
    push_dollars(&mut out, whole < 0, whole.unsigned_abs());
    out
}

/// `$` (after `-` when `negative`) and `whole` with a comma before every third digit.
fn push_dollars(out: &mut String, negative: bool, whole: u64) {
    out.push_str(if negative { "-$" } else { "$" });
    // The digits right to left, a comma before every third.
    let mut digits = [0u8; 32];
    let (mut at, mut rest, mut count) = (digits.len(), whole, 0);
    loop {
        if count > 0 && count % 3 == 0 {
            at -= 1;
            digits[at] = b',';
        }
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        (rest, count) = (rest / 10, count + 1);
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&digit| char::from(digit)));
}
