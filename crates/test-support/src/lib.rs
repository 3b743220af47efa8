//! Test helpers shared by every crate: fixture paths, golden-file comparison, days of a
//! history folder, and server binaries run as child processes.
//!
//! **Architecture invariant:** this crate is only ever a `[dev-dependencies]` entry.
//! Goldens are rewritten, instead of compared, when `UPDATE_EXPECT=1` is set.

use std::path::{Path, PathBuf};

pub mod http;
pub mod process;

/// A fresh folder under the system's temporary folder, named after the test process and
/// `name`, removed when dropped.
#[derive(Debug)]
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// Creates (or empties) the folder.
    #[track_caller]
    pub fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("dcx-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temporary folder");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The workspace root, found from this crate's manifest directory.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("test-support sits two levels below the workspace root")
        .to_path_buf()
}

/// The absolute path of `rel` below `fixtures/`.
pub fn fixture_path(rel: &str) -> PathBuf {
    workspace_root().join("fixtures").join(rel)
}

/// The text of the fixture `rel` (a path below `fixtures/`).
#[track_caller]
pub fn fixture(rel: &str) -> String {
    let path = fixture_path(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read fixture {}: {err}", path.display()))
}

/// Writes the reference snapshot (`fixtures/snapshot/`) into `dir/<date>/` as one day of a
/// history folder: every feed's `ts` set to `<date>T00:00:00Z`, then `edit` applied to
/// each feed's text (called with the file name, e.g. `index.json`).
///
/// A new day appears at once: its feeds are written into a hidden folder that is then
/// renamed into place, so a server polling the history never reads half a day. An existing
/// day folder is rewritten in place.
#[track_caller]
pub fn write_day(dir: &Path, date: &str, edit: impl Fn(&str, String) -> String) {
    let day = dir.join(date);
    if day.exists() {
        write_feeds(&day, date, edit);
        return;
    }
    let partial = dir.join(format!(".{date}.partial"));
    write_feeds(&partial, date, edit);
    std::fs::rename(&partial, &day).expect("move the day folder into place");
}

#[track_caller]
fn write_feeds(day: &Path, date: &str, edit: impl Fn(&str, String) -> String) {
    std::fs::create_dir_all(day).expect("create the day folder");
    let mut names: Vec<String> = std::fs::read_dir(fixture_path("snapshot"))
        .expect("fixtures/snapshot")
        .map(|entry| entry.expect("a fixture entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    for name in names {
        let text = fixture(&format!("snapshot/{name}"))
            .replace("2026-11-20T00:00:00Z", &format!("{date}T00:00:00Z"));
        std::fs::write(day.join(&name), edit(&name, text)).expect("write a feed");
    }
}

/// True when goldens should be rewritten rather than compared.
pub fn update_expect() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

/// Compares `actual` with the golden file `rel` below `fixtures/`; with `UPDATE_EXPECT=1`
/// writes `actual` there instead.
#[track_caller]
pub fn assert_golden(rel: &str, actual: &str) {
    let path = fixture_path(rel);
    if update_expect() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create golden dir");
        }
        std::fs::write(&path, actual).expect("write golden");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|err| {
        panic!("missing golden {} ({err}); run with UPDATE_EXPECT=1 to create it", path.display())
    });
    if expected != actual {
        panic!(
            "golden {} differs (run with UPDATE_EXPECT=1 to accept)\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        );
    }
}

/// Pretty JSON with a trailing newline, the form every JSON golden is stored in.
pub fn pretty(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("serialize json");
    text.push('\n');
    text
}
