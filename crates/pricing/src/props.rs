//! Property tests for the math: interpolation exact at band carats and monotone between
//! them, clamping idempotent and bounded, multiplier continuous in ratio, DCX bounded by
//! its basket and independent of order.

use proptest::prelude::*;

use crate::{
    BaseMatrix, BasketEntry, Carat, Clarity, Color, LN_PRICE_LIMIT, LN_SLOPE_LIMIT, ValueMode,
    test_util::{BANDS, ln_matrix, matrix, model},
    weighted_geometric_mean,
};

fn grade() -> impl Strategy<Value = (Color, Clarity)> {
    (0..Color::ALL.len(), 0..Clarity::ALL.len()).prop_map(|(r, c)| (Color::ALL[r], Clarity::ALL[c]))
}

proptest! {
    #[test]
    fn interpolation_stays_between_neighbours(
        lns in proptest::collection::vec(0.0f64..12.0, BANDS.len()),
        carat in 0.3f64..=6.0,
        (color, clarity) in grade(),
    ) {
        let m = matrix(|band, _, _| lns[band]);
        let got = m.ln_per_carat(Carat::new(carat).unwrap(), color, clarity);
        let upper = BANDS.partition_point(|&b| b <= carat).clamp(1, BANDS.len() - 1);
        let (a, b) = (lns[upper - 1], lns[upper]);
        prop_assert!(a.min(b) - 1e-12 <= got && got <= a.max(b) + 1e-12);
    }

    #[test]
    fn interpolation_exact_at_band_keys(
        lns in proptest::collection::vec(-5.0f64..12.0, BANDS.len()),
        index in 0..BANDS.len(),
        (color, clarity) in grade(),
    ) {
        let m = matrix(|band, _, _| lns[band]);
        prop_assert_eq!(m.ln_per_carat(Carat::new(BANDS[index]).unwrap(), color, clarity), lns[index]);
    }

    #[test]
    fn interpolation_monotone_when_bands_are(
        steps in proptest::collection::vec(0.0f64..1.0, BANDS.len()),
        x in 0.3f64..=6.0,
        y in 0.3f64..=6.0,
    ) {
        let lns: Vec<f64> = steps.iter().scan(5.0, |acc, s| { *acc += s; Some(*acc) }).collect();
        let m = matrix(|band, _, _| lns[band]);
        let (lo, hi) = (x.min(y), x.max(y));
        let p = |c: f64| m.ln_per_carat(Carat::new(c).unwrap(), Color::G, Clarity::Vs2);
        prop_assert!(p(lo) <= p(hi) + 1e-12);
    }

    #[test]
    fn prices_follow_their_ln_price_up_to_the_slope_limit(
        middle in 0.31f64..5.99,
        ln in -LN_PRICE_LIMIT..=LN_PRICE_LIMIT,
        slopes in (-LN_SLOPE_LIMIT..=LN_SLOPE_LIMIT, -LN_SLOPE_LIMIT..=LN_SLOPE_LIMIT),
        carat in 0.3f64..=6.0,
    ) {
        // Three bands, the middle one's D FL at `ln` and its neighbours as steep as
        // `slopes` makes them within the ln limit; every other cell at 8.
        let limited = |x: f64| x.clamp(-LN_PRICE_LIMIT, LN_PRICE_LIMIT);
        let lns = [limited(ln - slopes.0 * (middle - 0.3)), ln, limited(ln + slopes.1 * (6.0 - middle))];
        let values = lns.iter().flat_map(|&ln| std::iter::once(ln).chain([8.0; 79])).collect();
        let m = ln_matrix(vec![0.3, middle, 6.0], values).unwrap();
        let carat = Carat::new(carat).unwrap();
        let got = m.per_carat(carat, Color::D, Clarity::Fl);
        let want = m.ln_per_carat(carat, Color::D, Clarity::Fl).exp();
        prop_assert!((got - want).abs() <= want * 1e-12, "{} against {}", got, want);
    }

    #[test]
    fn clamping_is_idempotent_and_inside_the_range(carat in 0.3f64..=6.0, ratio in 0.5f64..3.0) {
        let m = model(BaseMatrix::Round, ValueMode::DeltaPct);
        let (band, _) = m.band_for(carat);
        let (lo, hi) = band.observed_range();
        let (applied, value) = band.value_at(ratio);
        prop_assert!(lo <= applied && applied <= hi);
        prop_assert_eq!(band.value_at(applied), (applied, value));
        prop_assert_eq!(m.adjust(carat, ratio).preference_driven, ratio < lo || ratio > hi);
    }

    #[test]
    fn multiplier_is_continuous_in_ratio(carat in 0.3f64..=6.0, ratio in 1.0f64..2.0) {
        let m = model(BaseMatrix::Round, ValueMode::DeltaPct);
        let eps = 1e-7;
        let a = m.adjust(carat, ratio).multiplier;
        let b = m.adjust(carat, ratio + eps).multiplier;
        // Steepest slope of the model: 15 percentage points over 0.2 ratio.
        prop_assert!((a - b).abs() <= eps * 0.75 + 1e-12, "{a} vs {b}");
    }

    #[test]
    fn dcx_between_min_and_max_and_order_free(
        basket in proptest::collection::vec((0.01f64..1.0, 100.0f64..100_000.0), 1..10),
        rotate in 0usize..10,
    ) {
        let entries: Vec<BasketEntry> =
            basket.iter().map(|&(weight, per_carat)| BasketEntry { weight, per_carat }).collect();
        let dcx = weighted_geometric_mean(&entries).unwrap();
        let min = entries.iter().map(|e| e.per_carat).fold(f64::INFINITY, f64::min);
        let max = entries.iter().map(|e| e.per_carat).fold(0.0, f64::max);
        prop_assert!(min * (1.0 - 1e-12) <= dcx && dcx <= max * (1.0 + 1e-12));
        let mut rotated = entries.clone();
        rotated.rotate_left(rotate % entries.len());
        rotated.reverse();
        let again = weighted_geometric_mean(&rotated).unwrap();
        prop_assert!((dcx - again).abs() <= dcx * 1e-12);
    }
}

mod lookup;
mod spread;
