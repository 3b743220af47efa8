//! The `Cache-Control` lifetime: until the next expected refresh.

use std::{
    cell::RefCell,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use hyper::header::HeaderValue;

use crate::REFRESH_SECS;

#[cfg(test)]
mod tests;

/// Shortest lifetime sent, so that a late snapshot does not make every poll a miss.
pub const MIN_MAX_AGE: i64 = 60;

/// `public, max-age=N` for data published at `ts` (unix seconds) and served at `now`.
///
/// N is the time left until the next snapshot is expected (`ts` + 24 h − `now`),
/// clamped to 60 s .. 24 h: a snapshot that is overdue is cached for a minute at a
/// time, and a clock that runs behind never yields more than a day.
pub fn cache_control(ts: i64, now: i64) -> HeaderValue {
    header_value(max_age(ts, now))
}

fn max_age(ts: i64, now: i64) -> i64 {
    ts.saturating_add(REFRESH_SECS).saturating_sub(now).clamp(MIN_MAX_AGE, REFRESH_SECS)
}

fn header_value(max_age: i64) -> HeaderValue {
    HeaderValue::try_from(format!("public, max-age={max_age}"))
        .unwrap_or(HeaderValue::from_static("no-cache"))
}

/// The second a thread last answered in, with the value [`cache_control_at`] gave then.
struct Second {
    /// The snapshot's `ts` the value is for.
    ts: i64,
    /// The second's start.
    from: SystemTime,
    /// The next second's start.
    until: SystemTime,
    /// The value's max-age (0: none yet).
    max_age: i64,
    value: HeaderValue,
}

thread_local! {
    /// The value of the second this thread last answered in (none at first).
    static SECOND: RefCell<Second> = const {
        RefCell::new(Second {
            ts: 0,
            from: UNIX_EPOCH,
            until: UNIX_EPOCH,
            max_age: 0,
            value: HeaderValue::from_static("public, max-age=0"),
        })
    };
}

/// [`cache_control`] at the instant `now`, made once per thread and second: within the
/// second of the last answer only two comparisons of instants; in a new second the value
/// is written again only when its max-age moved (not while it is clamped).
pub(crate) fn cache_control_at(ts: i64, now: SystemTime) -> HeaderValue {
    SECOND.with_borrow_mut(|second| {
        if second.ts != ts || now < second.from || now >= second.until {
            let seconds = unix_seconds(now);
            let max_age = max_age(ts, seconds);
            if max_age != second.max_age {
                second.value = header_value(max_age);
                second.max_age = max_age;
            }
            second.ts = ts;
            second.from = UNIX_EPOCH + Duration::from_secs(seconds.unsigned_abs());
            second.until = second.from + Duration::from_secs(1);
        }
        second.value.clone()
    })
}

/// Seconds since 1970 (0 before, which no clock of ours shows).
fn unix_seconds(now: SystemTime) -> i64 {
    let since = now.duration_since(UNIX_EPOCH);
    since.map_or(0, |elapsed| i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX))
}
