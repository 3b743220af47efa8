//! `dcx build` as operators meet it: deterministic days, refusals with their reasons,
//! listings from standard input, one writer at a time, no day from the future, a first
//! build into a folder with no valid day, an unwritable report.

use std::path::{Path, PathBuf};

use test_support::TempDir;

use super::{command, dcx, stderr, stdout};

/// `dcx build` of the sample listings into `history`, with the flags of `extra` and its
/// `{}` `paths` (see [`dcx`]).
fn build(history: &Path, extra: &str, paths: &[&Path]) -> std::process::Output {
    let line = format!("build --listings {{}} --format diamonds --history {{}} {extra}");
    dcx(&line, &[&[sample().as_path(), history][..], paths].concat())
}

/// `dcx build` of the listings `{}` (in the `diamonds` layout) into the folder `{}`.
const BUILD_OUT: &str = "build --listings {} --format diamonds --date 2026-11-20 --out {}";

/// The sample listings, in the `diamonds` layout.
fn sample() -> PathBuf {
    test_support::fixture_path("listings/diamonds-sample.csv")
}

/// Asserts that the day folders `a` and `b` hold the same bytes in every feed.
#[track_caller]
fn assert_same_feeds(a: &Path, b: &Path, between: &str) {
    for feed in datasets::Feed::ALL {
        let name = feed.file_name();
        let same = std::fs::read(a.join(name)).unwrap() == std::fs::read(b.join(name)).unwrap();
        assert!(same, "{feed} differs between {between}");
    }
}

#[test]
fn a_date_more_than_a_day_ahead_is_refused() {
    let dir = TempDir::new("future");
    let tomorrow = (chrono::Utc::now().date_naive() + chrono::Days::new(1)).to_string();
    let later = (chrono::Utc::now().date_naive() + chrono::Days::new(2)).to_string();
    for date in ["9999-12-31", later.as_str()] {
        let out = build(&dir.0, &format!("--date {date}"), &[]);
        assert_eq!(out.status.code(), Some(2), "{date}: {}", stderr(&out));
        assert!(stderr(&out).contains("more than 1 day ahead of today"), "{}", stderr(&out));
        assert!(!dir.0.join(date).exists());
    }
    let out = build(&dir.0, &format!("--date {tomorrow}"), &[]);
    assert!(out.status.success(), "tomorrow (UTC) is allowed: {}", stderr(&out));
}

#[test]
fn a_second_builder_is_refused_while_the_first_holds_the_history() {
    let dir = TempDir::new("locked");
    let lock = datasets::fs::HistoryLock::acquire(&dir.0, false).unwrap();
    let out = build(&dir.0, "--date 2026-11-20", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("another build holds this history's lock"), "{text}");
    assert!(text.contains("--wait"), "{text}");
    assert!(!dir.0.join("2026-11-20").exists());
    drop(lock);
    assert!(build(&dir.0, "--date 2026-11-20", &[]).status.success());
}

/// A history folder without a valid day (a fresh file system's lost+found, a README, a
/// day zeroed by a crash: its feeds empty, or all zero bytes) takes a first build: the
/// broken day is named, not fatal, and replaced only when asked.
#[test]
fn a_first_build_works_in_a_folder_with_no_valid_day() {
    for (name, zeroed) in [("first-empty", &[][..]), ("first-zeroed", &[0u8; 32][..])] {
        let dir = TempDir::new(name);
        std::fs::create_dir_all(dir.0.join("lost+found")).unwrap();
        std::fs::write(dir.0.join("README"), "the history of dcx\n").unwrap();
        let day = dir.0.join("2026-11-19");
        std::fs::create_dir_all(&day).unwrap();
        for feed in datasets::Feed::ALL {
            std::fs::write(day.join(feed.file_name()), zeroed).unwrap();
        }
        let out = build(&dir.0, "--date 2026-11-20", &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).contains("skipped 2026-11-19"), "{}", stderr(&out));
        assert!(datasets::fs::load_dir(&dir.0.join("2026-11-20")).is_ok());
        // The zeroed day is reported by name with what to do, and replaced only when asked.
        let out = build(&dir.0, "--date 2026-11-19", &[]);
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("not a valid snapshot"), "{}", stderr(&out));
        assert!(stderr(&out).contains("--replace-invalid"), "{}", stderr(&out));
        let out = build(&dir.0, "--date 2026-11-19 --replace-invalid", &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(dcx("validate {}", &[&dir.0]).status.success());
        // A valid day is not replaced by --replace-invalid.
        let out = build(&dir.0, "--date 2026-11-19 --replace-invalid", &[]);
        assert!(stderr(&out).contains("already published"), "{}", stderr(&out));
    }
}

