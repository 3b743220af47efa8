//! Tests of `synthetic`: the generator is deterministic and counts its junk, and a build
//! of its market recovers the true shape effects, ratio effects and cushion factor
//! (docs/methodology.md, "Checking the refits on a known market").

use datasets::Snapshot;
use pricing::{Carat, Clarity, Color, Shape};

use super::{Market, SHAPES, TRUE_CUSHION_FACTOR, Written, listings_csv, shape_truth};
use crate::{Build, BuildOptions, InputFormat, ModelSource, build_csv, tests::date};

/// How far a recovered price multiplier may lie from the truth: every point, the root
/// mean square over all points, and their mean (a bias), at 1x and at 10x. Measured
/// over seeds 1 to 8 at 1x: worst 0.036, root mean square 0.010 to 0.012, mean -0.002
/// to +0.002 (docs/methodology.md 9b).
const TOLERANCE_1X: Tolerance = Tolerance { worst: 0.04, rms: 0.015, mean: 0.005 };
const TOLERANCE_10X: Tolerance = Tolerance { worst: 0.025, rms: 0.008, mean: 0.003 };

struct Tolerance {
    worst: f64,
    rms: f64,
    mean: f64,
}

fn build(market: &Market) -> (Build, Written) {
    let (csv, written) = listings_csv(market).expect("generate");
    let build = build_csv(&csv, InputFormat::Native, &BuildOptions::new(date()), None)
        .unwrap_or_else(|err| panic!("the synthetic market builds: {err}"));
    (build, written)
}

/// One recovered quantity: what it is, the build's value, the truth.
struct Recovered {
    what: String,
    estimate: f64,
    truth: f64,
}

impl Recovered {
    fn error(&self) -> f64 {
        self.estimate - self.truth
    }
}

/// The median over the cells of the band keys in `min..max` (`max` open) of the cushion
/// matrix over the round matrix: the cushion level the build publishes there.
fn cushion_level(snapshot: &Snapshot, min: f64, max: Option<f64>) -> f64 {
    let pricing = snapshot.pricing();
    let mut ratios = Vec::new();
    for &key in pricing.round().bands() {
        if key < min || max.is_some_and(|max| key >= max) || key > 5.0 {
            continue;
        }
        let carat = Carat::new(key).expect("carat");
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                ratios.push(
                    pricing.cushion().per_carat(carat, color, clarity)
                        / pricing.round().per_carat(carat, color, clarity),
                );
            }
        }
    }
    crate::matched::median(&mut ratios)
}

/// Every refitted point of every shape against the truth at its ratio (price
/// multipliers against the round, so the cushion level counts for cushion-based
/// shapes), and the cushion factor per model band.
fn recovered(build: &Build) -> Vec<Recovered> {
    let snapshot = Snapshot::parse(build.files.clone()).expect("valid snapshot");
    let mut out = Vec::new();
    for truth in &SHAPES {
        let source = build.report.ratio_models.iter().find(|r| r.shape == truth.shape.as_str());
        assert!(
            matches!(source.map(|r| &r.source), Some(ModelSource::Refit { bands: 3, .. })),
            "{} refitted in its three bands: {source:?}",
            truth.shape
        );
        let model = snapshot.pricing().ratios().get(truth.shape).expect("model");
        for band in model.bands() {
            let (min, max) = (band.min_carat(), band.max_carat());
            let level = if truth.on_cushion { cushion_level(&snapshot, min, max) } else { 1.0 };
            let base = if truth.on_cushion { TRUE_CUSHION_FACTOR } else { 1.0 };
            for point in band.points() {
                out.push(Recovered {
                    what: format!("{} {min}..{max:?} ct at L/W {}", truth.shape, point.ratio),
                    estimate: level * model.mode().multiplier(point.value),
                    truth: base * truth.multiplier(point.ratio),
                });
            }
            if truth.shape == Shape::Cushion {
                // The factor the build implies at each point, their median.
                let mut implied: Vec<f64> = band
                    .points()
                    .iter()
                    .map(|p| level * model.mode().multiplier(p.value) / truth.multiplier(p.ratio))
                    .collect();
                out.push(Recovered {
                    what: format!("cushion factor {min}..{max:?} ct"),
                    estimate: crate::matched::median(&mut implied),
                    truth: TRUE_CUSHION_FACTOR,
                });
            }
        }
    }
    out
}

/// Asserts the recovered quantities within `tolerance`, printing them all.
#[track_caller]
fn assert_recovered(build: &Build, tolerance: &Tolerance) -> Vec<Recovered> {
    let recovered = recovered(build);
    for r in &recovered {
        eprintln!("{:<44} {:.4} truth {:.4} error {:+.4}", r.what, r.estimate, r.truth, r.error());
    }
    let n = recovered.len() as f64;
    let rms = (recovered.iter().map(|r| r.error().powi(2)).sum::<f64>() / n).sqrt();
    let mean = recovered.iter().map(Recovered::error).sum::<f64>() / n;
    let worst = recovered.iter().map(|r| r.error().abs()).fold(0.0, f64::max);
    eprintln!("worst {worst:.4}, root mean square {rms:.4}, mean {mean:+.4}");
    for r in &recovered {
        assert!(
            r.error().abs() <= tolerance.worst,
            "{}: {:.4} against the truth {:.4}",
            r.what,
            r.estimate,
            r.truth
        );
    }
    assert!(rms <= tolerance.rms, "root mean square error {rms}");
    assert!(mean.abs() <= tolerance.mean, "mean error {mean}");
    recovered
}

