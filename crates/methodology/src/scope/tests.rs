//! Tests of `scope`: band assignment, impossible values, scope rules and duplicates.

use pricing::{Clarity, Color, Shape};

use super::{Filter, band_of};
use crate::{
    listing::{Finish, Fluorescence, Listing},
    read::{Rejected, RowCounts},
    tests::{date, day},
};

fn stone(carat: f64, price: f64) -> Listing {
    Listing::new(carat, Color::G, Clarity::Vs2, Shape::Round, Finish::Excellent, price)
}

#[test]
fn bands_are_half_open_and_the_last_takes_exactly_six() {
    let cases = [
        (0.3, 0),
        (0.39, 0),
        (0.4, 1),
        (0.69, 2),
        (0.7, 3),
        (0.99, 4),
        (1.0, 5),
        (1.49, 5),
        (4.99, 9),
        (5.0, 10),
        (5.99, 10),
        (6.0, 11),
    ];
    for (carat, band) in cases {
        assert_eq!(band_of(carat), band, "carat {carat}");
    }
}

/// Runs `listings` through a filter: the indexes of those kept, and the counts.
fn filter(listings: &[Listing]) -> (Vec<usize>, RowCounts) {
    let mut filter = Filter::new(date());
    let kept = (0..listings.len()).filter(|&i| filter.admit(&listings[i]).is_some()).collect();
    (kept, filter.into_counts())
}

#[track_caller]
fn check(listings: &[Listing], expect: Rejected, used: usize) {
    let (kept, counts) = filter(listings);
    assert_eq!(counts.rejected, expect, "{:#?}", counts.examples);
    assert_eq!(kept.len(), used);
    assert_eq!(counts.accepted as usize, used);
    assert_eq!(counts.rows as usize, listings.len());
}

#[test]
fn impossible_values() {
    let listings = [
        stone(0.0, 5000.0),
        stone(-1.0, 5000.0),
        stone(1.0, 0.0),
        stone(f64::NAN, 1.0),
        Listing { lw_ratio: Some(0.9), ..stone(1.0, 5000.0) },
        Listing { observed: Some(day(22)), ..stone(1.0, 5000.0) },
    ];
    check(&listings, Rejected { impossible: 6, ..Rejected::default() }, 0);
}

#[test]
fn out_of_scope() {
    let one = || stone(1.0, 5000.0);
    let listings = [
        stone(0.29, 500.0),
        stone(6.01, 50000.0),
        Listing { cut: Finish::VeryGood, ..one() },
        Listing { cut: Finish::Premium, ..one() },
        Listing { polish: Some(Finish::Good), ..one() },
        Listing { fluorescence: Some(Fluorescence::Faint), ..one() },
        Listing { lab: Some("IGI".to_owned()), ..one() },
        Listing { observed: Some(day(15)), ..one() },
    ];
    check(&listings, Rejected { out_of_scope: 8, ..Rejected::default() }, 0);
}

#[test]
fn in_scope_details_pass() {
    let full = Listing {
        cut: Finish::Ideal,
        polish: Some(Finish::Excellent),
        symmetry: Some(Finish::Ideal),
        fluorescence: Some(Fluorescence::None),
        lab: Some("GIA".to_owned()),
        observed: Some(day(16)),
        ..stone(6.0, 90000.0)
    };
    check(&[stone(0.3, 500.0), full], Rejected::default(), 2);
}

#[test]
fn duplicates_by_id_or_by_identical_fields() {
    let x = Some("x".to_owned());
    let a = Listing { listing_id: x.clone(), ..stone(1.0, 5000.0) };
    let b = Listing { listing_id: x, ..stone(1.2, 6000.0) };
    let listings = [a, b, stone(1.0, 5000.0), stone(1.0, 5000.0), stone(1.0, 5001.0)];
    let (kept, counts) = filter(&listings);
    assert_eq!(counts.rejected, Rejected { duplicate: 2, ..Rejected::default() });
    // The first occurrence is kept.
    assert_eq!(kept, [0, 2, 4]);
    assert_eq!(
        counts.examples,
        ["listing 2: duplicate: seen before", "listing 4: duplicate: seen before"]
    );
    // An out-of-scope row is never counted as a duplicate.
    check(
        &[stone(0.2, 1000.0), stone(0.2, 1000.0)],
        Rejected { out_of_scope: 2, ..Rejected::default() },
        0,
    );
}

#[test]
fn an_id_and_a_row_without_one_are_told_apart() {
    let with_id = Listing { listing_id: Some("1".to_owned()), ..stone(1.0, 5000.0) };
    let (kept, counts) = filter(&[with_id, stone(1.0, 5000.0)]);
    assert_eq!(kept, [0, 1]);
    assert_eq!(counts.rejected, Rejected::default());
}
