//! The README's "Use the pricing in your Rust program" section: its program is the example
//! `quote` byte for byte, it adds the libraries from a clone by path, and the output it
//! shows is what the example prints, from the embedded snapshot and from a folder. The
//! `history` example runs too.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use datasets::{fs, reference};

use crate::TempDir;

const HEADING: &str = "## Use the pricing in your Rust program";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).unwrap().to_path_buf()
}

/// The fenced blocks of the README section, as (language, text) pairs.
fn section_blocks() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let start = readme.find(HEADING).unwrap_or_else(|| panic!("README has no {HEADING:?}"));
    let section = &readme[start + HEADING.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in section.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((lang.to_owned(), String::new())),
            (Some(_), Some("")) => blocks.push(open.take().unwrap()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "an unclosed code block in the README section");
    blocks
}

fn block(lang: &str) -> String {
    let found: Vec<String> =
        section_blocks().into_iter().filter(|(l, _)| l == lang).map(|(_, text)| text).collect();
    assert_eq!(found.len(), 1, "the README section should hold one {lang} block");
    found.into_iter().next().unwrap()
}

/// The `quote` example, the README's program.
fn example() -> Command {
    built_example("quote")
}

/// An example binary, built by `cargo test` beside this test binary's `deps/` folder.
fn built_example(name: &str) -> Command {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let path = profile_dir.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test -p dcx-datasets` builds the examples",
        path.display()
    );
    Command::new(path)
}

#[track_caller]
fn stdout(command: &mut Command) -> String {
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{command:?} failed: {stderr}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn readme_program_is_the_quote_example() {
    let example =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/quote.rs"))
            .unwrap();
    assert!(
        block("rust") == example,
        "the README's program and crates/datasets/examples/quote.rs differ; make them equal"
    );
}

/// The README adds the libraries by the paths of a clone, the form that works before
/// anything is published (`scripts/embed-check.sh` runs these commands).
#[test]
fn readme_adds_the_libraries_from_a_clone() {
    let expected = "cargo new prices && cd prices\n\
                    cargo add --path ../dcx/crates/pricing\n\
                    cargo add --path ../dcx/crates/datasets\n";
    assert_eq!(block("sh"), expected);
    for dir in ["crates/pricing", "crates/datasets"] {
        assert!(workspace_root().join(dir).join("Cargo.toml").is_file(), "{dir}");
    }
    let section: String = section_blocks().into_iter().map(|(_, text)| text).collect();
    assert!(!section.contains("git = "), "no git form until the repository is published");
}

#[test]
fn readme_output_is_what_the_program_prints() {
    let shown = block("text");
    let (command, expected) = shown.split_once('\n').unwrap();
    assert_eq!(command, "$ cargo run");
    assert_eq!(stdout(&mut example()), expected);
    let folder = workspace_root().join("fixtures/snapshot");
    assert_eq!(stdout(example().arg(&folder)), expected, "the same snapshot as a folder");
}

#[test]
fn the_program_prices_from_the_folder_it_is_given() {
    let dir = TempDir::new("readme-folder");
    let snapshot = dir.0.join("snapshot");
    let files = reference::generate_variant("2026-12-01T00:00:00Z", 1.1);
    fs::write_dir_atomic(&snapshot, &files, false).unwrap();
    let printed = stdout(example().arg(&snapshot));
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines[0], "Prices as of 2026-12-01T00:00:00Z");
    // Every price of the variant is 1.1 times the reference's (rounded to cents).
    let reference = stdout(&mut example());
    let per_carat = |line: &str| -> f64 {
        line.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap()
    };
    for (ours, theirs) in lines[1..].iter().zip(reference.lines().skip(1)) {
        let ratio = per_carat(ours) / per_carat(theirs);
        assert!((ratio - 1.1).abs() < 1e-5, "{ours} vs {theirs}: ratio {ratio}");
    }
    assert_eq!(lines.len(), 3, "{printed}");

    let missing = example().arg(dir.0.join("nothing-here")).output().unwrap();
    assert!(!missing.status.success(), "a missing folder is an error");
}

#[test]
fn the_history_example_reads_its_demonstration_history() {
    let printed = stdout(&mut built_example("history"));
    let lines: Vec<&str> = printed.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "2026-11-12: DCX 4016.38 USD per carat; 1 ct G VS2 round 5900.00 USD",
            "2026-11-19: DCX 4096.71 USD per carat; 1 ct G VS2 round 6018.00 USD",
            "2026-11-20: DCX 4136.88 USD per carat; 1 ct G VS2 round 6077.00 USD",
            "1-day trend: +0.98 % since 2026-11-19",
            "7-day trend: +3.00 % since 2026-11-12",
            "30-day trend: none (the snapshot history (3 days from 2026-11-12) has no snapshot \
             between 2026-10-18 and 2026-10-21)",
        ]
    );
    let demo = printed.lines().next().unwrap().strip_prefix("History ").unwrap();
    assert!(!Path::new(demo).exists(), "the demonstration history is removed: {demo}");
}
