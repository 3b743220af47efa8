//! The `Cache-Control` lifetime: until the next expected refresh.

use std::cell::RefCell;

use hyper::header::HeaderValue;

use crate::REFRESH_SECS;

#[cfg(test)]
mod tests;

/// Shortest lifetime sent, so that a late snapshot does not make every poll a miss.
pub const MIN_MAX_AGE: i64 = 60;

thread_local! {
    /// The last value this thread made, with its max-age (none is 0): it changes once a
    /// second.
    static LAST: RefCell<(i64, HeaderValue)> =
        const { RefCell::new((0, HeaderValue::from_static("public, max-age=0"))) };
}

/// `public, max-age=N` for data published at `ts` (unix seconds) and served at `now`.
///
/// N is the time left until the next snapshot is expected (`ts` + 24 h − `now`),
/// clamped to 60 s .. 24 h: a snapshot that is overdue is cached for a minute at a
/// time, and a clock that runs behind never yields more than a day.
pub fn cache_control(ts: i64, now: i64) -> HeaderValue {
    let left = ts.saturating_add(REFRESH_SECS).saturating_sub(now);
    let max_age = left.clamp(MIN_MAX_AGE, REFRESH_SECS);
    LAST.with_borrow_mut(|(last_age, value)| {
        if *last_age != max_age {
            let text = format!("public, max-age={max_age}");
            *value = HeaderValue::try_from(text).unwrap_or(HeaderValue::from_static("no-cache"));
            *last_age = max_age;
        }
        value.clone()
    })
}
