//! `dcx build` against a history as operators meet it: one writer at a time, no day from
//! the future, a first build into a folder with no valid day, an unwritable report.

use std::path::Path;

use test_support::TempDir;

use super::{dcx, stderr, stdout};

fn build(history: &Path, date: &str, extra: &[&str]) -> std::process::Output {
    let listings = test_support::fixture_path("listings/diamonds-sample.csv");
    let mut args = vec![
        "build",
        "--listings",
        listings.to_str().unwrap(),
        "--format",
        "diamonds",
        "--history",
        history.to_str().unwrap(),
        "--date",
        date,
    ];
    args.extend_from_slice(extra);
    dcx(&args)
}

#[test]
fn a_date_more_than_a_day_ahead_is_refused() {
    let dir = TempDir::new("future");
    let tomorrow = (chrono::Utc::now().date_naive() + chrono::Days::new(1)).to_string();
    let later = (chrono::Utc::now().date_naive() + chrono::Days::new(2)).to_string();
    for date in ["9999-12-31", later.as_str()] {
        let out = build(&dir.0, date, &[]);
        assert_eq!(out.status.code(), Some(2), "{date}: {}", stderr(&out));
        assert!(stderr(&out).contains("more than 1 day ahead of today"), "{}", stderr(&out));
        assert!(!dir.0.join(date).exists());
    }
    let out = build(&dir.0, &tomorrow, &[]);
    assert!(out.status.success(), "tomorrow (UTC) is allowed: {}", stderr(&out));
}

#[test]
fn a_second_builder_is_refused_while_the_first_holds_the_history() {
    let dir = TempDir::new("locked");
    let lock = datasets::fs::HistoryLock::acquire(&dir.0, false).unwrap();
    let out = build(&dir.0, "2026-11-20", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("another build holds this history's lock"), "{text}");
    assert!(text.contains("--wait"), "{text}");
    assert!(!dir.0.join("2026-11-20").exists());
    drop(lock);
    assert!(build(&dir.0, "2026-11-20", &[]).status.success());
}

#[test]
fn a_first_build_works_in_a_folder_with_no_valid_day() {
    let dir = TempDir::new("first");
    std::fs::create_dir_all(dir.0.join("lost+found")).unwrap();
    std::fs::write(dir.0.join("README"), "the history of dcx\n").unwrap();
    let zeroed = dir.0.join("2026-11-19");
    std::fs::create_dir_all(&zeroed).unwrap();
    for feed in datasets::Feed::ALL {
        std::fs::write(zeroed.join(feed.file_name()), b"").unwrap();
    }
    let out = build(&dir.0, "2026-11-20", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The zeroed day is reported by name with what to do, and replaced only when asked.
    let out = build(&dir.0, "2026-11-19", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not a valid snapshot"), "{}", stderr(&out));
    assert!(stderr(&out).contains("--replace-invalid"), "{}", stderr(&out));
    let out = build(&dir.0, "2026-11-19", &["--replace-invalid"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dcx(&["validate", dir.0.to_str().unwrap()]).status.success());
    // A valid day is not replaced by --replace-invalid.
    let out = build(&dir.0, "2026-11-19", &["--replace-invalid"]);
    assert!(stderr(&out).contains("already published"), "{}", stderr(&out));
}

#[test]
fn a_published_day_is_announced_even_when_its_report_cannot_be_written() {
    let dir = TempDir::new("report");
    let report = dir.0.join("no-such-folder/report.json");
    let out = build(&dir.0, "2026-11-20", &["--report", report.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stdout(&out).contains("written: "), "{}", stdout(&out));
    assert!(stderr(&out).contains("is published, but the report could not be written"));
    assert!(dcx(&["validate", dir.0.join("2026-11-20").to_str().unwrap()]).status.success());
}
