//! Durable publishing and bounded reading: replacing a day, the writers' lock, the sweep
//! of killed writers' leftovers, and files that are not plain feed files.

use std::path::Path;

use datasets::fs::{self, Existing, HistoryLock};
use datasets::reference;

use test_support::TempDir;

fn dcx(day: &Path) -> f64 {
    fs::load_dir(day).unwrap().index().dcx
}

fn dot_entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.') && !name.ends_with(".lock"))
        .collect()
}

/// A day a power cut left with empty files.
fn zero(day: &Path) {
    for entry in std::fs::read_dir(day).unwrap() {
        std::fs::write(entry.unwrap().path(), b"").unwrap();
    }
}

#[test]
fn an_existing_day_is_replaced_only_as_asked() {
    let dir = TempDir::new("existing");
    let day = dir.0.join("2026-11-20");
    let files = reference::generate();
    let doubled = reference::generate_variant("2026-11-20T00:00:00Z", 2.0);
    fs::publish_dir(&day, &files, &[], Existing::Refuse).unwrap();
    let base = dcx(&day);

    // A valid day: refused unless forced, even by --replace-invalid.
    for existing in [Existing::Refuse, Existing::ReplaceInvalid] {
        let err = fs::publish_dir(&day, &doubled, &[], existing).unwrap_err();
        assert!(err.to_string().contains("already published; pass --force"), "{err}");
        assert_eq!(dcx(&day), base);
    }
    fs::publish_dir(&day, &doubled, &[], Existing::Replace).unwrap();
    assert!(dcx(&day) > base * 1.9);

    // An invalid day: refused with what to do, replaced by --replace-invalid.
    zero(&day);
    let err = fs::publish_dir(&day, &files, &[], Existing::Refuse).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("not a valid snapshot") && message.contains("--replace-invalid"));
    fs::publish_dir(&day, &files, &[], Existing::ReplaceInvalid).unwrap();
    assert_eq!(dcx(&day), base);
    assert!(dot_entries(&dir.0).is_empty(), "{:?}", dot_entries(&dir.0));
}

#[test]
fn one_writer_holds_the_lock_and_sweeps_what_killed_writers_left() {
    let dir = TempDir::new("lock");
    let half_written = dir.0.join(".2026-11-21.tmp-4242");
    std::fs::create_dir_all(&half_written).unwrap();
    std::fs::write(half_written.join("matrix.json"), b"{").unwrap();
    std::fs::write(dir.0.join(".last-build.json.tmp-77"), b"{").unwrap();
    std::fs::create_dir_all(dir.0.join(".hidden")).unwrap();

    let lock = HistoryLock::acquire(&dir.0, false).unwrap();
    assert_eq!(dot_entries(&dir.0), [".hidden"], "leftovers swept, other names kept");
    let err = HistoryLock::acquire(&dir.0, false).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("another build holds"), "{message}");
    assert!(message.contains(&format!("pid {}", std::process::id())), "{message}");
    drop(lock);
    HistoryLock::acquire(&dir.0, false).expect("free again once dropped");
}

#[test]
fn a_waiting_writer_gets_the_lock_when_it_is_released() {
    let dir = TempDir::new("wait");
    let lock = HistoryLock::acquire(&dir.0, false).unwrap();
    let path = dir.0.clone();
    let waiter = std::thread::spawn(move || HistoryLock::acquire(&path, true).map(|_| ()));
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(!waiter.is_finished(), "the waiter waits while the lock is held");
    drop(lock);
    waiter.join().unwrap().expect("the waiter gets the lock");
}

#[test]
fn a_report_file_is_replaced_whole() {
    let dir = TempDir::new("report");
    let path = dir.0.join("last-build.json");
    fs::write_file_atomic(&path, b"{\"a\":1}\n").unwrap();
    fs::write_file_atomic(&path, b"{\"b\":2}\n").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"{\"b\":2}\n");
    assert!(dot_entries(&dir.0).is_empty());
}

#[test]
fn feed_files_must_be_regular_files_of_bounded_size() {
    let dir = TempDir::new("bounded");
    let day = dir.0.join("2026-11-20");
    fs::write_dir_atomic(&day, &reference::generate(), false).unwrap();
    let matrix = day.join("matrix.json");

    // A sparse file far over the bound: refused from its size, without reading it.
    std::fs::remove_file(&matrix).unwrap();
    std::fs::File::create(&matrix).unwrap().set_len(2 << 30).unwrap();
    let err = fs::load_dir(&day).unwrap_err().to_string();
    assert!(err.contains("more than the 4194304"), "{err}");

    // A link to a device: refused, not read forever.
    std::fs::remove_file(&matrix).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &matrix).unwrap();
    let err = fs::load_dir(&day).unwrap_err().to_string();
    assert!(err.contains("not a regular file (a device)"), "{err}");

    // A FIFO without a writer: refused at once instead of waiting for one.
    std::fs::remove_file(&matrix).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&matrix).status().unwrap();
    assert!(made.success());
    let err = fs::load_dir(&day).unwrap_err().to_string();
    assert!(err.contains("not a regular file (a FIFO)"), "{err}");

    // A link to a regular file is followed.
    std::fs::remove_file(&matrix).unwrap();
    let elsewhere = dir.0.join("matrix-elsewhere.json");
    std::fs::write(&elsewhere, reference::generate().get(datasets::Feed::Matrix)).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &matrix).unwrap();
    fs::load_dir(&day).expect("a link to a regular feed file reads");
}