#[test]
fn a_published_day_is_announced_even_when_its_report_cannot_be_written() {
    let dir = TempDir::new("report");
    let report = dir.0.join("no-such-folder/report.json");
    let out = build(&dir.0, "--date 2026-11-20 --report {}", &[&report]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stdout(&out).contains("written: "), "{}", stdout(&out));
    assert!(stderr(&out).contains("is published, but the report could not be written"));
    assert!(dcx("validate {}", &[&dir.0.join("2026-11-20")]).status.success());
}

/// `dcx build` writes a valid snapshot, byte-identical for identical input, never
/// overwrites a published day without `--force`, and `dcx history` lists the days.
#[test]
fn build_publishes_valid_deterministic_days() {
    let dir = TempDir::new("build");
    let history = dir.0.join("history");
    let first = build(&history, "--date 2026-11-20", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains("rows: 450 in"), "{}", stdout(&first));
    let again = build(&history, "--date 2026-11-20", &[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("already published; pass --force"), "{}", stderr(&again));
    let (day, out) = (history.join("2026-11-20"), dir.0.join("copy"));
    let copy = dcx(BUILD_OUT, &[&sample(), &out]);
    assert!(copy.status.success(), "{}", stderr(&copy));
    assert_same_feeds(&day, &out, "two builds of the same input");
    // The day's observed cells sit beside its feeds; readers of the history ignore them.
    let observed = std::fs::read_to_string(day.join("observed.json")).unwrap();
    assert!(observed.starts_with("{\"date\":\"2026-11-20\",\"round\":[{"), "{observed}");
    assert!(dcx("validate {}", &[&history]).status.success());
    assert!(dcx("validate {}", &[&day]).status.success());
    let listed = dcx("history {}", &[&history]);
    assert!(stdout(&listed).contains("2026-11-20"), "{}", stdout(&listed));
}

/// A refused build exits 1 with the reason in one line, publishes nothing, leaves the
/// history alone and still writes `--report` with the reason.
#[test]
fn a_refused_build_publishes_nothing_and_reports_why() {
    let dir = TempDir::new("refused");
    // Prices written with a thousands separator, as a spreadsheet exports them.
    let sample = test_support::fixture("listings/diamonds-sample.csv");
    let mut text = String::new();
    for (i, line) in sample.lines().enumerate() {
        let mut fields: Vec<String> = line.split(',').map(str::to_owned).collect();
        let price: u64 = fields[6].parse().unwrap_or(0);
        if i > 0 && price >= 1000 {
            fields[6] = format!("\"{},{:03}\"", price / 1000, price % 1000);
        }
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    let listings = dir.0.join("listings.csv");
    std::fs::write(&listings, text).unwrap();
    let history = dir.0.join("history");
    let report = dir.0.join("report.json");
    let line = "build --listings {} --history {} --date 2026-11-20 --report {}";
    let out = dcx(line, &[&listings, &history, &report]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("build refused: "), "{text}");
    assert!(text.contains("% of rows unparseable or impossible"), "{text}");
    assert!(text.contains("the limit is 20 %"), "{text}");
    assert!(!history.join("2026-11-20").exists(), "nothing is published");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(written["published"], false);
    assert!(written["refused"].as_str().unwrap().contains("unparseable"), "{written}");
    assert!(written["notes"][0].as_str().unwrap().contains("`diamonds` layout"), "{written}");
}

/// `--listings -` reads standard input as a stream: the same snapshot as from the file.
/// A listings path that cannot be read is named in the error.
#[test]
fn build_reads_listings_from_standard_input() {
    use std::io::Write;
    let dir = TempDir::new("stdin");
    let from_file = dcx(BUILD_OUT, &[&sample(), &dir.0.join("file")]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    let mut child = command(BUILD_OUT, &[Path::new("-"), &dir.0.join("stdin")])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run dcx");
    let bytes = std::fs::read(sample()).unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let from_stdin = child.wait_with_output().unwrap();
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert!(stdout(&from_stdin).contains("rows: 450 in"), "{}", stdout(&from_stdin));
    assert_same_feeds(&dir.0.join("file"), &dir.0.join("stdin"), "a file and standard input");
    let folder = dcx(BUILD_OUT, &[&dir.0, &dir.0.join("none")]);
    assert_eq!(folder.status.code(), Some(2), "{}", stderr(&folder));
    let refused = stderr(&folder);
    assert!(refused.contains("dcx build: cannot read "), "{refused}");
    assert!(refused.contains(dir.0.to_str().unwrap()), "the folder is named: {refused}");
}
