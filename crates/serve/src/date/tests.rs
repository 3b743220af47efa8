//! Unit tests for `crate::date`: known dates, the three formats, rejections, and
//! round-trip properties.

use proptest::prelude::*;

use crate::date::{MAX_UNIX, MIN_UNIX, civil_from_days, days_from_civil};
use crate::{http_date, parse_http_date};

#[track_caller]
fn check(unix: i64, text: &str) {
    assert_eq!(http_date(unix), text, "formatting {unix}");
    assert_eq!(parse_http_date(text), Some(unix), "parsing {text:?}");
}

#[test]
fn known_dates() {
    check(784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT");
    check(0, "Thu, 01 Jan 1970 00:00:00 GMT");
    check(-1, "Wed, 31 Dec 1969 23:59:59 GMT");
    check(951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT");
    check(1_709_164_800, "Thu, 29 Feb 2024 00:00:00 GMT");
    check(4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT");
    check(MIN_UNIX, "Sat, 01 Jan 0000 00:00:00 GMT");
    check(MAX_UNIX, "Fri, 31 Dec 9999 23:59:59 GMT");
}

#[test]
fn out_of_range_is_clamped() {
    assert_eq!(http_date(i64::MIN), http_date(MIN_UNIX));
    assert_eq!(http_date(i64::MAX), http_date(MAX_UNIX));
}

#[test]
fn obsolete_formats() {
    let expected = Some(784_111_777);
    assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), expected);
    assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994"), expected);
    assert_eq!(parse_http_date("Sun Nov 06 08:49:37 1994"), expected);
    assert_eq!(parse_http_date("  Sun, 06 Nov 1994 08:49:37 GMT "), expected);
    assert_eq!(parse_http_date("Thursday, 01-Jan-30 00:00:00 GMT"), Some(1_893_456_000));
}

#[test]
fn rejects_malformed() {
    for text in [
        "",
        "yesterday",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 31 Apr 1994 08:49:37 GMT",
        "Sun, 29 Feb 1900 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49 GMT",
        "Sun, 06 Nov 1994 08:49:37:00 GMT",
        "Sun, 06 Nov +994 08:49:37 GMT",
        "Sun, ０6 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sun Nov  6 08:49:37 94",
    ] {
        assert_eq!(parse_http_date(text), None, "{text:?}");
    }
}

#[test]
fn leap_second_is_accepted() {
    assert_eq!(parse_http_date("Sat, 31 Dec 2016 23:59:60 GMT"), Some(1_483_228_800));
}

proptest! {
    #[test]
    fn format_then_parse_round_trips(unix in MIN_UNIX..=MAX_UNIX) {
        let text = http_date(unix);
        prop_assert_eq!(text.len(), 29);
        prop_assert_eq!(parse_http_date(&text), Some(unix));
    }

    #[test]
    fn civil_round_trips(days in -800_000i64..=3_000_000) {
        let (year, month, day) = civil_from_days(days);
        prop_assert!((1..=12).contains(&month) && (1..=31).contains(&day));
        prop_assert_eq!(days_from_civil(year, month, day), days);
    }

    #[test]
    fn parse_never_panics(text in "\\PC{0,40}") {
        let _ = parse_http_date(&text);
    }
}
