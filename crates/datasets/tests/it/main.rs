//! Snapshot folders on disk: histories, trends, live reloads and atomic publishing.

use std::{
    path::Path,
    sync::{Arc, Mutex},
};

use datasets::{Feed, History, Live, Refusal, Reload, Source, Trend, fs, reference};

mod durable;
mod readme;

use test_support::TempDir;

fn publish(history: &Path, date: &str, level: f64) {
    let files = reference::generate_variant(&format!("{date}T06:00:00Z"), level);
    fs::write_dir_atomic(&history.join(date), &files, false).unwrap();
}

#[test]
fn history_loads_dated_days_and_computes_trends() {
    let dir = TempDir::new("trends");
    publish(&dir.0, "2026-11-01", 1.0);
    publish(&dir.0, "2026-11-13", 1.02);
    publish(&dir.0, "2026-11-20", 1.05);
    std::fs::create_dir_all(dir.0.join("not-a-date")).unwrap();
    let (history, notes) = History::load(&dir.0).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(history.days().len(), 3);
    assert_eq!(history.live().ts_text(), "2026-11-20T06:00:00Z");
    let week = history.trend(7);
    let Trend::Available { percent, from } = week else { panic!("{week:?}") };
    assert_eq!(from.to_string(), "2026-11-13");
    assert!((percent - (1.05 / 1.02 - 1.0) * 100.0).abs() < 0.01, "{percent}");
    let month = history.trend(30);
    let Trend::Unavailable { reason } = &month else { panic!("{month:?}") };
    assert!(reason.contains("no snapshot between 2026-10-18 and 2026-10-21"), "{reason}");
}

#[test]
fn invalid_days_are_skipped_with_a_reason() {
    let dir = TempDir::new("skip");
    publish(&dir.0, "2026-11-19", 1.0);
    publish(&dir.0, "2026-11-20", 1.0);
    std::fs::write(dir.0.join("2026-11-20").join(Feed::Depth.file_name()), "{").unwrap();
    let (history, notes) = History::load(&dir.0).unwrap();
    assert_eq!(history.live_date().to_string(), "2026-11-19");
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].date.to_string(), "2026-11-20");
    let note = notes[0].to_string();
    assert!(note.starts_with("skipped 2026-11-20: invalid snapshot"), "{note}");
    assert!(note.contains("depth.json /: malformed json"), "{note}");
}

#[test]
fn an_empty_history_is_an_error() {
    let dir = TempDir::new("empty");
    let err = History::load(&dir.0).unwrap_err();
    assert!(err.to_string().contains("no valid snapshot"), "{err}");
}

#[test]
fn live_reload_swaps_refuses_and_stays_quiet() {
    let dir = TempDir::new("live");
    publish(&dir.0, "2026-11-19", 1.0);
    let (live, notes) = Live::open(Source::History(dir.0.clone())).unwrap();
    assert!(notes.is_empty());
    let quiet = Reload::Kept { serving: "2026-11-19T06:00:00Z".into(), skipped: vec![] };
    assert_eq!(live.reload(), quiet);
    assert!(!quiet.is_news());

    publish(&dir.0, "2026-11-20", 1.01);
    let before = live.history();
    let accepted = live.reload();
    assert_eq!(
        accepted,
        Reload::Accepted { serving: "2026-11-20T06:00:00Z".into(), days: 2, skipped: vec![] }
    );
    assert_eq!(
        accepted.to_string(),
        "reload accepted: now serving snapshot 2026-11-20T06:00:00Z (2 days)"
    );
    assert_eq!(before.days().len(), 1, "a reader's Arc is never changed under it");
    assert_eq!(live.history().days().len(), 2);
    assert_eq!(live.last_refusal(), None);

    // A corrupt new day is reported once, loudly, the last good day keeps serving, and
    // the refusal stays readable (for a health report) until a reload clears it.
    std::fs::create_dir_all(dir.0.join("2026-11-21")).unwrap();
    std::fs::write(dir.0.join("2026-11-21/matrix.json"), "not json").unwrap();
    let kept = live.reload();
    let Reload::Kept { serving, skipped } = &kept else { panic!("{kept:?}") };
    assert_eq!(serving, "2026-11-20T06:00:00Z");
    assert_eq!(skipped.len(), 1);
    assert!(kept.is_news());
    let line = kept.to_string();
    assert!(line.starts_with("reload kept snapshot 2026-11-20T06:00:00Z; skipped 2026-11-21"));
    assert_eq!(live.history().live().ts_text(), "2026-11-20T06:00:00Z");
    let refusal = live.last_refusal().unwrap();
    assert_eq!(refusal.day.map(|day| day.to_string()).as_deref(), Some("2026-11-21"));
    assert!(refusal.reason.starts_with("invalid snapshot"), "{refusal:?}");
    assert!(!live.reload().is_news(), "the same refusal is reported once");
    assert!(live.last_refusal().is_some(), "and stays readable");

    std::fs::remove_dir_all(dir.0.join("2026-11-21")).unwrap();
    assert!(!live.reload().is_news());
    assert_eq!(live.last_refusal(), None);
}

