//! Tests of `ratio`: refit from fancy listings, carry-over and the reference fallback.

use chrono::NaiveDate;
use datasets::{Feed, History, Snapshot};
use pricing::{Clarity, Color, Shape};

use super::{ModelSource, from_bytes, ratio_models};
use crate::{
    listing::{Finish, Listing},
    scope::Used,
};

fn date() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 21).expect("date")
}

#[test]
fn reference_models_when_there_is_no_history() {
    let reference = Snapshot::reference();
    let pricing = reference.pricing();
    let (file, sources) = ratio_models(&[], pricing.round(), pricing.cushion(), None, date(), "ts");
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
        ratio_models(&[], pricing.round(), pricing.cushion(), Some(&history), date(), "ts");
    assert!(file.shapes.0.iter().all(|(_, m)| m.source.as_deref() == Some("carried")));
    assert!(
        sources
            .iter()
            .all(|(_, s)| *s == ModelSource::CarriedOver { from: "2026-11-20".to_owned() })
    );
}

#[test]
fn refit_from_oval_listings_with_ratios() {
    let reference = Snapshot::reference();
    let round = reference.pricing().round();
    let carat = pricing::Carat::new(0.5).expect("carat");
    let base = round.per_carat(carat, Color::G, Clarity::Vs2);
    // Nine ovals at 0.5 ct: ratios 1.30..1.54, priced 20 % .. 12 % below the round.
    let listings: Vec<Listing> = (0..9)
        .map(|i| {
            let discount = 0.20 - 0.01 * i as f64;
            let mut l = Listing::new(
                0.5,
                Color::G,
                Clarity::Vs2,
                Shape::Oval,
                Finish::Excellent,
                base * (1.0 - discount) * 0.5,
            );
            l.lw_ratio = Some(1.30 + 0.03 * i as f64);
            l
        })
        .collect();
    let used: Vec<Used<'_>> = listings.iter().map(|listing| Used { listing }).collect();
    let (file, sources) =
        ratio_models(&used, round, reference.pricing().cushion(), None, date(), "ts");
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
