//! UTC timestamps as RFC 3339 text with a `Z`, e.g. `2026-11-21T10:00:00.123Z`: the date
//! and time of day are worked out once per second per thread, the fraction on every call.

use std::{
    cell::Cell,
    time::{SystemTime, UNIX_EPOCH},
};

/// Digits after the seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fraction {
    /// Three: milliseconds.
    Millis,
    /// Six: microseconds.
    Micros,
}

/// The last second before year 10000: four-digit years only.
const LAST_SECOND: u64 = 253_402_300_799;
/// `YYYY-MM-DDTHH:MM:SS`.
const WHOLE: usize = 19;

/// A timestamp's text, [`utc`]'s answer.
#[derive(Debug, Clone, Copy)]
pub struct UtcText {
    bytes: [u8; WHOLE + 8],
    len: usize,
}

impl UtcText {
    /// The text, e.g. `2026-11-21T10:00:00.123456Z`.
    pub fn as_str(&self) -> &str {
        // Digits, `-`, `:`, `T`, `.` and `Z` only.
        std::str::from_utf8(self.as_bytes()).expect("a timestamp is ASCII")
    }

    /// The text's bytes (ASCII).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// `now` as UTC text, truncated to `fraction`; `None` before 1970 or after 9999, which a
/// caller writes another way.
#[inline]
pub fn utc(now: SystemTime, fraction: Fraction) -> Option<UtcText> {
    thread_local! {
        /// The last whole second written (seconds since the epoch), and its text.
        static SECOND: Cell<(u64, [u8; WHOLE])> = const { Cell::new((u64::MAX, [0; WHOLE])) };
    }
    let since_epoch = now.duration_since(UNIX_EPOCH).ok()?;
    let seconds = since_epoch.as_secs();
    if seconds > LAST_SECOND {
        return None;
    }
    let (cached, mut whole) = SECOND.get();
    if cached != seconds {
        whole = date_time(seconds);
        SECOND.set((seconds, whole));
    }
    let mut bytes = [0; WHOLE + 8];
    bytes[..WHOLE].copy_from_slice(&whole);
    bytes[WHOLE] = b'.';
    let digits = match fraction {
        Fraction::Millis => {
            put_digits(&mut bytes[WHOLE + 1..WHOLE + 4], since_epoch.subsec_millis())
        }
        Fraction::Micros => {
            put_digits(&mut bytes[WHOLE + 1..WHOLE + 7], since_epoch.subsec_micros())
        }
    };
    bytes[WHOLE + 1 + digits] = b'Z';
    Some(UtcText { bytes, len: WHOLE + 2 + digits })
}

/// Writes `value`'s last `slots.len()` decimal digits into `slots`; returns how many.
#[inline(always)]
fn put_digits(slots: &mut [u8], value: impl Into<u64>) -> usize {
    let mut value = value.into();
    for slot in slots.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        value /= 10;
    }
    slots.len()
}

/// `YYYY-MM-DDTHH:MM:SS` of a second since the epoch (at most [`LAST_SECOND`]).
fn date_time(seconds: u64) -> [u8; WHOLE] {
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_date(days);
    let mut text = *b"0000-00-00T00:00:00";
    put_digits(&mut text[0..4], year);
    put_digits(&mut text[5..7], month);
    put_digits(&mut text[8..10], day);
    put_digits(&mut text[11..13], of_day / 3600);
    put_digits(&mut text[14..16], of_day / 60 % 60);
    put_digits(&mut text[17..19], of_day % 60);
    text
}

/// Year, month and day of a day since 1970-01-01, in the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`, for days on or after the epoch).
fn civil_date(days: u64) -> (u64, u64, u64) {
    // Days since 0000-03-01, so that a leap day ends its year.
    let days = days + 719_468;
    let era = days / 146_097;
    let of_era = days % 146_097;
    let year_of_era = (of_era - of_era / 1460 + of_era / 36_524 - of_era / 146_096) / 365;
    let day_of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests;
