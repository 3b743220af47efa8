//! Tests of `ratio`: refit from fancy listings, carry-over and the reference fallback.

use datasets::{Feed, History, Snapshot};
use pricing::{Clarity, Color, Shape};

use super::{ModelSource, from_bytes, ratio_models};
use crate::{
    listing::{Finish, Listing},
    market::CellAsks,
    matched::RoundReference,
    tests::date,
};

#[test]
fn reference_models_when_there_is_no_history() {
    let reference = Snapshot::reference();
    let pricing = reference.pricing();
    let (file, sources) = ratio_models(&[], None, pricing.round(), &[0.0; 12], None, date(), "ts");
    assert_eq!(sources.len(), Shape::FANCY.len());
    assert!(sources.iter().all(|(_, s)| *s == ModelSource::Reference));
    let expected = from_bytes(reference.files().get(Feed::RatioModels)).expect("read");
    assert_eq!(file.version, expected.version);
    assert_eq!(file.ts, "ts");
    assert!(file.shapes.0.iter().all(|(_, m)| m.source.as_deref() == Some("reference")));
}

#[test]
fn carried_over_from_the_newest_earlier_day() {
    let history = History::single(Snapshot::reference());
    let pricing = history.live().pricing().clone();
    let (file, sources) =
        ratio_models(&[], None, pricing.round(), &[0.0; 12], Some(&history), date(), "ts");
    assert!(file.shapes.0.iter().all(|(_, m)| m.source.as_deref() == Some("carried")));
    assert!(
        sources
            .iter()
            .all(|(_, s)| *s == ModelSource::CarriedOver { from: "2026-11-20".to_owned() })
    );
}

/// Round listings at 0.5 ct G VS2 asking `level` times the matrix, and nine ovals at
/// ratios 1.30..1.54 asking 20 % .. 12 % under those rounds.
fn rounds_and_ovals(level: f64) -> Vec<Listing> {
    let reference = Snapshot::reference();
    let carat = pricing::Carat::new(0.5).expect("carat");
    let base = reference.pricing().round().per_carat(carat, Color::G, Clarity::Vs2) * 0.5;
    let listing =
        |shape, price| Listing::new(0.5, Color::G, Clarity::Vs2, shape, Finish::Excellent, price);
    let mut listings: Vec<Listing> =
        [0.9, 1.0, 1.1].iter().map(|k| listing(Shape::Round, base * level * k)).collect();
    listings.extend((0..9).map(|i| {
        let discount = 0.20 - 0.01 * i as f64;
        let mut l = listing(Shape::Oval, base * level * (1.0 - discount));
        l.lw_ratio = Some(1.30 + 0.03 * i as f64);
        l
    }));
    listings
}

/// Fits the models of `listings` against the reference round matrix.
fn fit(listings: &[Listing]) -> (datasets::wire::RatioModelsFile, Vec<(Shape, ModelSource)>) {
    let reference = Snapshot::reference();
    let round = reference.pricing().round();
    let rounds: Vec<Listing> =
        listings.iter().filter(|l| l.shape == Shape::Round).cloned().collect();
    let rounds = RoundReference::new(&CellAsks::of(&rounds), round);
    ratio_models(listings, rounds.as_ref(), round, &[0.7f64.ln(); 12], None, date(), "ts")
}

