//! Tests of `fill`: regression recovery, pooling, too little data, supported bands and
//! what lies beyond them, and the look-back of observed asks.

use chrono::NaiveDate;
use pricing::{Clarity, Color};

use super::{MIN_FIT_CELLS, fill, look_back, regress};
use crate::{
    Error,
    carry::Curve,
    cells::{Cells, Provenance},
    observed::{self, Family},
    scope::{BAND_CARATS, CELLS, CELLS_PER_BAND, cell_index},
    tests::day,
};

/// An exact log-linear surface.
fn surface(band: usize, color: Color, clarity: Clarity) -> f64 {
    8.0 - 0.07 * color.index() as f64 - 0.05 * clarity.index() as f64 + 0.6 * BAND_CARATS[band].ln()
}

fn observe(cells: &mut Cells, band: usize, color: Color, clarity: Clarity) {
    let cell = cell_index(band, color, clarity);
    cells.ln[cell] = surface(band, color, clarity);
    cells.ask[cell] = Some(cells.ln[cell].exp());
    cells.provenance[cell] = Some(Provenance::Observed);
    cells.listings[cell] = 3;
}

/// Six observed cells spanning colours and clarities: enough to support a band.
const SUPPORT: [(usize, usize); 6] = [(0, 0), (3, 2), (5, 7), (9, 4), (2, 6), (7, 1)];

fn support(cells: &mut Cells, band: usize) {
    for (c, q) in SUPPORT {
        observe(cells, band, Color::ALL[c], Clarity::ALL[q]);
    }
}

fn reference_curve() -> Curve {
    Curve::before(None, &[], day(21), Family::Round)
}

#[test]
fn regression_recovers_a_log_linear_band() {
    let mut cells = Cells::empty();
    for band in 0..12 {
        support(&mut cells, band);
    }
    let filled = regress(&mut cells).expect("fit");
    assert_eq!(filled, CELLS - 72);
    for band in 0..12 {
        assert_eq!(cells.pooled[band], 1, "each band fits on its own");
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                let cell = cell_index(band, color, clarity);
                assert!((cells.ln[cell] - surface(band, color, clarity)).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn sparse_bands_pool_their_neighbours_with_a_carat_term() {
    let mut cells = Cells::empty();
    support(&mut cells, 4);
    support(&mut cells, 6);
    regress(&mut cells).expect("fit");
    assert_eq!(cells.pooled[5], 3, "band 1.0 has no cells: 0.9..1.5 are pooled");
    assert_eq!(cells.pooled[4], 1);
    let cell = cell_index(5, Color::D, Clarity::Fl);
    assert!((cells.ln[cell] - surface(5, Color::D, Clarity::Fl)).abs() < 1e-9);
    let far = cell_index(11, Color::M, Clarity::Si2);
    assert!((cells.ln[far] - surface(11, Color::M, Clarity::Si2)).abs() < 1e-9);
    assert_eq!(cells.provenance[far], Some(Provenance::Modelled));
}

#[test]
fn one_colour_only_cannot_be_fitted() {
    let mut cells = Cells::empty();
    for &clarity in Clarity::ALL {
        observe(&mut cells, 5, Color::G, clarity);
    }
    let regressed = regress(&mut cells.clone()).map(drop);
    for result in [regressed, fill(&mut cells, &reference_curve(), "round").map(drop)] {
        let expected =
            matches!(result, Err(Error::NotEnoughData { observed: 8, needed: MIN_FIT_CELLS }));
        assert!(expected, "expected NotEnoughData, got {result:?}");
    }
}

#[test]
fn bands_between_supported_bands_are_modelled_and_beyond_them_carried() {
    let mut cells = Cells::empty();
    support(&mut cells, 2);
    support(&mut cells, 5);
    let notes = fill(&mut cells, &reference_curve(), "round").expect("fill");
    assert!(cells.provenance.iter().all(Option::is_some), "every cell is filled");
    for band in 0..12 {
        let expected = match band {
            2..=5 => Provenance::Modelled,
            _ => Provenance::Carried,
        };
        let empty_before = cells.provenance[band * CELLS_PER_BAND..(band + 1) * CELLS_PER_BAND]
            .iter()
            .filter(|p| **p != Some(Provenance::Observed))
            .all(|p| *p == Some(expected));
        assert!(empty_before, "band {band} should be {expected:?}");
    }
    assert_eq!(cells.pooled[3], 5, "0.7 ct pools 0.4..1.0 (a supported band each side)");
    assert_eq!(cells.pooled[2], 1);
    assert_eq!(cells.carried_from.as_deref(), Some("reference"));
    // Interpolation between supported bands recovers the surface exactly.
    let between = cell_index(4, Color::D, Clarity::Fl);
    assert!((cells.ln[between] - surface(4, Color::D, Clarity::Fl)).abs() < 1e-9);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("round bands 0.3..0.4 ct carried (160 cells): the per-carat curve of reference, scaled at 0.5 ct by"), "{notes:?}");
    assert!(notes[1].starts_with("round bands 1.5..6.0 ct carried (480 cells)"), "{notes:?}");
}

/// The carried bands follow the curve's shape exactly: one shift per side, measured on
/// the anchor band's observed cells (their weighted median gap to the curve).
#[test]
fn carried_bands_keep_the_curves_shape_scaled_at_the_anchor() {
    let reference = datasets::Snapshot::reference();
    let curve_at =
        |band, color, clarity| reference.pricing().round().ln_at_band(band, color, clarity);
    let mut cells = Cells::empty();
    support(&mut cells, 5);
    // Today's 1.0 ct band sits 10 % above the reference in every observed cell.
    for (c, q) in SUPPORT {
        let (color, clarity) = (Color::ALL[c], Clarity::ALL[q]);
        cells.ln[cell_index(5, color, clarity)] = curve_at(5, color, clarity) + 0.1f64.ln_1p();
    }
    fill(&mut cells, &reference_curve(), "round").expect("fill");
    for band in (0..12).filter(|&b| b != 5) {
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                let cell = cell_index(band, color, clarity);
                assert_eq!(cells.provenance[cell], Some(Provenance::Carried));
                let gap = cells.ln[cell] - curve_at(band, color, clarity);
                assert!((gap - 0.1f64.ln_1p()).abs() < 1e-12, "{band} {color} {clarity}: {gap}");
            }
        }
    }
}