#[test]
fn a_corrupt_single_snapshot_is_refused_and_the_old_one_serves() {
    let dir = TempDir::new("single");
    fs::write_dir_atomic(&dir.0.join("snap"), &reference::generate(), false).unwrap();
    let (live, _) = Live::open(Source::Snapshot(dir.0.join("snap"))).unwrap();
    std::fs::write(dir.0.join("snap/index.json"), "{\"dcx\": -1}").unwrap();
    let outcome = live.reload();
    assert!(matches!(outcome, Reload::Refused { .. }));
    let text = outcome.to_string();
    assert!(
        text.starts_with("reload refused, still serving snapshot 2026-11-20T00:00:00Z"),
        "{text}"
    );
    assert_eq!(live.history().live().index().dcx, reference_dcx());
    let Some(Refusal { day: None, reason }) = live.last_refusal() else { panic!() };
    assert!(reason.contains("index.json"), "{reason}");
}

/// A day folder must hold that day's snapshot: one whose `ts` falls on another day would
/// be served (and trends computed) under the wrong date, so it is left out like an
/// invalid one, and the servers, which load through `History`, refuse it too.
#[test]
fn a_day_folder_holding_another_days_snapshot_is_skipped() {
    let dir = TempDir::new("misdated");
    publish(&dir.0, "2026-11-21", 1.0);
    let files = reference::generate_variant("2026-11-23T06:00:00Z", 1.0);
    fs::write_dir_atomic(&dir.0.join("2026-11-22"), &files, false).unwrap();
    let (history, skipped) = History::load(&dir.0).unwrap();
    assert_eq!(history.live_date().to_string(), "2026-11-21");
    assert_eq!(
        skipped.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["skipped 2026-11-22: the folder is dated 2026-11-22 but holds the snapshot of \
          2026-11-23 (ts 2026-11-23T06:00:00Z)"]
    );
    let (live, _) = Live::open(Source::History(dir.0.clone())).unwrap();
    assert_eq!(live.history().live().ts_text(), "2026-11-21T06:00:00Z");
    assert_eq!(live.last_refusal().and_then(|r| r.day).unwrap().to_string(), "2026-11-22");
}

/// A service rebuilds what it derives from the history in a swap hook: called once per
/// accepted reload, with the history just made live, never for a kept or refused one.
#[test]
fn swap_hooks_see_each_new_history_once() {
    let dir = TempDir::new("hooks");
    publish(&dir.0, "2026-11-19", 1.0);
    let (live, _) = Live::open(Source::History(dir.0.clone())).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    live.on_swap(move |history| log.lock().unwrap().push(history.live().ts_text().to_owned()));
    live.reload();
    publish(&dir.0, "2026-11-20", 1.01);
    live.reload();
    live.reload();
    assert_eq!(*seen.lock().unwrap(), ["2026-11-20T06:00:00Z"]);
}

fn reference_dcx() -> f64 {
    datasets::Snapshot::reference().index().dcx
}

