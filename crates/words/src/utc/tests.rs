//! The timestamp text against chrono's RFC 3339, at the calendar's edges and anywhere.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, SecondsFormat, Utc};
use proptest::prelude::*;

use super::{Fraction, LAST_SECOND, utc};

fn at(seconds: u64, nanos: u32) -> SystemTime {
    UNIX_EPOCH + Duration::new(seconds, nanos)
}

fn chrono_text(time: SystemTime, fraction: Fraction) -> String {
    let format = match fraction {
        Fraction::Millis => SecondsFormat::Millis,
        Fraction::Micros => SecondsFormat::Micros,
    };
    DateTime::<Utc>::from(time).to_rfc3339_opts(format, true)
}

fn assert_as_chrono(time: SystemTime) {
    for fraction in [Fraction::Millis, Fraction::Micros] {
        let text = utc(time, fraction).expect("within 1970 to 9999");
        assert_eq!(text.as_str(), chrono_text(time, fraction), "{time:?}");
    }
}

#[test]
fn edges_of_the_calendar_read_as_chrono_writes_them() {
    for text in [
        "1970-01-01T00:00:00Z",
        "1972-02-29T23:59:59Z",
        "1999-12-31T23:59:59Z",
        "2000-02-29T12:00:00Z",
        "2000-03-01T00:00:00Z",
        "2100-02-28T23:59:59Z",
        "2100-03-01T00:00:00Z",
        "2026-11-21T10:00:00Z",
        "9999-12-31T23:59:59Z",
    ] {
        let seconds = DateTime::parse_from_rfc3339(text).unwrap().timestamp() as u64;
        for nanos in [0, 1_000, 999_999, 123_456_789, 999_999_999] {
            assert_as_chrono(at(seconds, nanos));
        }
    }
    assert_eq!(
        utc(at(LAST_SECOND, 999_999_999), Fraction::Micros).unwrap().as_str(),
        "9999-12-31T23:59:59.999999Z"
    );
    assert!(utc(at(LAST_SECOND + 1, 0), Fraction::Millis).is_none(), "year 10000");
    assert!(utc(UNIX_EPOCH - Duration::from_nanos(1), Fraction::Millis).is_none(), "before 1970");
}

/// The second kept by the thread is the one asked for, whatever was asked before.
#[test]
fn the_kept_second_follows_the_clock_both_ways() {
    for seconds in [1_800_000_000, 1_800_000_000, 1_799_999_999, 1_800_000_001, 0, 1_800_000_000] {
        assert_as_chrono(at(seconds, 5_000_000));
    }
}

proptest! {
    #[test]
    fn any_instant_reads_as_chrono_writes_it(seconds in 0..=LAST_SECOND, nanos in 0..1_000_000_000u32) {
        assert_as_chrono(at(seconds, nanos));
    }
}
