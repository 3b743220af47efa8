//! Tests of `cushion`: the cushion factor measured like with like, its fallbacks, and the
//! matrix built from it.

use datasets::Snapshot;
use pricing::{Carat, Clarity, Color, PriceMatrix, Shape};

use super::{CUSHION_FACTOR, MIN_FACTOR_LISTINGS, cushion, factors};
use crate::{
    BuildOptions,
    cells::{Cells, Provenance},
    listing::{Finish, Listing},
    market::CellAsks,
    matched::RoundReference,
    scope::{band_of, cell_value},
    tests::date,
};

fn round() -> PriceMatrix {
    Snapshot::reference().pricing().round().clone()
}

/// `count` listings of `shape` at `carat`, spread over colours and clarities, asking
/// `factor` times the reference round matrix.
fn listings(shape: Shape, carat: f64, count: usize, factor: f64) -> Vec<Listing> {
    let matrix = round();
    (0..count)
        .map(|i| {
            let color = Color::ALL[i % 5];
            let clarity = Clarity::ALL[2 + i / 5 % 6];
            let per_carat = matrix.per_carat(Carat::new(carat).expect("carat"), color, clarity);
            Listing::new(
                carat,
                color,
                clarity,
                shape,
                Finish::Excellent,
                per_carat * carat * factor,
            )
        })
        .collect()
}

/// The cushion factors of `listings` (rounds and cushions).
fn factors_of(listings: &[Listing]) -> super::Factors {
    let of = |shape| {
        let some: Vec<Listing> = listings.iter().filter(|l| l.shape == shape).cloned().collect();
        CellAsks::of(&some)
    };
    let reference = RoundReference::new(&of(Shape::Round), &round());
    factors(&of(Shape::Cushion), reference.as_ref(), &round())
}

#[test]
fn a_band_with_enough_cushions_has_its_own_factor_the_others_the_pooled_one() {
    // Rounds ask 1.1 x the matrix everywhere; cushions 0.7 x those rounds at 1.0 ct,
    // 0.6 x at 2.0 ct and 0.5 x at 0.5 ct (too few in either band for a factor of its
    // own).
    let mut all = listings(Shape::Round, 1.0, 90, 1.1);
    all.extend(listings(Shape::Round, 2.0, 90, 1.1));
    all.extend(listings(Shape::Round, 0.5, 90, 1.1));
    all.extend(listings(Shape::Cushion, 1.0, MIN_FACTOR_LISTINGS, 1.1 * 0.7));
    all.extend(listings(Shape::Cushion, 2.0, 5, 1.1 * 0.6));
    all.extend(listings(Shape::Cushion, 0.5, MIN_FACTOR_LISTINGS - 1, 1.1 * 0.5));
    let factors = factors_of(&all);
    assert!(factors.measured);
    let one_ct = band_of(1.0);
    assert!((factors.ln[one_ct] - 0.7f64.ln()).abs() < 1e-12, "{:?}", factors.ln);
    // Every other band: the median of all 64 cushion listings (29 at 0.5, 5 at 0.6, 30
    // at 0.7), 0.6, not the 1.0 ct band's own 0.7.
    for (band, &factor) in factors.ln.iter().enumerate().filter(|(band, _)| *band != one_ct) {
        assert!((factor - 0.6f64.ln()).abs() < 1e-12, "band {band}: {:?}", factors.ln);
    }
    assert!(factors.note.contains("64 cushion listings"), "{}", factors.note);
}

#[test]
fn too_few_cushions_or_no_rounds_keep_the_reference_factor() {
    let mut all = listings(Shape::Round, 1.0, 20, 1.0);
    all.extend(listings(Shape::Cushion, 1.0, MIN_FACTOR_LISTINGS - 1, 0.6));
    let few = factors_of(&all);
    assert!(!few.measured);
    assert!(few.ln.iter().all(|&f| f == CUSHION_FACTOR.ln()));
    assert_eq!(
        few.note,
        "cushion factor 0.78 (reference): 29 cushion listings matched to rounds, fewer than 30"
    );
    let none = factors(&CellAsks::of(&all), None, &round());
    assert_eq!(none.note, "cushion factor 0.78 (reference): no round listing to compare with");
}

/// The cushion cells of `listings` on the reference round matrix with a measured factor
/// of 0.7 in every band, the round cells, and the reason of a fallback.
fn cushion_of(listings: &[Listing]) -> (Cells, Cells, Option<String>) {
    let (matrix, mut round_cells) = (round(), Cells::empty());
    for (cell, ln) in round_cells.ln.iter_mut().enumerate() {
        *ln = cell_value(&matrix, cell);
    }
    let factors = super::Factors { ln: vec![0.7f64.ln(); 12], measured: true, note: String::new() };
    let options = BuildOptions::new(date());
    let (cells, _, reason) =
        cushion(&CellAsks::of(listings), &round_cells, &factors, &options, &[]);
    (cells, round_cells, reason)
}

#[test]
fn cells_of_few_asks_are_derived_from_the_round_with_the_reason() {
    // Thirty cells of three asks each (at 0.6 x the round): too few to keep their own.
    let (cells, round_cells, reason) = cushion_of(&listings(Shape::Cushion, 1.0, 90, 0.6));
    assert!(cells.provenance.iter().all(|p| *p == Some(Provenance::Derived)));
    for cell in [0, 400, 959] {
        assert!((cells.ln[cell] - round_cells.ln[cell] - 0.7f64.ln()).abs() < 1e-12);
    }
    assert_eq!(
        reason.as_deref(),
        Some(
            "cushion matrix = round matrix x the measured cushion factor: no cushion cell has 10 asks"
        )
    );
}

#[test]
fn cells_of_enough_asks_keep_their_own_level() {
    // Ten asks in each of thirty 1.0 ct cells, at 0.75 x the round.
    let many = listings(Shape::Cushion, 1.0, 300, 0.75);
    let (cells, round_cells, reason) = cushion_of(&many);
    assert_eq!(reason, None);
    assert_eq!(cells.observed_count(), 30);
    let own = crate::scope::cell_index(band_of(1.0), many[0].color, many[0].clarity);
    assert_eq!(cells.provenance[own], Some(Provenance::Observed));
    assert!((cells.ln[own] - round_cells.ln[own] - 0.75f64.ln()).abs() < 1e-9);
    let derived = cells.provenance.iter().filter(|p| **p == Some(Provenance::Derived)).count();
    assert_eq!(derived, cells.ln.len() - 30);
}
