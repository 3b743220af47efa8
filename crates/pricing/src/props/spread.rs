//! Property tests of the spread: the range is ordered, scales with carat as the price
//! does, and the percentile is monotone in the ask and 10 and 90 at the range's ends.

use proptest::prelude::*;

use crate::{
    Basis, CellSpread, Clarity, Color, QuoteRequest, Shape, SpreadSet,
    test_util::{BANDS, pricing_set, spread_matrix},
};

/// Five ascending per-carat quantiles from a median and four positive log gaps.
fn quantiles() -> impl Strategy<Value = [f64; 5]> {
    (5.0f64..11.0, proptest::array::uniform4(0.001f64..0.5)).prop_map(|(ln50, gaps)| {
        let lns = [
            ln50 - gaps[0] - gaps[1],
            ln50 - gaps[1],
            ln50,
            ln50 + gaps[2],
            ln50 + gaps[2] + gaps[3],
        ];
        lns.map(f64::exp)
    })
}

fn spreads() -> impl Strategy<Value = SpreadSet> {
    proptest::collection::vec((quantiles(), 0u32..500), BANDS.len()).prop_map(|per_band| {
        let mut cells = Vec::new();
        for (quantiles, observations) in per_band {
            for _ in 0..Color::ALL.len() * Clarity::ALL.len() {
                cells.push(CellSpread { observations, quantiles, basis: Basis::Observed });
            }
        }
        let m = spread_matrix(cells).unwrap();
        SpreadSet::new(m.clone(), m)
    })
}

fn shape() -> impl Strategy<Value = Shape> {
    proptest::sample::select(vec![Shape::Round, Shape::Oval, Shape::Cushion, Shape::Emerald])
}

fn request(carat: f64, shape: Shape) -> QuoteRequest {
    QuoteRequest { carat, color: Color::F, clarity: Clarity::Vs1, shape, ratio: None }
}

proptest! {
    #[test]
    fn range_is_ordered_and_ends_are_p10_and_p90(
        spreads in spreads(), carat in 0.3f64..=6.0, shape in shape(),
    ) {
        let quote = pricing_set().quote(&request(carat, shape)).unwrap();
        let evidence = spreads.evidence(&quote);
        let range = evidence.range;
        prop_assert!(0.0 < range.low_usd && range.low_usd <= range.high_usd);
        prop_assert!(range.low_per_carat_usd <= range.high_per_carat_usd);
        let q = evidence.quantiles_usd();
        prop_assert_eq!((q[0], q[4]), (range.low_usd, range.high_usd));
        prop_assert!(q.windows(2).all(|pair| pair[0] <= pair[1]));
        prop_assert!((evidence.percentile(range.low_usd) - 10.0).abs() < 1e-6);
        prop_assert!((evidence.percentile(range.high_usd) - 90.0).abs() < 1e-6);
        prop_assert!((evidence.percentile(q[2]) - 50.0).abs() < 1e-6);
    }

    #[test]
    fn percentile_is_monotone_in_the_ask(
        spreads in spreads(), carat in 0.3f64..=6.0, shape in shape(),
        a in 1.0f64..1e7, b in 1.0f64..1e7,
    ) {
        let evidence = spreads.evidence(&pricing_set().quote(&request(carat, shape)).unwrap());
        let (lo, hi) = (a.min(b), a.max(b));
        let (p_lo, p_hi) = (evidence.percentile(lo), evidence.percentile(hi));
        prop_assert!((0.0..=100.0).contains(&p_lo) && (0.0..=100.0).contains(&p_hi));
        prop_assert!(p_lo <= p_hi + 1e-9, "{lo} -> {p_lo}, {hi} -> {p_hi}");
        prop_assert!(evidence.verdict(lo) as u8 <= evidence.verdict(hi) as u8);
    }

    #[test]
    fn range_scales_with_carat_as_the_price_does(
        spreads in spreads(), x in 0.3f64..=6.0, y in 0.3f64..=6.0, shape in shape(),
    ) {
        // With every band's spread the same multiple of the price's band value, the
        // range keeps its ratio to the price at every carat.
        let prices = pricing_set();
        let (qx, qy) = (prices.quote(&request(x, shape)).unwrap(), prices.quote(&request(y, shape)).unwrap());
        let (ex, ey) = (spreads.evidence(&qx), spreads.evidence(&qy));
        // Totals are per carat times carat, for the range as for the price.
        prop_assert!((ex.range.low_usd - ex.range.low_per_carat_usd * x).abs() <= 1e-9 * ex.range.low_usd);
        prop_assert!((ey.range.high_usd - ey.range.high_per_carat_usd * y).abs() <= 1e-9 * ey.range.high_usd);
        // Interpolation shape: ln of the band quantiles mixes exactly as ln of the price.
        let base = prices.matrix(qx.base);
        let px = base.ln_per_carat(crate::Carat::new(x).unwrap(), Color::F, Clarity::Vs1);
        let weight_of = |carat: f64| {
            let upper = BANDS.partition_point(|&b| b <= carat).clamp(1, BANDS.len() - 1);
            (upper, (carat - BANDS[upper - 1]) / (BANDS[upper] - BANDS[upper - 1]))
        };
        let (upper, lambda) = weight_of(x);
        let band_ln = |band: usize| base.ln_at_band(band, Color::F, Clarity::Vs1);
        prop_assert!((px - ((1.0 - lambda) * band_ln(upper - 1) + lambda * band_ln(upper))).abs() < 1e-9);
        let m = spreads.matrix(qx.base);
        let lo = |band: usize| m.cell(band, Color::F, Clarity::Vs1).quantiles[0].ln();
        let multiplier = qx.per_carat_usd / qx.base_per_carat_usd;
        let expected = ((1.0 - lambda) * lo(upper - 1) + lambda * lo(upper)).exp() * multiplier;
        prop_assert!((ex.range.low_per_carat_usd - expected).abs() <= 1e-9 * expected);
    }
}
