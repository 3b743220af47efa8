//! End-to-end builds on real listings: the ggplot2 `diamonds` data set.
//!
//! `DIAMONDS_CSV=path` builds the full file (fetch it with `scripts/fetch-diamonds.sh`);
//! without it the committed sample (`fixtures/listings/diamonds-sample.csv`, every 120th
//! row) is built, and the same properties are asserted.

use chrono::NaiveDate;
use datasets::{Feed, Snapshot};
use pricing::{BasketEntry, Carat, Clarity, Color, PriceMatrix};

use crate::{Build, BuildOptions, InputFormat, build_csv};

/// Observed cells may move this far from their selected ask when smoothing makes the
/// matrix monotone (see `docs/methodology.md`, "Checks").
const MAX_OBSERVED_DRIFT: f64 = 0.25;

pub(crate) fn date() -> NaiveDate {
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
    let mut drifts: Vec<(f64, &crate::CellReport)> = report
        .round
        .cells
        .iter()
        .filter(|c| c.provenance.is_observed())
        .map(|c| ((c.per_carat / c.ask.unwrap_or(c.per_carat) - 1.0).abs(), c))
        .collect();
    drifts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let median = drifts.get(drifts.len() / 2).map_or(0.0, |d| d.0);
    eprintln!("observed-cell drift from the ask: median {:.1} %", median * 100.0);
    for (drift, cell) in drifts.iter().take(3) {
        eprintln!("  {:.1} %: {cell:?}", drift * 100.0);
    }
}

/// Three asks per cell of `bands` for `shape`, from a smooth log-linear surface.
pub(crate) fn synthetic(shape: pricing::Shape, bands: &[f64], level: f64) -> Vec<crate::Listing> {
    let mut out = Vec::new();
    for &carat in bands {
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                let ln = level - 0.06 * color.index() as f64 - 0.05 * clarity.index() as f64
                    + 0.7 * carat.ln();
                for k in 0..3 {
                    let per_carat = ln.exp() * (1.0 + 0.01 * k as f64);
                    out.push(crate::Listing::new(
                        carat,
                        color,
                        clarity,
                        shape,
                        crate::Finish::Excellent,
                        per_carat * carat,
                    ));
                }
            }
        }
    }
    out
}

/// The refusal inside a refused build's error.
#[track_caller]
pub(crate) fn refusal(err: &crate::Error) -> &crate::Refusal {
    match err {
        crate::Error::Gate(refusal) => refusal,
        other => panic!("expected a refusal, got {other}"),
    }
}

pub(crate) fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("methodology-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn synthetic_build_observes_and_reports_every_stage() {
    use pricing::Shape;
    let mut listings = synthetic(Shape::Round, &[0.3, 0.5, 1.0, 2.0], 8.0);
    listings.extend(synthetic(Shape::Cushion, &[0.5, 1.0], 7.7));
    let mut stages = Vec::new();
    let mut record = |stage: crate::Stage| stages.push(stage);
    let build =
        crate::build(&listings, &BuildOptions::new(date()), Some(&mut record)).expect("build");
    assert_eq!(stages.first(), Some(&crate::Stage::Filtering));
    assert_eq!(stages.last(), Some(&crate::Stage::Validating));
    assert_sound(&build);
    let report = &build.report;
    assert_eq!(report.round.totals(), [320, 0, 0, 640, 0]);
    assert_eq!(report.cushion.fallback, None, "cushion listings give a cushion matrix");
    assert_eq!(report.cushion.totals()[0], 160);
    // A monotone surface needs no smoothing of observed cells.
    assert!(report.round.cells.iter().filter(|c| c.provenance.is_observed()).all(|c| !c.smoothed));
    let json = serde_json::to_string(report).expect("report serializes");
    assert!(json.contains("\"provenance\":\"observed\""));
}

#[test]
fn no_listings_and_no_history_is_an_error() {
    let err = crate::build(&[], &BuildOptions::new(date()), None).expect_err("no data");
    assert_eq!(refusal(&err).refused, "the input has no data rows");
}

#[test]
fn bad_basket_is_an_error() {
    let mut options = BuildOptions::new(date());
    options.basket[0].weight = 0.5;
    let listings = synthetic(pricing::Shape::Round, &[0.5, 1.0], 8.0);
    let err = crate::build(&listings, &options, None).expect_err("weights");
    assert!(err.to_string().starts_with("invalid basket: weights sum to"), "{err}");
}

#[test]
fn history_gives_look_back_trends_and_carry_over_and_publish_is_atomic() {
    use pricing::Shape;
    let dir = temp_dir("history");
    let day = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d).expect("date");
    // Day 1: a full build. Day 2: only 1.0 ct listings, 2 % dearer; the rest looked back.
    let first = crate::build(
        &synthetic(Shape::Round, &[0.3, 0.5, 1.0, 2.0], 8.0),
        &BuildOptions::new(day(1)),
        None,
    )
    .expect("day 1");
    let path = crate::publish(&dir, day(1), &first.files, false).expect("publish");
    assert_eq!(path, dir.join("2026-11-01"));
    let refused = crate::publish(&dir, day(1), &first.files, false).expect_err("exists");
    assert!(matches!(refused, crate::Error::Publish { .. }), "{refused}");
    let wrong_day = crate::publish(&dir, day(3), &first.files, false).expect_err("date");
    assert!(matches!(wrong_day, crate::Error::Refused { .. }), "{wrong_day}");
    assert!(!dir.join("2026-11-03").exists());

    let (history, notes) = datasets::History::load(&dir).expect("load");
    assert!(notes.is_empty());
    let mut options = BuildOptions::new(day(2));
    options.history = Some(&history);
    let listings = synthetic(Shape::Round, &[1.0], 8.0 + 0.02f64.ln_1p());
    let second = crate::build(&listings, &options, None).expect("day 2");
    assert_sound(&second);
    let report = &second.report;
    assert_eq!(report.round.totals()[..3], [80, 0, 880]);
    let back = report.round.cells.iter().find(|c| c.band == "0.3").expect("cell");
    assert_eq!(back.looked_back_from.as_deref(), Some("2026-11-01"));
    assert!(report.trend > 0.0, "1.0 ct prices rose: {}", report.trend);
    assert_eq!((report.trend_7d, report.trend_30d), (None, None));
    assert!(
        report
            .ratio_models
            .iter()
            .all(|s| s.source == crate::ModelSource::CarriedOver { from: "2026-11-01".to_owned() })
    );
    crate::publish(&dir, day(2), &second.files, false).expect("publish day 2");
    crate::publish(&dir, day(2), &second.files, true).expect("force replaces");
    let (history, _) = datasets::History::load(&dir).expect("load");
    let summary = crate::history_summary(&history);
    assert_eq!(summary.len(), 2);
    assert_eq!(summary[1], (day(2), report.dcx, report.trend));

    // Past the five-day window nothing is looked back: one observed band cannot carry
    // prices across carats, two can.
    let mut late = BuildOptions::new(day(9));
    late.history = Some(&history);
    let err = crate::build(&listings, &late, None).expect_err("one band");
    assert!(refusal(&err).refused.starts_with("not enough data: 80 observed cells"), "{err}");
    let two = synthetic(Shape::Round, &[0.5, 1.0], 8.0);
    let build = crate::build(&two, &late, None).expect("day 9");
    assert_eq!(build.report.round.totals()[2], 0, "no look-back beyond five days");
    assert_eq!(build.report.trend, 0.0);
    assert!(build.report.trend_7d.is_some(), "2026-11-02 is within the 7-day slack");
    let _ = std::fs::remove_dir_all(&dir);
}
