//! Unit tests for full quotes: base family, multiplier, totals, argument refusals.

use crate::{
    BaseMatrix, Carat, Clarity, Color, QuoteField, Shape, round_cents,
    test_util::{pricing_set, request},
};

#[test]
fn round_is_the_matrix_price() {
    let set = pricing_set();
    let q = set.quote(&request(1.23, Shape::Round, None)).unwrap();
    let expected = set.round().per_carat(Carat::new(1.23).unwrap(), Color::G, Clarity::Vs2);
    assert_eq!(q.per_carat_usd, expected);
    assert_eq!(q.total_usd, expected * 1.23);
    assert_eq!(q.shape_ratio, 1.0);
    assert_eq!(q.base, BaseMatrix::Round);
    assert!(q.fancy.is_none());
}

#[test]
fn round_ratio_must_be_one() {
    let set = pricing_set();
    assert!(set.quote(&request(1.0, Shape::Round, Some(1.04))).is_ok());
    let err = set.quote(&request(1.0, Shape::Round, Some(1.3))).unwrap_err();
    assert_eq!(err.field, QuoteField::Ratio);
    assert_eq!(
        err.message,
        "L/W ratio for a round stone must be 1 (within 0.05), got 1.3; omit it for round stones"
    );
}

#[test]
fn fancy_multiplies_the_family_base() {
    let set = pricing_set();
    // Oval: round base, delta_pct; 1.5 is the 10 % anchor of the first band.
    let q = set.quote(&request(0.5, Shape::Oval, Some(1.5))).unwrap();
    let base = set.round().per_carat(Carat::new(0.5).unwrap(), Color::G, Clarity::Vs2);
    assert_eq!(q.base_per_carat_usd, base);
    assert_eq!(q.per_carat_usd, base * 1.1);
    // Cushion: cushion base.
    let q = set.quote(&request(0.5, Shape::Cushion, Some(1.5))).unwrap();
    assert_eq!(q.base, BaseMatrix::Cushion);
    let base = set.cushion().per_carat(Carat::new(0.5).unwrap(), Color::G, Clarity::Vs2);
    assert_eq!(q.per_carat_usd, base * 1.1);
    // Emerald: percent of base, 70 at 1.5 -> 0.7.
    let q = set.quote(&request(0.5, Shape::Emerald, Some(1.5))).unwrap();
    let base = set.round().per_carat(Carat::new(0.5).unwrap(), Color::G, Clarity::Vs2);
    assert!((q.per_carat_usd - base * 0.7).abs() < 1e-9);
}

#[test]
fn ratio_defaults_to_slider_center() {
    let set = pricing_set();
    let q = set.quote(&request(0.5, Shape::Pear, None)).unwrap();
    assert_eq!(q.shape_ratio, 1.5);
    let fancy = q.fancy.unwrap();
    assert!(fancy.ratio_defaulted);
    assert_eq!(fancy.supported_range, (1.2, 2.0));
}

#[test]
fn preference_driven_ratio_is_clamped_and_reported() {
    let set = pricing_set();
    let q = set.quote(&request(0.5, Shape::Oval, Some(1.9))).unwrap();
    let adj = q.fancy.unwrap().adjustment;
    assert!(adj.preference_driven);
    assert_eq!(adj.applied_ratio, 1.7);
    assert_eq!(q.shape_ratio, 1.9);
    assert_eq!(q.per_carat_usd, q.base_per_carat_usd);
}

#[test]
fn ratio_outside_slider_is_refused_with_bounds() {
    let set = pricing_set();
    let err = set.quote(&request(0.5, Shape::Oval, Some(2.5))).unwrap_err();
    assert_eq!(err.field, QuoteField::Ratio);
    assert_eq!(err.message, "L/W ratio for oval must be between 1.2 and 2, got 2.5");
    assert!(set.quote(&request(0.5, Shape::Oval, Some(f64::NAN))).is_err());
}

#[test]
fn carat_out_of_range_names_the_bounds() {
    let set = pricing_set();
    let err = set.quote(&request(7.0, Shape::Round, None)).unwrap_err();
    assert_eq!(err.field, QuoteField::Carat);
    assert_eq!(err.message, "carat must be between 0.3 and 6, got 7");
    let err = set.quote(&request(f64::NAN, Shape::Round, None)).unwrap_err();
    assert_eq!(err.message, "carat must be between 0.3 and 6, got NaN");
}

#[test]
fn fancy_shape_without_model_is_an_error_not_a_round_price() {
    let full = pricing_set();
    let set = crate::PricingSet::new(
        full.round().clone(),
        full.cushion().clone(),
        crate::RatioModels::default(),
    );
    let err = set.quote(&request(1.0, Shape::Heart, None)).unwrap_err();
    assert_eq!(err.field, QuoteField::Shape);
    assert!(err.message.contains("no ratio model for shape heart"));
}

#[test]
fn cents_round_half_away_from_zero() {
    assert_eq!(round_cents(1.005_000_1), 1.01);
    assert_eq!(round_cents(2.5 / 100.0), 0.03);
    assert_eq!(round_cents(1234.564), 1234.56);
    assert_eq!(round_cents(-0.125), -0.13);
}

#[test]
fn grades_parse_case_insensitively() {
    assert_eq!(Color::parse("g").unwrap(), Color::G);
    assert_eq!(Clarity::parse(" vvs1 ").unwrap(), Clarity::Vvs1);
    assert_eq!(Shape::parse("OVAL").unwrap(), Shape::Oval);
    let err = Color::parse("Z").unwrap_err();
    assert_eq!(err.message(), "unknown color \"Z\"; allowed: D, E, F, G, H, I, J, K, L, M");
    assert!(Clarity::parse("I1").is_err());
    assert!(Shape::parse("princess").unwrap_err().message().contains("round, cushion"));
}

/// Every grade parses back from its spelling, as written (the canonical spelling's
/// `match`) and in other case or with spaces (the scan behind it).
#[test]
fn every_grade_parses_from_its_spelling_in_any_case() {
    fn each<T: Copy + PartialEq + std::fmt::Debug>(
        all: &[T],
        spelling: fn(T) -> &'static str,
        parse: fn(&str) -> Result<T, crate::Error>,
    ) {
        for &grade in all {
            let text = spelling(grade);
            for sent in
                [text.to_owned(), text.to_lowercase(), text.to_uppercase(), format!(" {text}\t")]
            {
                assert_eq!(parse(&sent).unwrap(), grade, "{sent:?}");
            }
        }
    }
    each(Color::ALL, Color::as_str, Color::parse);
    each(Clarity::ALL, Clarity::as_str, Clarity::parse);
    each(Shape::ALL, Shape::as_str, Shape::parse);
}

#[test]
fn a_long_grade_name_is_quoted_cut() {
    let long = "Z".repeat(100_000);
    let err = Color::parse(&long).unwrap_err();
    let expect = format!("unknown color \"{}…\" (100000 bytes); allowed: ", "Z".repeat(64));
    assert!(err.message().starts_with(&expect), "{}", err.message());
}
