//! `dcx` run as a process: quotes (text and JSON), validation, argument errors.

use std::process::{Command, Output};

fn dcx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dcx")).args(args).output().expect("run dcx")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn quote_prints_a_readable_price() {
    let out = dcx(&["quote", "--carat", "1.0", "--color", "G", "--clarity", "VS2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Per carat: $5,900.00"), "{}", stdout(&out));
}

#[test]
fn quote_json_is_the_tool_structured_content() {
    let out = dcx(&[
        "quote",
        "--carat",
        "1.23",
        "--color",
        "g",
        "--clarity",
        "vs2",
        "--shape",
        "oval",
        "--ratio",
        "1.35",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let snapshot = datasets::Snapshot::reference();
    let args = serde_json::json!({"carat": 1.23, "color": "g", "clarity": "vs2", "shape": "oval", "shape_ratio": 1.35});
    let expected =
        tools::price::price(&snapshot, args.as_object().unwrap(), &tools::price::Links::default())
            .unwrap();
    assert_eq!(value, expected.structured);
    assert_eq!(value["shape"], "oval");
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let out = dcx(&["quote", "--carat", "7", "--color", "G", "--clarity", "VS2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("carat must be between 0.3 and 6, got 7"), "{}", stderr(&out));
    let out = dcx(&["quote", "--carat", "1", "--color", "Z", "--clarity", "VS2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown color \"Z\""));
    let out = dcx(&["quote", "--carat", "abc", "--color", "G", "--clarity", "VS2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid value 'abc'"), "{}", stderr(&out));
    let out = dcx(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn validate_accepts_the_reference_and_lists_every_problem() {
    let dir = test_support::fixture_path("snapshot");
    let out = dcx(&["validate", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("valid snapshot of 2026-11-20T00:00:00Z"));

    // An invalid snapshot: the reference with a broken index basket.
    let bad = std::env::temp_dir().join(format!("dcx-validate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&bad);
    std::fs::create_dir_all(&bad).unwrap();
    for name in ["matrix.json", "matrix_cushion.json", "ratio_models.json", "depth.json"] {
        std::fs::copy(dir.join(name), bad.join(name)).unwrap();
    }
    std::fs::copy(
        test_support::fixture_path("snapshot-err/basket_disagrees_with_matrix/index.json"),
        bad.join("index.json"),
    )
    .unwrap();
    let out = dcx(&["validate", bad.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&bad);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("4 problems"), "{text}");
    assert!(text.contains("index.json /specs/1/log"), "{text}");
}

#[test]
fn validate_of_a_missing_folder_fails() {
    let out = dcx(&["validate", "/nonexistent/dcx-snapshot"]);
    assert_eq!(out.status.code(), Some(1));
}

/// Every `$ dcx ...` example in the docs prints exactly what the docs show.
#[test]
fn documented_examples_are_true() {
    let mut checked = 0;
    for doc in ["docs/pricing.md", "README.md"] {
        let text = std::fs::read_to_string(test_support::workspace_root().join(doc)).unwrap();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ dcx ") else { continue };
            let expected: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
            let args: Vec<&str> = command.split_whitespace().collect();
            let out = dcx(&args);
            assert!(out.status.success(), "{doc}: dcx {command}: {}", stderr(&out));
            assert_eq!(stdout(&out).trim_end(), expected.join("\n"), "{doc}: dcx {command}");
            checked += 1;
        }
    }
    assert!(checked >= 2, "no documented examples found");
}
