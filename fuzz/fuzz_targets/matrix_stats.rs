//! Fuzz target: the spread file's parser (`datasets::validate_stats`, then
//! `Snapshot::with_stats` against the reference snapshot, as a server loads a day's
//! `matrix_stats.json`). Input: the file's bytes; seeds are the reference
//! `matrix_stats.json` and a cut-down copy of it (`fuzz/seeds/matrix_stats`).
//!
//! Checked for every input: no panic; a refusal names at least one issue, each in
//! `matrix_stats.json`, located by a JSON pointer (empty or starting with `/`), with a
//! message that stays bounded whatever the input repeats. For a file that validates: the
//! same JSON pretty-printed validates too, and once it is accepted beside the reference
//! snapshot every quote's evidence is a finite range, low at most high.
#![no_main]

use std::sync::LazyLock;

use datasets::{MATRIX_STATS_FILE, Snapshot};
use libfuzzer_sys::fuzz_target;
use pricing::{Clarity, Color, QuoteRequest, Shape};

static REFERENCE: LazyLock<Snapshot> = LazyLock::new(Snapshot::reference);

/// The longest message an issue may carry: every input it repeats is clipped to 64
/// characters, so a message is its fixed words and a few clipped values.
const MESSAGE_BYTES_MAX: usize = 2048;

fuzz_target!(|data: &[u8]| {
    match datasets::validate_stats(data) {
        Err(err) => refused(&err),
        Ok(()) => {
            let value: serde_json::Value = serde_json::from_slice(data).expect("valid is JSON");
            let pretty = serde_json::to_vec_pretty(&value).expect("a JSON value serializes");
            if let Err(err) = datasets::validate_stats(&pretty) {
                panic!("valid, but not once pretty-printed: {err}");
            }
            match REFERENCE.clone().with_stats(data.to_vec()) {
                Err(err) => refused(&err),
                Ok(snapshot) => evidence_is_a_range(&snapshot),
            }
        }
    }
});

fn refused(err: &datasets::Error) {
    assert!(!err.issues().is_empty(), "refused without an issue");
    for issue in err.issues() {
        assert_eq!(issue.feed, MATRIX_STATS_FILE);
        assert!(issue.pointer.is_empty() || issue.pointer.starts_with('/'), "{issue}");
        assert!(!issue.message.is_empty(), "{issue}");
        assert!(issue.message.len() <= MESSAGE_BYTES_MAX, "{} bytes", issue.message.len());
    }
}

fn evidence_is_a_range(snapshot: &Snapshot) {
    for (carat, shape, ratio) in
        [(0.3, Shape::Round, None), (1.0, Shape::Round, None), (2.5, Shape::Oval, Some(1.4))]
    {
        for (color, clarity) in [(Color::D, Clarity::Fl), (Color::G, Clarity::Vs2)] {
            let request = QuoteRequest { carat, color, clarity, shape, ratio };
            let Ok(quote) = snapshot.quote(&request) else { continue };
            let evidence = snapshot.evidence(&quote).expect("a snapshot with stats has evidence");
            let range = evidence.range;
            assert!(range.low_usd.is_finite() && range.high_usd.is_finite(), "{range:?}");
            assert!(range.low_usd <= range.high_usd, "{range:?}");
        }
    }
}
