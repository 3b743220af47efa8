//! HTTP dates (RFC 9110 section 5.6.7), converted by hand from and to unix seconds.
//!
//! The calendar maths is Howard Hinnant's days-from-civil algorithm on the proleptic
//! Gregorian calendar, so no date crate is needed.

#[cfg(test)]
mod tests;

const DAY_NAMES: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAY_NAMES: [&str; 7] =
    ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const SECONDS_PER_DAY: i64 = 86_400;

/// Earliest instant an IMF-fixdate can show: 0000-01-01T00:00:00Z.
pub(crate) const MIN_UNIX: i64 = -62_167_219_200;
/// Latest instant an IMF-fixdate can show: 9999-12-31T23:59:59Z.
pub(crate) const MAX_UNIX: i64 = 253_402_300_799;

/// Formats unix seconds as an IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
///
/// Instants outside years 0000 to 9999 are clamped to that range, since the format has
/// exactly four year digits.
pub fn http_date(unix_seconds: i64) -> String {
    let seconds = unix_seconds.clamp(MIN_UNIX, MAX_UNIX);
    let days = seconds.div_euclid(SECONDS_PER_DAY);
    let of_day = seconds.rem_euclid(SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    // 1970-01-01 was a Thursday.
    let weekday = DAY_NAMES[usize::try_from((days + 4).rem_euclid(7)).unwrap_or(0)];
    let month = MONTHS[usize::try_from(month - 1).unwrap_or(0)];
    let (hour, minute, second) = (of_day / 3600, of_day / 60 % 60, of_day % 60);
    format!("{weekday}, {day:02} {month} {year:04} {hour:02}:{minute:02}:{second:02} GMT")
}

/// Parses an HTTP-date into unix seconds.
///
/// Accepts the IMF-fixdate every sender must use, and, as RFC 9110 asks of recipients,
/// the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`) forms. A two-digit RFC 850 year below 70 is read as
/// 20xx, otherwise 19xx. The day name is checked for spelling but not against the date.
pub fn parse_http_date(text: &str) -> Option<i64> {
    let text = text.trim();
    imf_fixdate(text).or_else(|| rfc850(text)).or_else(|| asctime(text))
}

/// `Sun, 06 Nov 1994 08:49:37 GMT`
fn imf_fixdate(text: &str) -> Option<i64> {
    let (name, rest) = text.split_once(", ")?;
    if !DAY_NAMES.contains(&name) {
        return None;
    }
    let mut parts = rest.split(' ');
    let day = digits(parts.next()?, 2)?;
    let month = month(parts.next()?)?;
    let year = digits(parts.next()?, 4)?;
    let time = parts.next()?;
    if parts.next()? != "GMT" || parts.next().is_some() {
        return None;
    }
    to_unix(i64::from(year), month, day, time)
}

/// `Sunday, 06-Nov-94 08:49:37 GMT`
fn rfc850(text: &str) -> Option<i64> {
    let (name, rest) = text.split_once(", ")?;
    if !LONG_DAY_NAMES.contains(&name) {
        return None;
    }
    let mut parts = rest.split(' ');
    let mut date = parts.next()?.split('-');
    let time = parts.next()?;
    if parts.next()? != "GMT" || parts.next().is_some() {
        return None;
    }
    let day = digits(date.next()?, 2)?;
    let month = month(date.next()?)?;
    let year = digits(date.next()?, 2)?;
    if date.next().is_some() {
        return None;
    }
    let year = if year < 70 { 2000 + year } else { 1900 + year };
    to_unix(i64::from(year), month, day, time)
}

/// `Sun Nov  6 08:49:37 1994`
fn asctime(text: &str) -> Option<i64> {
    let mut parts = text.split_ascii_whitespace();
    if !DAY_NAMES.contains(&parts.next()?) {
        return None;
    }
    let month = month(parts.next()?)?;
    let day = parts.next()?;
    let day = digits(day, 1).or_else(|| digits(day, 2))?;
    let time = parts.next()?;
    let year = digits(parts.next()?, 4)?;
    if parts.next().is_some() {
        return None;
    }
    to_unix(i64::from(year), month, day, time)
}

/// Exactly `len` ASCII digits.
fn digits(text: &str, len: usize) -> Option<u32> {
    if text.len() != len || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A three-letter month name, case-sensitive as the grammar says, to 1..=12.
fn month(text: &str) -> Option<u32> {
    let index = MONTHS.iter().position(|name| *name == text)?;
    u32::try_from(index + 1).ok()
}

/// Validates the fields and converts; `time` is `hh:mm:ss` (second 60 allowed).
fn to_unix(year: i64, month: u32, day: u32, time: &str) -> Option<i64> {
    let mut hms = time.split(':');
    let hour = digits(hms.next()?, 2)?;
    let minute = digits(hms.next()?, 2)?;
    let second = digits(hms.next()?, 2)?;
    if hms.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    if day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(days * SECONDS_PER_DAY + i64::from(hour * 3600 + minute * 60 + second))
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (`month` in 1..=12).
pub(crate) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let month_from_march = i64::from((month + 9) % 12);
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`]: `(year, month, day)`.
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are small by construction: month in 1..=12, day in 1..=31.
    (year, u32::try_from(month).unwrap_or(1), u32::try_from(day).unwrap_or(1))
}