/// A band of thin support between two supported bands does not set the slope by
/// itself: the window widens until it reaches a supported band on each side.
#[test]
fn an_unsupported_band_needs_a_supported_band_on_each_side() {
    let mut cells = Cells::empty();
    support(&mut cells, 4);
    support(&mut cells, 7);
    observe(&mut cells, 5, Color::G, Clarity::Vs2);
    observe(&mut cells, 5, Color::H, Clarity::Si1);
    let mut lenient = cells.clone();
    regress(&mut lenient).expect("fit");
    assert_eq!(lenient.pooled[5], 3, "the lenient fit stops at 0.9..1.5");
    fill(&mut cells, &reference_curve(), "round").expect("fill");
    assert_eq!(cells.pooled[5], 5, "0.9 ct and 2.0 ct are both in the window");
    assert_eq!(cells.pooled[6], 5);
    assert_eq!(cells.provenance[cell_index(5, Color::D, Clarity::Fl)], Some(Provenance::Modelled));
    assert_eq!(cells.provenance[cell_index(8, Color::D, Clarity::Fl)], Some(Provenance::Carried));
}

/// The observed cells of a day as its `observed.json` holds them.
fn day_of(date: NaiveDate, cells: &Cells) -> observed::Day {
    let bytes = observed::to_bytes(date, cells, &Cells::empty());
    observed::parse(date, &bytes).expect("parses")
}

#[test]
fn look_back_copies_only_observed_asks_with_the_day_they_were_observed() {
    let mut earlier = Cells::empty();
    observe(&mut earlier, 5, Color::G, Clarity::Vs2);
    let thin = cell_index(5, Color::H, Clarity::Si1);
    observe(&mut earlier, 5, Color::H, Clarity::Si1);
    earlier.provenance[thin] = Some(Provenance::Thin);
    // Modelled, carried and looked-back values of that day are not observations.
    for (cell, provenance) in [
        (cell_index(5, Color::D, Clarity::Fl), Provenance::Modelled),
        (cell_index(9, Color::D, Clarity::Fl), Provenance::Carried),
        (cell_index(5, Color::E, Clarity::Fl), Provenance::LookedBack),
    ] {
        earlier.ln[cell] = 9.0;
        earlier.ask[cell] = Some(9f64.exp());
        earlier.provenance[cell] = Some(provenance);
    }
    let days = [day_of(day(18), &earlier)];
    let mut cells = Cells::empty();
    observe(&mut cells, 5, Color::G, Clarity::Vs2);
    cells.ln[cell_index(5, Color::G, Clarity::Vs2)] = 8.5;
    assert_eq!(look_back(&mut cells, &days, day(21), Family::Round), 1);
    let today = cell_index(5, Color::G, Clarity::Vs2);
    assert_eq!(cells.ln[today], 8.5, "today's observation is kept");
    assert_eq!(cells.provenance[thin], Some(Provenance::LookedBack));
    assert_eq!(cells.from[thin], Some(day(18)));
    assert!((cells.ln[thin] - surface(5, Color::H, Clarity::Si1)).abs() < 1e-6);
    assert_eq!(cells.ask[thin].map(f64::ln), Some(cells.ln[thin]));
    assert_eq!(cells.provenance.iter().filter(|p| p.is_some()).count(), 2);
    assert_eq!(look_back(&mut Cells::empty(), &days, day(21), Family::Cushion), 0);
}

/// An ask is looked back for at most five days from the day it was observed; days on
/// or after the build date are ignored; the newest observation of a cell wins.
#[test]
fn look_back_is_bounded_to_five_days_from_the_observation() {
    let mut older = Cells::empty();
    observe(&mut older, 5, Color::G, Clarity::Vs2);
    observe(&mut older, 5, Color::F, Clarity::Vs1);
    let mut newer = Cells::empty();
    observe(&mut newer, 5, Color::G, Clarity::Vs2);
    let g = cell_index(5, Color::G, Clarity::Vs2);
    newer.ln[g] += 0.01;
    newer.ask[g] = Some(newer.ln[g].exp());
    let days = [day_of(day(20), &newer), day_of(day(16), &older)];
    for (build, expected) in [(21, 2), (22, 1), (25, 1), (26, 0), (20, 2), (16, 0)] {
        let mut cells = Cells::empty();
        assert_eq!(
            look_back(&mut cells, &days, day(build), Family::Round),
            expected,
            "day {build}"
        );
        if expected > 0 && build > 20 {
            assert_eq!(cells.from[g], Some(day(20)), "day {build}: the newest observation");
            assert!((cells.ln[g] - newer.ln[g]).abs() < 1e-6);
        }
    }
}