#[test]
fn refit_from_oval_listings_with_ratios() {
    let (file, sources) = fit(&rounds_and_ovals(1.0));
    let oval = sources.iter().find(|(s, _)| *s == Shape::Oval).expect("oval");
    assert_eq!(oval.1, ModelSource::Refit { bands: 1, listings: 9 });
    assert_eq!(file.version, "fit-2026-11-21");
    let model = &file.shapes.0.iter().find(|(name, _)| name == "oval").expect("oval").1;
    assert_eq!(model.source.as_deref(), Some("refit"));
    let pear_model = &file.shapes.0.iter().find(|(name, _)| name == "pear").expect("pear").1;
    assert_eq!(pear_model.source.as_deref(), Some("reference"));
    let bytes = datasets::wire::to_bytes(&file);
    let text = String::from_utf8(bytes).expect("utf-8");
    assert!(text.contains("\"source\": \"refit\""), "the feed says it");
    let points = &model.bands[0].points;
    assert_eq!(points.len(), 3);
    assert_eq!((points[0].ratio, points[0].value), (1.33, -19.0));
    assert_eq!((points[2].ratio, points[2].value), (1.51, -13.0));
    // The other shapes keep the reference models.
    let pear = sources.iter().find(|(s, _)| *s == Shape::Pear).expect("pear");
    assert_eq!(pear.1, ModelSource::Reference);
}

/// Like with like: the fancy asks are read against the round asks of their cell, so the
/// level of both against the matrix (a low quantile, or an old matrix) cancels.
#[test]
fn the_round_asks_level_against_the_matrix_cancels() {
    let points = |level: f64| {
        let (file, _) = fit(&rounds_and_ovals(level));
        let model = &file.shapes.0.iter().find(|(name, _)| name == "oval").expect("oval").1;
        model.bands[0].points.iter().map(|p| (p.ratio, p.value)).collect::<Vec<_>>()
    };
    let expected = vec![(1.33, -19.0), (1.42, -16.0), (1.51, -13.0)];
    for level in [0.8, 1.0, 1.25] {
        assert_eq!(points(level), expected, "rounds at {level} x the matrix");
    }
}

#[test]
fn without_rounds_to_compare_with_nothing_is_refitted() {
    let ovals: Vec<Listing> =
        rounds_and_ovals(1.0).into_iter().filter(|l| l.shape == Shape::Oval).collect();
    let (_, sources) = fit(&ovals);
    assert!(sources.iter().all(|(_, s)| *s == ModelSource::Reference), "{sources:?}");
}

#[test]
fn junk_fancy_asks_do_not_move_a_refit() {
    let mut listings = rounds_and_ovals(1.0);
    let mut absurd = listings.last().expect("oval").clone();
    absurd.price *= 10.0;
    listings.push(absurd);
    let (file, sources) = fit(&listings);
    let oval = sources.iter().find(|(s, _)| *s == Shape::Oval).expect("oval");
    assert_eq!(oval.1, ModelSource::Refit { bands: 1, listings: 9 }, "the absurd ask is dropped");
    let model = &file.shapes.0.iter().find(|(name, _)| name == "oval").expect("oval").1;
    assert_eq!(model.bands[0].points[2].value, -13.0);
}

/// A model based on the cushion matrix reads each listing over the cushion factor of its
/// band: radiants asking 0.7 x 0.95 the rounds of their cells, with a factor of 0.7,
/// read -5 %.
#[test]
fn a_cushion_based_model_reads_over_the_cushion_factor() {
    let mut listings = rounds_and_ovals(1.0);
    for listing in listings.iter_mut().filter(|l| l.shape == Shape::Oval) {
        listing.shape = Shape::Radiant;
        listing.price *= 0.7 * 0.95;
        listing.lw_ratio = listing.lw_ratio.map(|r| r - 0.3);
    }
    let (file, _) = fit(&listings);
    let model = &file.shapes.0.iter().find(|(name, _)| name == "radiant").expect("radiant").1;
    assert_eq!(model.data_source, "cushion");
    assert_eq!(model.source.as_deref(), Some("refit"));
    let values: Vec<f64> = model.bands[0].points.iter().map(|p| p.value).collect();
    // The ovals' discounts (19, 16, 13 %) times 0.95 over the factor.
    let expected: Vec<f64> = [0.81f64, 0.84, 0.87]
        .iter()
        .map(|m| ((m * 0.95 - 1.0) * 10_000.0).round() / 100.0)
        .collect();
    assert_eq!(values, expected);
}