/// A build writes `observed.json` beside the feeds of a day: the history still loads the
/// day, and the file reads back.
#[test]
fn extra_files_beside_the_feeds_are_written_atomically_and_ignored_by_readers() {
    let dir = TempDir::new("extras");
    let day = dir.0.join("2026-11-20");
    let extra: &[u8] = b"{\"round\":[]}";
    fs::write_dir_atomic_with(&day, &reference::generate(), &[("observed.json", extra)], false)
        .unwrap();
    let (history, skipped) = History::load(&dir.0).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(history.live().index().dcx, reference_dcx());
    assert_eq!(fs::load_dir(&day).unwrap().index().dcx, reference_dcx());
    assert_eq!(fs::read_extra(&day, "observed.json").unwrap().as_deref(), Some(extra));
    assert_eq!(fs::read_extra(&day, "absent.json").unwrap(), None);
    for bad in ["", "..", "a/b.json", "matrix.json"] {
        let other = dir.0.join("2026-11-21");
        let err = fs::write_dir_atomic_with(&other, &reference::generate(), &[(bad, extra)], false)
            .unwrap_err();
        assert!(err.to_string().contains("plain file name"), "{bad:?}: {err}");
        assert!(!other.exists(), "{bad:?}");
    }
}

#[test]
fn publishing_is_atomic_and_never_overwrites_without_force() {
    let dir = TempDir::new("publish");
    let day = dir.0.join("2026-11-20");
    let doubled = reference::generate_variant("2026-11-20T00:00:00Z", 2.0);
    fs::write_dir_atomic(&day, &reference::generate(), false).unwrap();
    let err = fs::write_dir_atomic(&day, &doubled, false).unwrap_err();
    assert!(err.to_string().contains("already published"), "{err}");
    assert_eq!(fs::load_dir(&day).unwrap().index().dcx, reference_dcx());
    fs::write_dir_atomic(&day, &doubled, true).unwrap();
    assert!(fs::load_dir(&day).unwrap().index().dcx > reference_dcx() * 1.9);
    let leftovers: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn only_a_history_folder_is_polled() {
    let minute = Some(std::time::Duration::from_secs(60));
    let history = Source::History("h".into());
    assert_eq!(history.poll_period(minute), minute);
    assert_eq!(history.poll_period(Some(std::time::Duration::ZERO)), None);
    assert_eq!(history.poll_period(None), None);
    assert_eq!(Source::Snapshot("s".into()).poll_period(minute), None);
    assert_eq!(Source::Embedded.poll_period(minute), None);
}

#[test]
fn the_folder_flags_name_the_source() {
    let dir = |name: &str| Some(std::path::PathBuf::from(name));
    assert_eq!(Source::from_dirs(None, None), Source::Embedded);
    assert_eq!(Source::from_dirs(dir("s"), None), Source::Snapshot("s".into()));
    assert_eq!(Source::from_dirs(None, dir("h")), Source::History("h".into()));
    assert_eq!(Source::from_dirs(dir("s"), dir("h")), Source::Snapshot("s".into()));
}

/// A reload keeps the parsed snapshot of every day whose files did not change, parses a
/// day whose files did, and still refuses a day that became invalid.
#[test]
fn reloads_reuse_unchanged_days_and_parse_changed_ones() {
    let dir = TempDir::new("reuse");
    publish(&dir.0, "2026-11-19", 1.0);
    publish(&dir.0, "2026-11-20", 1.01);
    let (live, _) = Live::open(Source::History(dir.0.clone())).unwrap();
    let before = live.history();

    publish(&dir.0, "2026-11-21", 1.02);
    assert!(matches!(live.reload(), Reload::Accepted { .. }));
    let after = live.history();
    for (old, new) in before.days().iter().zip(after.days()) {
        assert!(
            Arc::ptr_eq(old.snapshot().unwrap(), new.snapshot().unwrap()),
            "{} was parsed again",
            old.date
        );
    }

    // The same day republished with other numbers is parsed again.
    let files = reference::generate_variant("2026-11-20T06:00:00Z", 1.05);
    fs::write_dir_atomic(&dir.0.join("2026-11-20"), &files, true).unwrap();
    assert!(matches!(live.reload(), Reload::Accepted { .. }));
    let republished = live.history();
    let day = &republished.days()[1];
    let held = day.snapshot().unwrap();
    assert!(!Arc::ptr_eq(held, after.days()[1].snapshot().unwrap()));
    assert_eq!(held.files(), &files);

    // A known day that turns invalid is left out, not kept from memory.
    std::fs::write(dir.0.join("2026-11-19/depth.json"), "[]").unwrap();
    let reload = live.reload();
    assert!(matches!(reload, Reload::Accepted { .. }), "{reload:?}");
    assert!(reload.to_string().contains("skipped 2026-11-19"), "{reload}");
    assert_eq!(live.history().days().len(), 2);
}

/// A spread file edited in place inside a day is read again on the next poll, as a feed
/// file is: a broken one refuses the day (the loaded one stays live), a removed one
/// leaves the day without spreads.
#[test]
fn a_spread_file_edited_in_place_is_noticed() {
    let dir = TempDir::new("stats-edit");
    let day = dir.0.join("2026-11-20");
    let extras = [(datasets::MATRIX_STATS_FILE, reference::embedded_stats())];
    fs::write_dir_atomic_with(&day, &reference::embedded(), &extras, false).unwrap();
    let (live, _) = Live::open(Source::History(dir.0.clone())).unwrap();
    assert!(live.history().live().spreads().is_some());

    let stats = day.join(datasets::MATRIX_STATS_FILE);
    let text = String::from_utf8(reference::embedded_stats().to_vec()).unwrap();
    std::fs::write(&stats, text.replacen("\"modelled\"", "\"guessed\"", 1)).unwrap();
    let reload = live.reload();
    assert!(matches!(reload, Reload::Kept { .. }), "{reload:?}");
    assert!(reload.to_string().contains("unknown basis"), "{reload}");
    assert!(live.history().live().spreads().is_some(), "the day as loaded stays live");

    std::fs::remove_file(&stats).unwrap();
    assert!(matches!(live.reload(), Reload::Accepted { .. }));
    assert!(live.history().live().spreads().is_none());
}

/// The live day turned invalid in place is refused and stays live (degraded); removing
/// its folder is an operator's rollback, followed and reported as such.
#[test]
fn an_invalid_live_day_stays_live_and_a_removed_one_rolls_back() {
    let dir = TempDir::new("rollback");
    publish(&dir.0, "2026-11-19", 1.0);
    publish(&dir.0, "2026-11-20", 1.01);
    let (live, _) = Live::open(Source::History(dir.0.clone())).unwrap();

    std::fs::write(dir.0.join("2026-11-20/matrix.json"), "not json").unwrap();
    let reload = live.reload();
    let Reload::Kept { serving, skipped } = &reload else { panic!("{reload:?}") };
    assert_eq!(serving, "2026-11-20T06:00:00Z");
    assert!(skipped[0].reason.ends_with("the day as loaded before stays live"), "{skipped:?}");
    assert_eq!(live.history().live_date().to_string(), "2026-11-20");
    let refusal = live.last_refusal().expect("degraded");
    assert_eq!(refusal.day.unwrap().to_string(), "2026-11-20");
    assert!(!live.reload().is_news(), "reported once");
    assert_eq!(live.history().live_date().to_string(), "2026-11-20", "and still live");

    std::fs::remove_dir_all(dir.0.join("2026-11-20")).unwrap();
    let reload = live.reload();
    assert_eq!(
        reload.to_string(),
        "reload rolled back: day 2026-11-20 removed from the history, now serving snapshot \
         2026-11-19T06:00:00Z (1 day)"
    );
    assert!(matches!(reload, Reload::RolledBack { .. }));
    assert_eq!(live.last_refusal(), None);
}

/// A server checks days against its clock: a day more than a day ahead is refused
/// (degraded) until it is due.
#[test]
fn a_day_ahead_of_the_clock_is_refused_until_due() {
    let dir = TempDir::new("clock");
    publish(&dir.0, "2026-11-19", 1.0);
    publish(&dir.0, "2026-11-25", 1.01);
    let now = Arc::new(Mutex::new("2026-11-20T00:00:00Z"));
    let read = Arc::clone(&now);
    let clock: datasets::Clock = Arc::new(move || {
        let now: chrono::DateTime<chrono::Utc> = read.lock().unwrap().parse().unwrap();
        now.into()
    });
    let (live, skipped) = Live::open_with_clock(Source::History(dir.0.clone()), clock).unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(live.history().live_date().to_string(), "2026-11-19");
    assert_eq!(live.last_refusal().unwrap().day.unwrap().to_string(), "2026-11-25");
    *now.lock().unwrap() = "2026-11-24T12:00:00Z";
    assert!(matches!(live.reload(), Reload::Accepted { .. }));
    assert_eq!(live.history().live_date().to_string(), "2026-11-25");
    assert_eq!(live.last_refusal(), None);
}
