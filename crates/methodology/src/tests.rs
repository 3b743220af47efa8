//! End-to-end builds on real listings: the ggplot2 `diamonds` data set.
//!
//! `DIAMONDS_CSV=path` builds the full file (fetch it with `scripts/fetch-diamonds.sh`);
//! without it the committed sample (`fixtures/listings/diamonds-sample.csv`, every 120th
//! row) is built, and the same properties are asserted.

use chrono::NaiveDate;
use datasets::{Feed, Snapshot};
use pricing::{BasketEntry, Carat, Clarity, Color, PriceMatrix};

use crate::{Build, BuildOptions, InputFormat, Provenance, build_csv};

/// Observed cells may move this far from their selected ask when smoothing makes the
/// matrix monotone (see `docs/methodology.md`, "Checks").
const MAX_OBSERVED_DRIFT: f64 = 0.25;

fn date() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 21).expect("valid date")
}

fn diamonds() -> (String, &'static str) {
    match std::env::var("DIAMONDS_CSV") {
        Ok(path) if !path.is_empty() => (
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("DIAMONDS_CSV={path}: {e}")),
            "full data set (DIAMONDS_CSV)",
        ),
        _ => (
            test_support::fixture("listings/diamonds-sample.csv"),
            "committed sample (set DIAMONDS_CSV for the full data set)",
        ),
    }
}

/// Asserts that no cell of `matrix` is dearer than a better grade or a larger band.
#[track_caller]
pub(crate) fn assert_monotone(matrix: &PriceMatrix, name: &str) {
    for band in 0..matrix.bands().len() {
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                let here = matrix.ln_at_band(band, color, clarity);
                if let Some(&worse) = Color::ALL.get(color.index() + 1) {
                    assert!(
                        here >= matrix.ln_at_band(band, worse, clarity),
                        "{name} {band} {color}"
                    );
                }
                if let Some(&worse) = Clarity::ALL.get(clarity.index() + 1) {
                    assert!(
                        here >= matrix.ln_at_band(band, color, worse),
                        "{name} {band} {clarity}"
                    );
                }
                if band > 0 {
                    assert!(here >= matrix.ln_at_band(band - 1, color, clarity), "{name} {band}");
                }
            }
        }
    }
}

/// Every property a published build must have.
#[track_caller]
pub(crate) fn assert_sound(build: &Build) -> Snapshot {
    let snapshot = Snapshot::parse(build.files.clone()).expect("the build validates");
    assert_monotone(snapshot.pricing().round(), "round");
    assert_monotone(snapshot.pricing().cushion(), "cushion");
    for matrix in [&build.report.round, &build.report.cushion] {
        assert_eq!(matrix.cells.len(), 960);
        for band in &matrix.bands {
            let filled =
                band.observed + band.thin + band.looked_back + band.modelled + band.derived;
            assert_eq!(filled, 80, "band {} has unreported cells", band.band);
        }
        for cell in matrix.cells.iter().filter(|c| c.provenance.is_observed()) {
            let ask = cell.ask.expect("observed cells have an ask");
            let drift = (cell.per_carat / ask - 1.0).abs();
            assert!(drift <= MAX_OBSERVED_DRIFT, "{cell:?} drifted {drift:.3} from its ask");
        }
    }
    let index = snapshot.index();
    let entries: Vec<BasketEntry> = index
        .specs
        .iter()
        .map(|s| BasketEntry {
            weight: s.weight,
            per_carat: snapshot.pricing().round().per_carat(
                Carat::new(s.carat).expect("basket carat"),
                s.color,
                s.clarity,
            ),
        })
        .collect();
    let mean = pricing::weighted_geometric_mean(&entries).expect("basket");
    assert_eq!(index.dcx, pricing::round_cents(mean));
    assert_eq!(index.dcx, build.report.dcx);
    snapshot
}

#[test]
fn diamonds_build_is_sound_and_deterministic() {
    let (text, which) = diamonds();
    eprintln!("building the {which}");
    let options = BuildOptions::new(date());
    let first = build_csv(&text, InputFormat::Diamonds, &options, None).expect("build");
    let report = &first.report;
    eprint!("{}", report.summary());
    assert_sound(&first);
    assert_eq!(report.rows_in, text.lines().count() as u64 - 1);
    assert_eq!(report.rows_in, report.rows_used + report.rejected.total());
    assert!(report.rejected.out_of_scope > 0, "I1 and non-top cuts are out of scope");
    let [observed, ..] = report.round.totals();
    assert!(observed > 0);
    let second = build_csv(&text, InputFormat::Diamonds, &options, None).expect("build");
    for feed in Feed::ALL {
        assert_eq!(first.files.get(feed), second.files.get(feed), "{feed} differs");
    }
    assert_eq!(first.report, second.report);
    let drift = report
        .round
        .cells
        .iter()
        .filter(|c| c.provenance == Provenance::Observed)
        .map(|c| (c.per_carat / c.ask.unwrap_or(c.per_carat) - 1.0).abs())
        .fold(0.0, f64::max);
    eprintln!("largest drift of an observed cell from its ask: {:.1} %", drift * 100.0);
}
