//! Unit tests of the spread: cell checks, interpolation across bands, the fancy
//! multiplier, observations and basis of the cells used, percentiles and verdicts.

use crate::{
    BaseMatrix, Basis, CellSpread, Clarity, Color, ErrorKind, Shape, SpreadMatrix, SpreadSet,
    Verdict,
    test_util::{BANDS, pricing_set, request, spread_matrix},
};

fn cell(observations: u32, p50: f64, basis: Basis) -> CellSpread {
    let quantiles = [0.8, 0.9, 1.0, 1.1, 1.25].map(|f| f * p50);
    CellSpread { observations, quantiles, basis }
}

/// A spread matrix whose band `b` cell has `b + 1` asks, median `1000 * (b + 1)`, and
/// the basis `basis(b)`.
pub(crate) fn spread(basis: impl Fn(usize) -> Basis) -> SpreadMatrix {
    let mut cells = Vec::new();
    for band in 0..BANDS.len() {
        for _ in 0..Color::ALL.len() * Clarity::ALL.len() {
            cells.push(cell(band as u32 + 1, 1000.0 * (band as f64 + 1.0), basis(band)));
        }
    }
    spread_matrix(cells).unwrap()
}

fn set() -> SpreadSet {
    SpreadSet::new(spread(|_| Basis::Observed), spread(|b| Basis::ALL[b % 4]))
}

#[test]
fn cells_are_checked() {
    let mut bad = cell(3, 1000.0, Basis::Observed);
    bad.quantiles[2] = 700.0;
    assert_eq!(bad.check().unwrap_err().kind(), ErrorKind::NotIncreasing);
    bad.quantiles = [0.0, 1.0, 2.0, 3.0, 4.0];
    assert_eq!(bad.check().unwrap_err().kind(), ErrorKind::OutOfRange);
    bad.quantiles[4] = f64::NAN;
    assert_eq!(bad.check().unwrap_err().kind(), ErrorKind::NotFinite);
    let cells = vec![cell(1, 1000.0, Basis::Observed); 80];
    assert_eq!(spread_matrix(cells).unwrap_err().kind(), ErrorKind::Shape);
}

#[test]
fn basis_names_round_trip_and_order() {
    for &basis in Basis::ALL {
        assert_eq!(Basis::parse(basis.as_str()).unwrap(), basis);
        assert_eq!(basis.weaker(Basis::Observed), basis);
        assert_eq!(basis.weaker(Basis::Carried), Basis::Carried);
    }
    assert!(Basis::parse("Observed").is_err());
    assert_eq!(Basis::LookedBack.weaker(Basis::Modelled), Basis::Modelled);
}

#[test]
fn an_unknown_basis_is_quoted_clipped_as_a_grade_is() {
    let short = Basis::parse("guessed").unwrap_err().to_string();
    assert!(short.starts_with("unknown basis \"guessed\"; allowed: observed,"), "{short}");
    let long = Basis::parse(&"b".repeat(10_000)).unwrap_err().to_string();
    let cut = format!("unknown basis \"{}…\" (10000 bytes); allowed", "b".repeat(64));
    assert!(long.starts_with(&cut), "{long}");
}

#[test]
fn at_a_band_one_cell_between_bands_two() {
    let prices = pricing_set();
    let spreads = set();
    let at_band = spreads.evidence(&prices.quote(&request(1.0, Shape::Round, None)).unwrap());
    assert_eq!(at_band.observations, 6);
    assert!((at_band.range.low_per_carat_usd - 0.8 * 6000.0).abs() < 1e-9);
    assert!((at_band.range.high_usd - 1.25 * 6000.0).abs() < 1e-9);
    let between = spreads.evidence(&prices.quote(&request(1.25, Shape::Round, None)).unwrap());
    assert_eq!(between.observations, 6 + 7);
    // Log-linear half way between 6000 and 7000 per carat.
    let p50 = (6000.0f64 * 7000.0).sqrt();
    assert!((between.quantiles_usd()[2] - 1.25 * p50).abs() < 1e-6);
    assert!((between.range.low_usd - 1.25 * 0.8 * p50).abs() < 1e-6);
    let top = spreads.evidence(&prices.quote(&request(6.0, Shape::Round, None)).unwrap());
    assert_eq!(top.observations, 12);
}

