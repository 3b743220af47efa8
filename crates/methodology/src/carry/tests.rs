//! Tests of `carry`: the weighted median, which curve is carried, and the shift that
//! compares asks with asks.

use std::sync::Arc;

use datasets::{History, Snapshot, reference};
use pricing::{Clarity, Color};

use super::{Curve, carry, weighted_median};
use crate::{
    cells::{Cells, Provenance},
    observed::{self, Family},
    scope::{cell_index, cell_value},
    tests::day,
};

#[test]
fn weighted_median_examples() {
    assert_eq!(weighted_median(&mut []), None);
    assert_eq!(weighted_median(&mut [(3.0, 1.0)]), Some(3.0));
    assert_eq!(weighted_median(&mut [(3.0, 1.0), (1.0, 1.0), (2.0, 1.0)]), Some(2.0));
    assert_eq!(weighted_median(&mut [(1.0, 1.0), (2.0, 1.0)]), Some(1.5));
    assert_eq!(weighted_median(&mut [(1.0, 10.0), (2.0, 1.0), (9.0, 1.0)]), Some(1.0));
    assert_eq!(weighted_median(&mut [(1.0, 0.0), (5.0, 0.0), (7.0, 0.0)]), Some(5.0));
}

/// A history of one published day: a variant of the reference snapshot at `level`.
fn history_of(date: &str, level: f64) -> History {
    let files = reference::generate_variant(&format!("{date}T00:00:00Z"), level);
    History::single(Snapshot::parse(files).expect("valid"))
}

#[test]
fn the_curve_is_the_previous_published_day_else_the_reference() {
    let reference = Snapshot::reference();
    let first = Curve::before(None, &[], day(21), Family::Round);
    assert_eq!(first.from, "reference");
    assert_eq!(first.ln[0], reference.pricing().round().ln_at_band(0, Color::D, Clarity::Fl));
    let history = history_of("2026-11-19", 1.1);
    let previous = Curve::before(Some(&history), &[], day(21), Family::Cushion);
    assert_eq!(previous.from, "2026-11-19");
    let live = Arc::clone(history.live());
    let cell = cell_index(3, Color::H, Clarity::Si1);
    assert_eq!(previous.ln[cell], live.pricing().cushion().ln_at_band(3, Color::H, Clarity::Si1));
    // A day on or after the build date is not "previous".
    assert_eq!(Curve::before(Some(&history), &[], day(19), Family::Round).from, "reference");
}

/// Cells observed in the anchor band both today and on the curve's day compare asks
/// with asks, so the same input gives a shift of (to the 6-decimal rounding) zero; a
/// cell the curve's day did not observe compares with its published price.
#[test]
fn the_shift_compares_todays_asks_with_the_curve_days_asks() {
    let history = history_of("2026-11-20", 1.0);
    let published = |cell: usize| cell_value(history.live().pricing().round(), cell);
    let mut seen = Cells::empty();
    let cells_seen = [cell_index(5, Color::G, Clarity::Vs2), cell_index(5, Color::F, Clarity::Vs1)];
    for (i, &cell) in cells_seen.iter().enumerate() {
        seen.ln[cell] = published(cell) - 0.2 - 0.01 * i as f64;
        seen.ask[cell] = Some(seen.ln[cell].exp());
        seen.provenance[cell] = Some(Provenance::Observed);
        seen.listings[cell] = 5;
    }
    let bytes = observed::to_bytes(day(20), &seen, &Cells::empty());
    let days = [observed::parse(day(20), &bytes).expect("parses")];
    let curve = Curve::before(Some(&history), &days, day(21), Family::Round);
    let far = cell_index(9, Color::D, Clarity::Fl);

    // The same asks today: no shift.
    let mut same = seen.clone();
    carry(&mut same, &curve, 5, 5, "round");
    let shift = same.ln[far] - published(far);
    assert!(shift.abs() < 1e-6, "shift {shift}");
    assert_eq!(same.provenance[far], Some(Provenance::Carried));
    assert_eq!(same.carried_from.as_deref(), Some("2026-11-20"));

    // Without that day's asks the same input compares with published prices: -0.205.
    let bare = Curve::before(Some(&history), &[], day(21), Family::Round);
    let mut against_prices = seen.clone();
    carry(&mut against_prices, &bare, 5, 5, "round");
    let shift = against_prices.ln[far] - published(far);
    assert!((shift + 0.205).abs() < 1e-9, "{shift}");
}

#[test]
fn carrying_keeps_every_filled_cell_and_notes_each_side() {
    let curve = Curve::before(None, &[], day(21), Family::Round);
    let mut cells = Cells::empty();
    let kept = cell_index(11, Color::D, Clarity::Fl);
    cells.ln[kept] = 12.0;
    cells.provenance[kept] = Some(Provenance::Thin);
    let notes = carry(&mut cells, &curve, 0, 10, "cushion");
    assert_eq!(cells.ln[kept], 12.0);
    assert_eq!(notes.len(), 1, "nothing lies below the lowest band");
    assert!(notes[0].starts_with("cushion bands 6.0..6.0 ct carried (79 cells)"), "{notes:?}");
    assert!(notes[0].ends_with("scaled at 5.0 ct by +0.0 %"), "{notes:?}");
    assert_eq!(cells.provenance.iter().filter(|p| p.is_some()).count(), 80);
}
