//! The file rules, in one place for the whole workspace: every Rust file opens with a
//! `//!` line that says what it is, and stays short enough to read in one sitting. The
//! limits are the table below; no other test checks a file's length or its first line.

use std::path::Path;

/// The longest a binary's `src/main.rs` may be: it parses flags and calls a library.
const BINARY_MAIN: usize = 120;
/// The longest a test file may be (under `tests/`, or a sibling `tests.rs`).
const TEST_FILE: usize = 600;
/// The longest any other Rust file may be.
const SOURCE_FILE: usize = 400;
/// Files over their limit today, each with the length it may not grow past; remove a line
/// when its file is split.
const OVER_THE_LIMIT: [(&str, usize); 1] = [("crates/methodology/src/read.rs", 426)];

/// The limit of a file, by its path relative to the workspace root.
fn limit(relative: &Path) -> usize {
    if let Some(&(_, grandfathered)) =
        OVER_THE_LIMIT.iter().find(|(path, _)| relative == Path::new(path))
    {
        return grandfathered;
    }
    let in_tests = relative.components().any(|c| c.as_os_str() == "tests");
    if relative.starts_with("bins") && relative.ends_with("src/main.rs") {
        BINARY_MAIN
    } else if in_tests || relative.file_name().is_some_and(|name| name == "tests.rs") {
        TEST_FILE
    } else {
        SOURCE_FILE
    }
}

#[test]
fn every_rust_file_opens_with_a_module_doc_and_stays_short() {
    let root = test_support::workspace_root();
    let mut files = Vec::new();
    for dir in ["crates", "bins", "benches", "fuzz"] {
        crate::rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "found only {} Rust files", files.len());
    let (mut undocumented, mut long) = (Vec::new(), Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let relative = file.strip_prefix(&root).unwrap();
        if !text.starts_with("//!") {
            undocumented.push(relative.display().to_string());
        }
        let (lines, limit) = (text.lines().count(), limit(relative));
        if lines > limit {
            long.push(format!("{}: {lines} lines, at most {limit}", relative.display()));
        }
    }
    assert!(undocumented.is_empty(), "files without a //! first line: {undocumented:?}");
    assert!(
        long.is_empty(),
        "files over their length (split them; a binary's logic goes to a library):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_limits_apply_by_kind_of_file() {
    assert_eq!(limit(Path::new("bins/dcx/src/main.rs")), BINARY_MAIN);
    assert_eq!(limit(Path::new("bins/dcx/tests/it/main.rs")), TEST_FILE);
    assert_eq!(limit(Path::new("crates/serve/src/rate/tests.rs")), TEST_FILE);
    assert_eq!(limit(Path::new("crates/serve/src/rate.rs")), SOURCE_FILE);
    assert_eq!(limit(Path::new("crates/methodology/src/read.rs")), 426);
}
