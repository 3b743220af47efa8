//! Unit tests of history loading: what a poll reads, the held window, days ahead of
//! the clock, and what a build reads.

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use test_support::TempDir;

use super::{HELD_DAYS, History};
use crate::{Trend, fs, reference};

fn date(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

fn at(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

/// Publishes `count` consecutive days ending on `last`, the level rising 0.1 % a day.
fn publish_days(dir: &TempDir, last: &str, count: u64) {
    let last = date(last);
    for back in 0..count {
        let day = last - chrono::Days::new(back);
        let level = 1.0 + (count - back) as f64 * 0.001;
        let files = reference::generate_variant(&format!("{day}T06:00:00Z"), level);
        fs::write_dir_atomic(&dir.0.join(day.to_string()), &files, false).unwrap();
    }
}

#[test]
fn only_the_held_days_are_parsed_and_older_ones_are_read_when_asked() {
    let dir = TempDir::new("held");
    publish_days(&dir, "2026-11-20", HELD_DAYS + 10);
    let (history, skipped) = History::load(&dir.0).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(history.days().len() as u64, HELD_DAYS + 10);
    let held: Vec<bool> = history.days().iter().map(|day| day.snapshot().is_some()).collect();
    assert_eq!(held.iter().filter(|&&held| held).count() as u64, HELD_DAYS + 1);
    assert!(held[10..].iter().all(|&held| held), "the newest days are held");

    // An older day's summary is what its index published; its snapshot reads back.
    let old = &history.days()[0];
    let snapshot = history.snapshot_of(old).unwrap();
    assert_eq!(snapshot.index().dcx, old.dcx());
    assert_eq!(snapshot.ts_text(), old.ts_text());
    // Trends reach back past the held days through the summaries.
    let Trend::Available { from, .. } = history.trend(35) else { panic!() };
    assert_eq!(from, date("2026-10-16"));
    assert_eq!(history.days_from(date("2026-11-18")).len(), 3);
    // A folder republished since the load is refused, not served as the day loaded.
    let files = reference::generate_variant("2026-10-12T07:00:00Z", 1.0);
    fs::write_dir_atomic(&dir.0.join("2026-10-12"), &files, true).unwrap();
    let err = history.snapshot_of(old).unwrap_err().to_string();
    let says = "the folder of 2026-10-12 changed since it was loaded (ts 2026-10-12T07:00:00Z \
                instead of 2026-10-12T06:00:00Z)";
    assert!(err.contains(says), "{err}");
}

#[test]
fn an_unchanged_history_is_reused_without_reading_a_file() {
    let dir = TempDir::new("poll");
    publish_days(&dir, "2026-11-20", HELD_DAYS + 3);
    let (first, _) = History::load(&dir.0).unwrap();
    // An older day rewritten in place keeps its folder: a poll does not read it again.
    std::fs::write(dir.0.join("2026-10-19/index.json"), "{").unwrap();
    let (second, skipped) = History::load_reusing(&dir.0, Some(&first), None).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert!(first.same_days(&second));
    for (a, b) in first.days().iter().zip(second.days()) {
        if let (Some(a), Some(b)) = (a.snapshot(), b.snapshot()) {
            assert!(Arc::ptr_eq(a, b), "a held day was parsed again");
        }
    }
    // A held day whose file changed is read again.
    std::fs::write(dir.0.join("2026-11-19/depth.json"), "[]").unwrap();
    let (third, skipped) = History::load_reusing(&dir.0, Some(&second), None).unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(third.days().len(), second.days().len() - 1);
}

#[test]
fn a_day_ahead_of_the_clock_waits_until_it_is_due() {
    let dir = TempDir::new("ahead");
    publish_days(&dir, "2026-11-20", 1);
    publish_days(&dir, "2026-11-23", 1);
    let now = at("2026-11-21T06:00:00Z");
    let (history, skipped) = History::load_reusing(&dir.0, None, Some(now)).unwrap();
    assert_eq!(history.live_date(), date("2026-11-20"));
    assert_eq!(
        skipped.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["skipped 2026-11-23: its ts 2026-11-23T06:00:00Z is more than a day ahead of the \
          clock (2026-11-21T06:00:00Z); it is served once it is due"]
    );
    // Less than a day ahead is a day published early: served.
    let now = at("2026-11-22T06:00:00Z");
    let (history, skipped) = History::load_reusing(&dir.0, Some(&history), Some(now)).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(history.live_date(), date("2026-11-23"));
}

#[test]
fn a_build_reads_only_its_span_before_its_date() {
    let dir = TempDir::new("build");
    publish_days(&dir, "2026-11-20", 60);
    let (history, skipped) = History::load_before(&dir.0, date("2026-11-20"), 10).unwrap();
    let history = history.unwrap();
    assert!(skipped.is_empty());
    assert_eq!(history.live_date(), date("2026-11-19"));
    assert_eq!(history.days()[0].date, date("2026-11-09"));
    assert!(history.days().iter().all(|day| day.snapshot().is_some()));

    // The previous day is found however old it is, with the span before it.
    let (history, _) = History::load_before(&dir.0, date("2027-06-01"), 10).unwrap();
    let history = history.unwrap();
    assert_eq!((history.live_date(), history.days().len()), (date("2026-11-20"), 11));
}

#[test]
fn a_folder_without_a_valid_day_is_a_first_build() {
    let dir = TempDir::new("first");
    let before = date("2026-11-20");
    assert!(History::load_before(&dir.0.join("absent"), before, 10).unwrap().0.is_none());
    std::fs::create_dir_all(dir.0.join("lost+found")).unwrap();
    std::fs::write(dir.0.join("README"), "days of the dcx history\n").unwrap();
    std::fs::create_dir_all(dir.0.join("2026-11-19")).unwrap();
    for feed in crate::Feed::ALL {
        std::fs::write(dir.0.join("2026-11-19").join(feed.file_name()), [0u8; 64]).unwrap();
    }
    let (history, skipped) = History::load_before(&dir.0, before, 10).unwrap();
    assert!(history.is_none());
    assert_eq!(skipped.len(), 1, "the zeroed day is reported: {skipped:?}");
    assert!(History::load(&dir.0).is_err(), "a server still needs a valid day");
}

#[test]
fn an_older_day_is_checked_by_its_index_alone() {
    let dir = TempDir::new("older");
    publish_days(&dir, "2026-11-20", HELD_DAYS + 5);
    std::fs::remove_file(dir.0.join("2026-10-17/index.json")).unwrap();
    std::fs::write(dir.0.join("2026-10-18/index.json"), "{\"dcx\": -1}").unwrap();
    // Another feed broken: not read for an older day (read whole when asked).
    std::fs::write(dir.0.join("2026-10-19/depth.json"), "[]").unwrap();
    let (history, skipped) = History::load(&dir.0).unwrap();
    let skipped: Vec<String> = skipped.iter().map(ToString::to_string).collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped[0].starts_with("skipped 2026-10-17: cannot read index.json"), "{skipped:?}");
    assert!(skipped[1].starts_with("skipped 2026-10-18: invalid snapshot"), "{skipped:?}");
    let day = &history.days()[0];
    assert_eq!(day.date, date("2026-10-19"));
    let err = history.snapshot_of(day).unwrap_err().to_string();
    assert!(err.contains("depth.json"), "{err}");
}
