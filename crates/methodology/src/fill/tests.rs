//! Tests of `fill`: regression recovery, pooling, too little data, and the look-back.

use std::sync::Arc;

use chrono::NaiveDate;
use datasets::{History, Snapshot};
use pricing::{Clarity, Color};

use super::{Family, MIN_FIT_CELLS, look_back, regress};
use crate::{
    Error,
    cells::{Cells, Provenance},
    scope::{BAND_CARATS, CELLS, cell_index},
};

/// An exact log-linear surface.
fn surface(band: usize, color: Color, clarity: Clarity) -> f64 {
    8.0 - 0.07 * color.index() as f64 - 0.05 * clarity.index() as f64 + 0.6 * BAND_CARATS[band].ln()
}

fn observe(cells: &mut Cells, band: usize, color: Color, clarity: Clarity) {
    let cell = cell_index(band, color, clarity);
    cells.ln[cell] = surface(band, color, clarity);
    cells.provenance[cell] = Some(Provenance::Observed);
}

#[test]
fn regression_recovers_a_log_linear_band() {
    let mut cells = Cells::empty();
    for band in 0..12 {
        for (c, q) in [(0, 0), (3, 2), (5, 7), (9, 4), (2, 6), (7, 1)] {
            observe(&mut cells, band, Color::ALL[c], Clarity::ALL[q]);
        }
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
    for (c, q) in [(0, 0), (3, 2), (5, 7), (9, 4), (2, 6), (7, 1)] {
        observe(&mut cells, 4, Color::ALL[c], Clarity::ALL[q]);
        observe(&mut cells, 6, Color::ALL[c], Clarity::ALL[q]);
    }
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
    match regress(&mut cells) {
        Err(Error::NotEnoughData { observed: 8, needed: MIN_FIT_CELLS }) => {}
        other => panic!("expected NotEnoughData, got {other:?}"),
    }
}

fn reference_history() -> History {
    // The reference snapshot is dated 2026-11-20.
    History::single(Snapshot::reference())
}

#[test]
fn look_back_copies_empty_cells_from_the_window() {
    let history = reference_history();
    let reference = Arc::clone(history.live());
    let mut cells = Cells::empty();
    observe(&mut cells, 0, Color::D, Clarity::Fl);
    let date = NaiveDate::from_ymd_opt(2026, 11, 25).expect("date");
    assert_eq!(look_back(&mut cells, Some(&history), date, Family::Cushion), CELLS - 1);
    let cell = cell_index(3, Color::H, Clarity::Si1);
    assert_eq!(cells.provenance[cell], Some(Provenance::LookedBack));
    assert_eq!(cells.from[cell], NaiveDate::from_ymd_opt(2026, 11, 20));
    assert_eq!(cells.ln[cell], reference.pricing().cushion().ln_at_band(3, Color::H, Clarity::Si1));
    assert_eq!(cells.provenance[0], Some(Provenance::Observed), "observed cells are kept");
}

#[test]
fn look_back_is_bounded_to_five_days_and_ignores_the_build_day() {
    let history = reference_history();
    for day in [26, 20] {
        let mut cells = Cells::empty();
        let date = NaiveDate::from_ymd_opt(2026, 11, day).expect("date");
        assert_eq!(look_back(&mut cells, Some(&history), date, Family::Round), 0, "day {day}");
    }
    assert_eq!(look_back(&mut Cells::empty(), None, NaiveDate::MIN, Family::Round), 0);
}
