//! Snapshot validation tests: one invalid snapshot per class of problem in
//! `fixtures/snapshot-err/`, each with its expected messages.

use test_support::TempDir;

use crate::{Feed, Snapshot, fs};

/// Builds a snapshot folder from the reference files overlaid with `case`'s files.
fn overlay(case: &str) -> TempDir {
    let dir = TempDir::new(case);
    for feed in Feed::ALL {
        let over = test_support::fixture_path(&format!("snapshot-err/{case}/{}", feed.file_name()));
        let from = if over.exists() {
            over
        } else {
            test_support::fixture_path(&format!("snapshot/{}", feed.file_name()))
        };
        let bytes = std::fs::read(&from).unwrap();
        if bytes != b"DELETE\n" {
            std::fs::write(dir.0.join(feed.file_name()), bytes).unwrap();
        }
    }
    dir
}

#[track_caller]
fn check(case: &str) {
    let dir = overlay(case);
    let err = fs::load_dir(&dir.0).expect_err("the snapshot must be refused");
    let text = err.to_string().replace(&dir.0.display().to_string(), "<dir>");
    test_support::assert_golden(&format!("snapshot-err/{case}/expected.txt"), &format!("{text}\n"));
}

#[test]
fn every_err_fixture_is_refused_with_its_messages() {
    let root = test_support::fixture_path("snapshot-err");
    let mut cases: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "{cases:?}");
    for case in cases {
        check(&case);
    }
}

#[test]
fn reference_snapshot_is_valid_and_embedded() {
    let embedded = Snapshot::reference();
    let from_disk = fs::load_dir(&test_support::fixture_path("snapshot")).unwrap();
    assert_eq!(embedded.files(), from_disk.files());
}

#[test]
fn all_problems_are_reported_not_only_the_first() {
    let dir = overlay("basket_disagrees_with_matrix");
    let err = fs::load_dir(&dir.0).unwrap_err();
    let pointers: Vec<&str> = err.issues().iter().map(|i| i.pointer.as_str()).collect();
    assert_eq!(pointers, ["/specs/0/per_carat", "/specs/1/log", "/specs", "/dcx"]);
}

#[test]
fn depth_uses_the_nearest_carat_key_and_a_tie_goes_to_the_lower() {
    let depth = Snapshot::reference().depth().clone();
    let key = |carat: f64| depth.nearest(carat).unwrap().key.clone();
    assert_eq!(key(1.25), "1.0", "1.25 is as near 1.0 as 1.5");
    assert_eq!(key(1.3), "1.5");
    assert_eq!(key(0.3), "0.3");
    assert_eq!(key(6.0), "6.0");
    assert_eq!(key(3.5), "3.0", "3.5 is as near 3.0 as 4.0");
}

#[test]
fn only_the_embedded_snapshot_is_the_reference() {
    assert!(Snapshot::reference().is_reference());
    let variant = crate::reference::generate_variant("2026-11-21T00:00:00Z", 1.01);
    assert!(!Snapshot::parse(variant).unwrap().is_reference());
    assert_eq!(crate::Source::Embedded.kind(), "embedded");
    assert_eq!(crate::Source::History("h".into()).kind(), "history");
}

#[test]
fn every_feed_of_the_reference_validates_alone() {
    let files = crate::reference::embedded();
    for feed in Feed::ALL {
        assert!(feed.validate(files.get(feed)).is_ok(), "{feed}");
    }
}

/// `Feed::validate` reports what `Snapshot::parse` reports inside that feed, in the same
/// order and words; only the index's basket checks (against the round matrix) come on
/// top in a whole snapshot.
#[test]
fn a_feed_alone_reports_the_issues_the_snapshot_reports_for_it() {
    let (reference, mut compared) = (crate::reference::embedded(), 0);
    for case in std::fs::read_dir(test_support::fixture_path("snapshot-err")).unwrap() {
        let case = case.unwrap().path();
        for feed in Feed::ALL {
            let Ok(bytes) = std::fs::read(case.join(feed.file_name())) else { continue };
            let files = crate::FeedFiles::from_fn(|f| match f == feed {
                true => bytes.clone(),
                false => reference.get(f).to_vec(),
            });
            let whole = Snapshot::parse(files).err();
            let whole: Vec<_> = whole
                .iter()
                .flat_map(|err| err.issues())
                .filter(|issue| issue.feed == feed.file_name())
                .cloned()
                .collect();
            let alone = feed.validate(&bytes).err();
            let alone = alone.as_ref().map_or(&[][..], |err| err.issues());
            let basket = |issue: &&crate::Issue| {
                issue.pointer.starts_with("/specs") || issue.pointer == "/dcx"
            };
            match feed {
                Feed::Index => {
                    assert!(whole.starts_with(alone), "{}: {alone:?} vs {whole:?}", case.display());
                    assert!(whole[alone.len()..].iter().all(|issue| basket(&issue)), "{whole:?}");
                }
                _ => assert_eq!(alone, &whole[..], "{} {feed}", case.display()),
            }
            compared += 1;
        }
    }
    assert!(compared >= 20, "{compared}");
}
