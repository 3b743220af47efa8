//! Tests of `matched`: the round reference of a cell, its fallbacks, and junk.

use datasets::Snapshot;
use pricing::{Clarity, Color, PriceMatrix, Shape};

use super::RoundReference;
use crate::{
    listing::{Finish, Listing},
    market::CellAsks,
    scope::band_of,
};

fn round() -> PriceMatrix {
    Snapshot::reference().pricing().round().clone()
}

/// A listing of `shape` at `carat` asking `factor` times its cell of the reference round
/// matrix (per carat).
fn listing(shape: Shape, carat: f64, color: Color, factor: f64) -> Listing {
    let per_carat = round().ln_at_band(band_of(carat), color, Clarity::Vs2).exp();
    Listing::new(carat, color, Clarity::Vs2, shape, Finish::Excellent, per_carat * carat * factor)
}

/// The reference of the round listings among `listings`.
fn reference(listings: &[Listing]) -> Option<RoundReference> {
    let rounds: Vec<Listing> =
        listings.iter().filter(|l| l.shape == Shape::Round).cloned().collect();
    RoundReference::new(&CellAsks::of(&rounds), &round())
}

#[track_caller]
fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-12, "{actual} != {expected}");
}

#[test]
fn a_listing_is_measured_against_the_median_round_of_its_cell() {
    let listings = vec![
        listing(Shape::Round, 1.0, Color::G, 1.00),
        listing(Shape::Round, 1.2, Color::G, 1.20),
        listing(Shape::Round, 1.4, Color::G, 1.10),
        listing(Shape::Oval, 1.3, Color::G, 1.10 * 0.85),
    ];
    let reference = reference(&listings).expect("rounds");
    assert_close(reference.relative(&listings[3], &round()).expect("oval"), 0.85f64.ln());
}

#[test]
fn a_cell_with_too_few_rounds_borrows_its_band_then_the_market() {
    let listings = vec![
        // 1.0 ct G VS2: three rounds at 1.0, 1.1 and 1.2 x the matrix (median 1.1).
        listing(Shape::Round, 1.0, Color::G, 1.0),
        listing(Shape::Round, 1.0, Color::G, 1.1),
        listing(Shape::Round, 1.0, Color::G, 1.2),
        // 1.0 ct H VS2: two rounds, too few for a cell reference.
        listing(Shape::Round, 1.0, Color::H, 1.5),
        listing(Shape::Round, 1.0, Color::H, 1.5),
        // 0.5 ct: one round; its band has too few, so the market's median counts.
        listing(Shape::Round, 0.5, Color::G, 1.3),
        listing(Shape::Pear, 1.0, Color::H, 1.2),
        listing(Shape::Pear, 0.5, Color::G, 1.2),
        listing(Shape::Pear, 1.0, Color::G, 1.1),
    ];
    let reference = reference(&listings).expect("rounds");
    // 1.0 ct G VS2 has three rounds of its own (median 1.1): its pear is measured
    // against them, not against its band's median of 1.2.
    assert_close(reference.relative(&listings[8], &round()).expect("pear"), 0.0);
    // Band 1.0: 1.0, 1.1, 1.2, 1.5, 1.5, median 1.2.
    assert_close(reference.relative(&listings[6], &round()).expect("pear"), 0.0);
    // All six rounds: median of 1.0, 1.1, 1.2, 1.3, 1.5, 1.5 is between 1.2 and 1.3.
    let all = (1.2f64.ln() + 1.3f64.ln()) / 2.0;
    assert_close(reference.relative(&listings[7], &round()).expect("pear"), 1.2f64.ln() - all);
}

#[test]
fn junk_counts_on_neither_side() {
    let listings = vec![
        listing(Shape::Round, 1.0, Color::G, 1.0),
        listing(Shape::Round, 1.0, Color::G, 1.0),
        listing(Shape::Round, 1.0, Color::G, 1.0),
        // Far beyond the neighbour factor: not part of the reference.
        listing(Shape::Round, 1.0, Color::G, 30.0),
        listing(Shape::Round, 1.0, Color::G, 30.0),
        listing(Shape::Oval, 1.0, Color::G, 0.8),
        listing(Shape::Oval, 1.0, Color::G, 0.03),
    ];
    let reference = reference(&listings).expect("rounds");
    assert_close(reference.relative(&listings[5], &round()).expect("oval"), 0.8f64.ln());
    assert_eq!(reference.relative(&listings[6], &round()), None, "a junk fancy ask");
}

#[test]
fn no_round_listing_no_reference() {
    let listings = vec![listing(Shape::Oval, 1.0, Color::G, 0.8)];
    assert!(reference(&listings).is_none());
}
