//! Test helpers shared by every crate: fixture paths and golden-file comparison.
//!
//! **Architecture invariant:** this crate is only ever a `[dev-dependencies]` entry.
//! Goldens are rewritten, instead of compared, when `UPDATE_EXPECT=1` is set.

use std::path::{Path, PathBuf};

pub mod http;

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
