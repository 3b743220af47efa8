//! The `Cache-Control` lifetime: until the next expected refresh.

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
pub fn cache_control(ts: i64, now: i64) -> String {
    let left = ts.saturating_add(REFRESH_SECS).saturating_sub(now);
    format!("public, max-age={}", left.clamp(MIN_MAX_AGE, REFRESH_SECS))
}