#[test]
fn the_weaker_basis_of_the_cells_used() {
    let prices = pricing_set();
    let spreads = set();
    // Cushion family: band b has basis ALL[b % 4]; 1.25 ct lies between bands 5 and 6
    // (looked back and modelled).
    let quote = prices.quote(&request(1.25, Shape::Cushion, None)).unwrap();
    assert_eq!(quote.base, BaseMatrix::Cushion);
    assert_eq!(spreads.evidence(&quote).basis, Basis::Modelled);
    let at_band = prices.quote(&request(1.0, Shape::Cushion, None)).unwrap();
    assert_eq!(spreads.evidence(&at_band).basis, Basis::LookedBack);
}

#[test]
fn fancy_range_scales_like_the_price() {
    let prices = pricing_set();
    let quote = prices.quote(&request(1.25, Shape::Oval, None)).unwrap();
    let round_quote = prices.quote(&request(1.25, Shape::Round, None)).unwrap();
    let multiplier = quote.fancy.unwrap().adjustment.multiplier;
    assert!((multiplier - 1.0).abs() > 0.01);
    assert_eq!(quote.base, round_quote.base);
    let (fancy, round) = (set().evidence(&quote).range, set().evidence(&round_quote).range);
    // Made as the price is, to the bit: the quantile per carat, times the multiplier,
    // then times the carat.
    assert_eq!(fancy.low_per_carat_usd, round.low_per_carat_usd * multiplier);
    assert_eq!(fancy.high_per_carat_usd, round.high_per_carat_usd * multiplier);
    assert_eq!(fancy.low_usd, fancy.low_per_carat_usd * 1.25);
    assert_eq!(fancy.high_usd, fancy.high_per_carat_usd * 1.25);
}

#[test]
fn percentiles_and_verdicts() {
    let prices = pricing_set();
    let evidence = set().evidence(&prices.quote(&request(1.0, Shape::Round, None)).unwrap());
    let q = evidence.quantiles_usd();
    assert_eq!(evidence.percentile(q[2]), 50.0);
    assert!((evidence.percentile(q[0]) - 10.0).abs() < 1e-9);
    assert!((evidence.percentile(q[4]) - 90.0).abs() < 1e-9);
    let mid = (q[1].ln() + (q[2].ln() - q[1].ln()) * 0.4).exp();
    assert!((evidence.percentile(mid) - 35.0).abs() < 1e-9);
    assert!(evidence.percentile(q[0] * 0.9) < 10.0);
    assert!(evidence.percentile(q[0] * 0.9) > 0.0);
    assert!(evidence.percentile(q[4] * 1.1) > 90.0);
    assert_eq!(evidence.percentile(q[4] * 1e6), 100.0);
    assert_eq!(evidence.percentile(0.0), 0.0);
    assert_eq!(evidence.verdict(q[0] * 0.99), Verdict::BelowMarket);
    assert_eq!(evidence.verdict(q[0]), Verdict::WithinMarket);
    assert_eq!(evidence.verdict(q[4] * 1.01), Verdict::AboveMarket);
    let benchmark = evidence.benchmark_usd;
    assert!((evidence.discount_pct(benchmark * 0.875) + 12.5).abs() < 1e-9);
    assert_eq!(evidence.assess(q[2]).verdict, Verdict::WithinMarket);
    assert_eq!(Verdict::AboveMarket.to_string(), "above_market");
}

#[test]
fn a_cell_without_spread() {
    let flat = CellSpread { observations: 1, quantiles: [5000.0; 5], basis: Basis::Observed };
    let cells = vec![flat; BANDS.len() * 80];
    let matrix = spread_matrix(cells).unwrap();
    let spreads = SpreadSet::new(matrix.clone(), matrix);
    let evidence =
        spreads.evidence(&pricing_set().quote(&request(1.0, Shape::Round, None)).unwrap());
    assert_eq!(evidence.percentile(5000.0), 50.0);
    assert_eq!(evidence.percentile(4999.0), 0.0);
    assert_eq!(evidence.percentile(5001.0), 100.0);
}
