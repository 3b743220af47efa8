//! Tests of `feeds`: timestamps, rounding, the matrix round trip and depth counts.

use chrono::NaiveDate;
use pricing::{Clarity, Color, Shape};

use super::{matrix_file, parse_matrix, round6, ts_text};
use crate::{
    listing::{Finish, Listing},
    market::Market,
    scope::{BAND_KEYS, CELLS, band_of},
};

#[test]
fn ts_is_midnight_utc() {
    assert_eq!(ts_text(NaiveDate::from_ymd_opt(2026, 1, 2).expect("date")), "2026-01-02T00:00:00Z");
}

#[test]
fn matrix_round_trips_through_its_bytes() {
    let ln: Vec<f64> = (0..CELLS).map(|i| 7.0 + i as f64 * 0.001_234_567_89).collect();
    let bytes = datasets::wire::to_bytes(&matrix_file(&ln, "2026-01-02T00:00:00Z"));
    let matrix = parse_matrix(&bytes).expect("parse");
    assert_eq!(matrix.bands().len(), 12);
    assert_eq!(matrix.ln_at_band(0, Color::D, Clarity::If), round6(ln[1]));
    assert_eq!(matrix.ln_at_band(11, Color::M, Clarity::Si2), round6(ln[CELLS - 1]));
}

#[test]
fn depth_counts_agree_by_construction() {
    let listings: Vec<Listing> = [
        (0.3, Color::D, Clarity::Fl),
        (0.35, Color::D, Clarity::If),
        (6.0, Color::M, Clarity::Si2),
    ]
    .iter()
    .map(|&(carat, color, clarity)| {
        Listing::new(carat, color, clarity, Shape::Round, Finish::Excellent, 1000.0)
    })
    .collect();
    let mut market = Market::default();
    for listing in &listings {
        market.add(listing, band_of(listing.carat));
    }
    let depth = datasets::wire::DepthFile::from_counts(&BAND_KEYS, &market.depth, "ts");
    let band = &depth.clarity.0[0];
    assert_eq!(band.0, "0.3");
    assert_eq!(band.1.0.len(), 8);
    assert_eq!(band.1.0[0], ("FL".to_owned(), 1));
    assert_eq!(band.1.0[1], ("IF".to_owned(), 1));
    let colors = &depth.color.0[11];
    assert_eq!(colors.0, "6.0");
    assert_eq!(colors.1.0[9], ("M".to_owned(), 1));
    let pairs: u64 = depth.colclar.0.iter().flat_map(|row| row.1.0.iter().map(|x| x.1)).sum();
    assert_eq!(pairs, 3);
}
