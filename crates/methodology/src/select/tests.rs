//! Tests of `select`: the 2nd / 3rd lowest ask and thin cells.

use pricing::{Clarity, Color, Shape};

use super::{rank, select};
use crate::{
    cells::Provenance,
    listing::{Finish, Listing},
    scope::{Used, band_of, cell_index},
};

fn listings(clarity: Clarity, per_carat: &[f64]) -> Vec<Listing> {
    per_carat
        .iter()
        .map(|&p| Listing::new(1.0, Color::G, clarity, Shape::Round, Finish::Excellent, p))
        .collect()
}

fn used(listings: &[Listing]) -> Vec<Used<'_>> {
    listings.iter().map(|listing| Used { listing, band: band_of(listing.carat) }).collect()
}

#[test]
fn ranks() {
    assert_eq!(rank(Clarity::Fl), 2);
    assert_eq!(rank(Clarity::Vs1), 2);
    assert_eq!(rank(Clarity::Vs2), 3);
    assert_eq!(rank(Clarity::Si2), 3);
}

#[track_caller]
fn check(clarity: Clarity, asks: &[f64], expect: Option<(f64, Provenance)>) {
    let all = listings(clarity, asks);
    let cells = select(&used(&all));
    let cell = cell_index(5, Color::G, clarity);
    assert_eq!(cells.ask[cell].zip(cells.provenance[cell]), expect);
    assert_eq!(cells.listings[cell] as usize, asks.len());
    if let Some((ask, _)) = expect {
        assert_eq!(cells.ln[cell], ask.ln());
    } else {
        assert!(cells.ln[cell].is_nan());
    }
}

#[test]
fn second_lowest_for_fl_to_vs1() {
    check(Clarity::Vs1, &[5000.0, 4000.0, 7000.0, 4500.0], Some((4500.0, Provenance::Observed)));
    check(Clarity::Fl, &[9000.0, 8000.0], Some((9000.0, Provenance::Observed)));
}

#[test]
fn third_lowest_for_vs2_to_si2() {
    check(Clarity::Vs2, &[5000.0, 4000.0, 7000.0, 4500.0], Some((5000.0, Provenance::Observed)));
}

#[test]
fn thin_cells_take_the_highest_of_their_few_asks() {
    check(Clarity::Si1, &[5000.0, 4000.0], Some((5000.0, Provenance::Thin)));
    check(Clarity::If, &[6000.0], Some((6000.0, Provenance::Thin)));
    check(Clarity::Si2, &[], None);
}
