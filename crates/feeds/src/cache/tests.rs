//! Unit tests for `crate::cache`: the max-age rule and its clamps.

use std::time::{Duration, UNIX_EPOCH};

use crate::{cache::cache_control_at, cache_control};

const TS: i64 = 1_795_132_800; // 2026-11-20T00:00:00Z

/// Counts down to the next refresh; an overdue snapshot gets the minimum, a clock behind
/// the snapshot at most a day.
#[test]
fn max_age_counts_down_to_the_next_refresh_within_its_clamps() {
    for (ts, now, expect) in [
        (TS, TS, "public, max-age=86400"),
        (TS, TS + 3600, "public, max-age=82800"),
        (TS, TS + 86_400 - 61, "public, max-age=61"),
        (TS, TS + 86_400 - 10, "public, max-age=60"),
        (TS, TS + 10 * 86_400, "public, max-age=60"),
        (TS, TS - 3600, "public, max-age=86400"),
        (i64::MAX, i64::MIN, "public, max-age=86400"),
        (i64::MIN, i64::MAX, "public, max-age=60"),
    ] {
        assert_eq!(cache_control(ts, now), expect, "ts {ts}, now {now}");
    }
}

#[test]
fn at_an_instant_counts_whole_seconds() {
    let at = |seconds: i64, millis: u64| {
        UNIX_EPOCH + Duration::from_secs(seconds as u64) + Duration::from_millis(millis)
    };
    assert_eq!(cache_control_at(TS, at(TS + 3600, 0)), "public, max-age=82800");
    assert_eq!(cache_control_at(TS, at(TS + 3600, 999)), "public, max-age=82800");
    assert_eq!(cache_control_at(TS, at(TS + 3601, 0)), "public, max-age=82799");
    assert_eq!(cache_control_at(TS, at(TS + 3600, 500)), "public, max-age=82800");
    assert_eq!(cache_control_at(TS + 1, at(TS + 3600, 500)), "public, max-age=82801");
    assert_eq!(cache_control_at(TS, UNIX_EPOCH - Duration::from_secs(1)), "public, max-age=86400");
}
