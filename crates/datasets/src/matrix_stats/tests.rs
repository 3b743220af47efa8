//! `matrix_stats.json`: the reference file is valid; each class of problem is reported
//! with its pointer; a snapshot without the file has no spreads.

use crate::{Snapshot, reference, validate_stats};

fn reference_text() -> String {
    String::from_utf8(reference::embedded_stats().to_vec()).unwrap()
}

fn problems(text: &str) -> Vec<String> {
    let bare = Snapshot::parse(reference::embedded()).unwrap();
    match bare.with_stats(text.as_bytes().to_vec()) {
        Ok(_) => Vec::new(),
        Err(err) => err.issues().iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn the_reference_file_is_valid_and_attached() {
    assert!(validate_stats(reference::embedded_stats()).is_ok());
    let snapshot = Snapshot::reference();
    assert_eq!(snapshot.stats_file(), Some(reference::embedded_stats()));
    assert!(Snapshot::parse(reference::embedded()).unwrap().spreads().is_none());
}

#[test]
fn broken_cells_are_reported_where_they_are() {
    let text = reference_text();
    let first = text.find("{\"n\":0,").unwrap();
    let line_end = first + text[first..].find('}').unwrap() + 1;
    let replace = |cell: &str| format!("{}{cell}{}", &text[..first], &text[line_end..]);
    let bad_basis = problems(&replace(r#"{"n":0,"q":[1,2,3,4,5],"basis":"guessed"}"#));
    assert_eq!(bad_basis.len(), 1, "{bad_basis:?}");
    assert!(bad_basis[0].starts_with("matrix_stats.json /round/0.3/0/basis: unknown basis"));
    let descending = problems(&replace(r#"{"n":0,"q":[5,4,3,2,1],"basis":"observed"}"#));
    assert!(
        descending[0].contains("/round/0.3/0/q: quantiles must be ascending"),
        "{descending:?}"
    );
    let negative = problems(&replace(r#"{"n":-1,"q":[1,2,3,4,5],"basis":"observed"}"#));
    assert!(negative[0].contains("/round/0.3/0/n: expected a non-negative integer"));
    let zero = problems(&replace(r#"{"n":3,"q":[0,2,3,4,5],"basis":"observed"}"#));
    assert!(zero[0].contains("quantile must be positive"), "{zero:?}");
    let four = problems(&replace(r#"{"n":3,"q":[1,2,3,4],"basis":"observed"}"#));
    assert!(four[0].contains("expected 5 quantiles"), "{four:?}");
}

#[test]
fn the_grid_must_be_the_matrices_grid() {
    let text = reference_text();
    let other_ts = problems(&text.replace("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z"));
    assert!(other_ts[0].contains("/ts: ts 2026-11-21T00:00:00Z is not the snapshot's ts"));
    let swapped = text.replacen(r#""D", "E""#, r#""E", "D""#, 1);
    let swapped = problems(&swapped.replacen(r#"["D","E""#, r#"["E","D""#, 1));
    assert!(
        swapped.iter().any(|p| p.contains("must list the grades of matrix.json")),
        "{swapped:?}"
    );
    let renamed = problems(&text.replacen("\"6.0\": [", "\"7.0\": [", 1));
    assert!(renamed.iter().any(|p| p.contains("/round: band keys must be those of matrix.json")));
    let cell = text.lines().find(|line| line.contains("{\"n\":")).unwrap();
    let short = problems(&text.replacen(&format!("{cell}\n"), "", 1));
    assert!(short[0].contains("/round/0.3: expected rows x cols = 80 cells, got 79"), "{short:?}");
    assert!(!problems("{").is_empty());
    assert!(!problems("{}").is_empty());
}

#[test]
fn a_folder_is_read_with_its_spread_file_or_without_one() {
    let temp = test_support::TempDir::new("matrix-stats");
    let dir = temp.0.join("snapshot");
    let extras = [(crate::MATRIX_STATS_FILE, reference::embedded_stats())];
    crate::fs::write_dir_atomic_with(&dir, &reference::embedded(), &extras, true).unwrap();
    assert!(crate::fs::load_dir(&dir).unwrap().spreads().is_some());
    let broken = reference_text().replacen("\"modelled\"", "\"guessed\"", 1);
    std::fs::write(dir.join(crate::MATRIX_STATS_FILE), broken).unwrap();
    let err = crate::fs::load_dir(&dir).unwrap_err().to_string();
    assert!(err.contains("matrix_stats.json /round/0.3/0/basis: unknown basis"), "{err}");
    std::fs::remove_file(dir.join(crate::MATRIX_STATS_FILE)).unwrap();
    let without = crate::fs::load_dir(&dir).unwrap();
    assert!(without.spreads().is_none() && without.stats_file().is_none());
}