#[test]
fn the_same_seed_writes_the_same_bytes() {
    let market = Market { junk_share: 0.05, ..Market::default() };
    let (first, written) = listings_csv(&market).expect("generate");
    assert_eq!(listings_csv(&market).expect("again").0, first);
    let other = listings_csv(&Market { seed: 2, ..market }).expect("seed 2").0;
    assert_ne!(other, first);
    assert_eq!(first.lines().next(), Some(super::HEADER));
    assert_eq!(written.rows, market.rows());
    assert_eq!(first.lines().count() as u64, written.rows + 1);
    assert_eq!(
        written.listings + written.unparseable + written.impossible + written.mispriced,
        written.rows
    );
    let junk = (written.rows - written.listings) as f64 / written.rows as f64;
    assert!((junk - 0.05).abs() < 0.005, "junk share {junk}");
}

#[test]
fn a_multiple_draws_that_many_times_the_listings() {
    let one = Market { junk_share: 0.0, ..Market::default() };
    let (_, written) = listings_csv(&Market { multiple: 3, ..one }).expect("3x");
    assert_eq!(written.rows, 3 * one.rows());
    assert_eq!(written.listings, written.rows);
}

#[test]
fn bad_parameters_are_refused_with_what_is_allowed() {
    let refused = |market: Market| listings_csv(&market).expect_err("refused");
    assert_eq!(refused(Market::at(0)), "multiple must be 1..=1000, got 0");
    assert_eq!(refused(Market { noise: 2.0, ..Market::default() }), "noise must be 0..=1, got 2");
    assert_eq!(
        refused(Market { junk_share: -0.1, ..Market::default() }),
        "junk share must be 0..=1, got -0.1"
    );
}

#[test]
fn without_noise_every_listing_asks_its_true_price() {
    let market = Market { noise: 0.0, junk_share: 0.0, ..Market::default() };
    let (csv, _) = listings_csv(&market).expect("generate");
    let (listings, counts) = crate::read_listings(&csv, InputFormat::Native);
    assert_eq!(counts.rejected.total(), 0);
    let truth = super::Truth::new();
    for listing in &listings {
        let ratio = listing.lw_ratio.unwrap_or(1.0);
        let expected =
            truth.per_carat(listing.shape, ratio, listing.carat, listing.color, listing.clarity);
        let per_carat = listing.per_carat();
        // Prices are written to the dollar.
        assert!((per_carat - expected).abs() * listing.carat <= 0.5 + 1e-9, "{listing:?}");
    }
    let oval = shape_truth(Shape::Oval).expect("oval");
    assert_eq!(oval.multiplier(1.45), 0.85, "oval: 15 % under the round at L/W 1.45");
    assert!((oval.multiplier(1.35) - 0.82).abs() < 1e-12, "linear between the points");
    assert_eq!(oval.multiplier(1.0), 0.79, "flat beyond the first point");
}

#[test]
fn a_build_counts_the_junk_the_generator_wrote() {
    let (build, written) = build(&Market::default());
    let report = &build.report;
    assert_eq!(report.rows_in, written.rows);
    assert_eq!(report.rejected.unparseable, written.unparseable);
    assert_eq!(report.rejected.impossible, written.impossible);
    assert_eq!(report.rejected.out_of_scope + report.rejected.duplicate, 0);
    assert_eq!(report.rows_used, written.listings + written.mispriced);
    let screened: u32 = report.round.cells.iter().map(|c| c.screened).sum();
    assert!(screened > 0, "mispriced rounds are screened");
}

/// 1x (25,800 rows): every refitted point near the truth at its ratio, the cushion
/// factor, and the oval's -15 % read as -15 ± 3 %.
#[test]
fn a_build_recovers_the_truth_at_1x() {
    let (build, _) = build(&Market::default());
    let recovered = assert_recovered(&build, &TOLERANCE_1X);
    let oval = recovered
        .iter()
        .filter(|r| r.what.starts_with("oval 1..Some(2.0)"))
        .min_by(|a, b| (a.truth - 0.85).abs().total_cmp(&(b.truth - 0.85).abs()))
        .expect("oval points");
    assert!((oval.estimate - 0.85).abs() <= 0.03 + (oval.truth - 0.85).abs(), "oval -15 %");
}

/// 10x (258,000 rows): the same, closer. About 30 s in a debug build: `.ci/run` runs
/// it in release (`cargo test -p methodology --release -- --ignored`).
#[test]
#[ignore = "258,000 rows; run in release by .ci/run"]
fn a_build_recovers_the_truth_at_10x() {
    let (build, _) = build(&Market::at(10));
    assert_recovered(&build, &TOLERANCE_10X);
}

/// Ten percent junk rows (a fifth of them mispriced in scope) move no refit out of the
/// 1x tolerance.
#[test]
fn a_build_recovers_the_truth_through_ten_percent_junk() {
    let (build, written) = build(&Market { junk_share: 0.10, ..Market::default() });
    assert!(written.mispriced > 500, "{written:?}");
    assert_recovered(&build, &TOLERANCE_1X);
}
