//! Unit tests for `crate::cache`: the max-age rule and its clamps.

use crate::cache_control;

const TS: i64 = 1_795_132_800; // 2026-11-20T00:00:00Z

#[track_caller]
fn check(now: i64, expect: &str) {
    assert_eq!(cache_control(TS, now), expect);
}

#[test]
fn counts_down_to_the_next_refresh() {
    check(TS, "public, max-age=86400");
    check(TS + 3600, "public, max-age=82800");
    check(TS + 86_400 - 61, "public, max-age=61");
}

#[test]
fn overdue_snapshot_gets_the_minimum() {
    check(TS + 86_400 - 10, "public, max-age=60");
    check(TS + 10 * 86_400, "public, max-age=60");
}

#[test]
fn clock_behind_the_snapshot_gets_at_most_a_day() {
    check(TS - 3600, "public, max-age=86400");
    assert_eq!(cache_control(i64::MAX, i64::MIN), "public, max-age=86400");
    assert_eq!(cache_control(i64::MIN, i64::MAX), "public, max-age=60");
}

#[test]
fn at_an_instant_counts_whole_seconds() {
    use std::time::{Duration, UNIX_EPOCH};

    use crate::cache::cache_control_at;

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
