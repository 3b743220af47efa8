//! Tests of `_meta.timestamp`.

use chrono::TimeZone as _;

use super::timestamp;

#[test]
fn timestamps_have_milliseconds_and_z() {
    let now = chrono::Utc.timestamp_millis_opt(1_795_255_200_123).unwrap();
    assert_eq!(timestamp(now.into()), "2026-11-21T10:00:00.123Z");
    let whole_second = chrono::Utc.timestamp_millis_opt(1_795_255_200_000).unwrap();
    assert_eq!(timestamp(whole_second.into()), "2026-11-21T10:00:00.000Z");
    let before_epoch = chrono::Utc.timestamp_millis_opt(-1_500).unwrap();
    assert_eq!(timestamp(before_epoch.into()), "1969-12-31T23:59:58.500Z");
}

proptest::proptest! {
    /// The per-second cache never shows: every instant, in any order, is written as chrono
    /// writes it whole.
    #[test]
    fn timestamps_match_chrono(instants in proptest::collection::vec(0i64..4_102_444_800_000, 1..20)) {
        for millis in instants {
            for millis in [millis, millis + 1, millis + 999] {
                let now = chrono::Utc.timestamp_millis_opt(millis).unwrap();
                let expected = now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
                proptest::prop_assert_eq!(timestamp(now.into()), expected);
            }
        }
    }
}
