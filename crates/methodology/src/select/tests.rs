//! Tests of `select`: screening within a cell and against the neighbours, the lower
//! quartile, thin cells and their offset.

use pricing::{Clarity, Color, Shape};

use super::{
    DEFAULT_THIN_OFFSET, MIN_CELL_LISTINGS, QUANTILE, SCREEN_MIN_LISTINGS, quantile, select,
};
use crate::{
    cells::Provenance,
    listing::{Finish, Listing},
    market::CellAsks,
    scope::cell_index,
};

fn stone(carat: f64, color: Color, clarity: Clarity, per_carat: f64) -> Listing {
    Listing::new(carat, color, clarity, Shape::Round, Finish::Excellent, per_carat * carat)
}

fn listings(clarity: Clarity, per_carat: &[f64]) -> Vec<Listing> {
    per_carat.iter().map(|&p| stone(1.0, Color::G, clarity, p)).collect()
}

const CELL: usize = 5 * 80 + 3 * 8 + 5; // 1.0 ct G VS2

#[test]
fn quantile_interpolates_between_order_statistics() {
    assert_eq!(quantile(&[1.0], 0.25), 1.0);
    assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.25), 2.0);
    assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.25), 1.75);
    assert_eq!(quantile(&[1.0, 3.0], 0.5), 2.0);
    assert_eq!(CELL, cell_index(5, Color::G, Clarity::Vs2));
}

#[test]
fn a_full_cell_publishes_its_lower_quartile() {
    let asks = [5000.0, 4000.0, 7000.0, 4500.0, 6000.0];
    let cells = select(&CellAsks::of(&listings(Clarity::Vs2, &asks)));
    let mut ln: Vec<f64> = asks.iter().map(|a: &f64| a.ln()).collect();
    ln.sort_by(f64::total_cmp);
    assert_eq!(cells.provenance[CELL], Some(Provenance::Observed));
    assert_eq!(cells.ln[CELL], quantile(&ln, QUANTILE));
    assert_eq!(cells.ln[CELL], 4500f64.ln(), "the 2nd of 5 is the lower quartile");
    assert_eq!((cells.listings[CELL], cells.screened[CELL]), (5, 0));
}

#[test]
fn the_level_does_not_sink_as_a_cell_fills() {
    // The same market (asks spread evenly in ln from 4000 to 8000) seen 5 and 500 times.
    let market = |n: usize| -> Vec<f64> {
        (0..n).map(|i| 4000.0 * 2f64.powf(i as f64 / (n - 1) as f64)).collect()
    };
    let level = |n: usize| select(&CellAsks::of(&listings(Clarity::Vs1, &market(n)))).ln[CELL - 1];
    let (small, large) = (level(5), level(500));
    assert!((small - large).abs() < 1e-9, "{small} vs {large}");
    // The old 2nd-lowest rule would have fallen from 4757 to 4006 USD.
    assert!((small.exp() - 4000.0 * 2f64.powf(0.25)).abs() < 1e-6);
}

#[test]
fn junk_asks_in_a_full_cell_are_screened() {
    let real = [6000.0, 6200.0, 6300.0, 6500.0, 6800.0, 7000.0, 5900.0, 6400.0];
    let clean = select(&CellAsks::of(&listings(Clarity::Vs2, &real)));
    let mut junk = real.to_vec();
    junk.extend([300.0, 310.0, 320.0]);
    let dirty = select(&CellAsks::of(&listings(Clarity::Vs2, &junk)));
    assert_eq!(dirty.ln[CELL], clean.ln[CELL]);
    assert_eq!((dirty.listings[CELL], dirty.screened[CELL]), (11, 3));
    // And absurdly dear ones.
    let mut dear = real.to_vec();
    dear.push(900_000.0);
    let dirty = select(&CellAsks::of(&listings(Clarity::Vs2, &dear)));
    assert_eq!(dirty.ln[CELL], clean.ln[CELL]);
    // A cell of near-equal asks keeps a stone 20 % dearer (the spread floor).
    let mut close = vec![6000.0; 6];
    close.push(7200.0);
    let kept = select(&CellAsks::of(&listings(Clarity::Vs2, &close)));
    assert_eq!(kept.screened[CELL], 0);
}

/// A smooth market of full cells (five asks each) in two bands, for the neighbour screen.
fn market() -> Vec<Listing> {
    let mut out = Vec::new();
    for carat in [0.5, 1.0] {
        for &color in Color::ALL.iter().take(6) {
            for &clarity in &Clarity::ALL[1..] {
                let ln = 8.6 - 0.07 * color.index() as f64 - 0.06 * clarity.index() as f64
                    + 0.8 * f64::ln(carat);
                for k in 0..5 {
                    out.push(stone(carat, color, clarity, ln.exp() * (1.0 + 0.02 * k as f64)));
                }
            }
        }
    }
    out
}

#[test]
fn an_absurd_ask_in_an_empty_cell_is_screened_by_its_neighbours() {
    let mut all = market();
    let clean = select(&CellAsks::of(&all));
    let fl = cell_index(5, Color::D, Clarity::Fl);
    assert!(clean.ln[fl].is_nan(), "no FL in the market");
    all.push(stone(1.0, Color::D, Clarity::Fl, 500_000.0));
    let dirty = select(&CellAsks::of(&all));
    assert!(dirty.ln[fl].is_nan(), "the absurd ask is dropped");
    assert_eq!((dirty.listings[fl], dirty.screened[fl]), (1, 1));
    // A plausible one is kept: 1.25 times what the neighbours predict.
    let predicted: f64 = 8.6;
    all.pop();
    all.push(stone(1.0, Color::D, Clarity::Fl, 1.25 * predicted.exp()));
    let kept = select(&CellAsks::of(&all));
    assert_eq!(kept.provenance[fl], Some(Provenance::Thin));
    assert_eq!(kept.screened[fl], 0);
}

#[test]
fn thin_cells_take_their_median_plus_the_market_offset() {
    const { assert!(MIN_CELL_LISTINGS < SCREEN_MIN_LISTINGS) };
    // Too few full cells to measure the offset: the default applies.
    let cells = select(&CellAsks::of(&listings(Clarity::Si1, &[5000.0, 4000.0])));
    let cell = CELL + 1;
    assert_eq!(cells.provenance[cell], Some(Provenance::Thin));
    let median = (5000f64.ln() + 4000f64.ln()) / 2.0;
    assert!((cells.ln[cell] - (median + DEFAULT_THIN_OFFSET)).abs() < 1e-12);
    let empty = select(&CellAsks::of(&listings(Clarity::Si2, &[])));
    assert!(empty.ln[CELL + 2].is_nan());
    assert_eq!(empty.provenance[CELL + 2], None);
    // Enough cells of ten asks: the offset is measured (here the same in every cell).
    let mut all = Vec::new();
    let spread: Vec<f64> = (0..10).map(|i| 1.0 + 0.05 * i as f64).collect();
    for &color in &Color::ALL[..5] {
        for &p in &spread {
            all.push(stone(1.0, color, Clarity::If, 9000.0 * p));
        }
    }
    all.push(stone(1.0, Color::G, Clarity::Si1, 5000.0));
    let cells = select(&CellAsks::of(&all));
    let mut ln: Vec<f64> = spread.iter().map(|p| p.ln()).collect();
    ln.sort_by(f64::total_cmp);
    let offset = quantile(&ln, QUANTILE) - quantile(&ln, 0.5);
    assert!((cells.ln[cell] - (5000f64.ln() + offset)).abs() < 1e-12);
}
