//! The table look-ups of the quote against the rules they replaced, kept here as the
//! oracle: the matrix segment by `partition_point` over the bands, the ratio band by a scan
//! from the top, the ratio value by `clamp` and `partition_point` (compared bit for bit),
//! and whole quotes built from those with the two-point interpolation of docs/pricing.md
//! and `f64::exp` (the same prices to the cent, and exactly the band's ln price at a band
//! carat).

use proptest::prelude::*;

use crate::{
    BaseMatrix, CARAT_MAX, CARAT_MIN, Carat, Clarity, Color, PriceMatrix, PricingSet, QuoteRequest,
    RatioBand, RatioModel, RatioPoint, Shape, Slider, ValueMode,
    matrix::CaratSteps,
    test_util::{BANDS, ln_matrix, matrix, pricing_set},
};

/// The segment rule: the last band at or below `carat` (the first band never lies above a
/// priced carat).
fn old_segment(bands: &[f64], carat: f64) -> usize {
    bands.partition_point(|&band| band <= carat).max(1) - 1
}

/// The old band rule: the last band holding `carat`, else the nearest (ties: lower).
fn old_band_for(model: &RatioModel, carat: f64) -> (usize, bool) {
    let holds = |band: &RatioBand| {
        carat >= band.min_carat() && band.max_carat().is_none_or(|max| carat <= max)
    };
    if let Some(found) = model.bands().iter().rposition(holds) {
        return (found, false);
    }
    let distance = |band: &RatioBand| {
        if carat < band.min_carat() {
            band.min_carat() - carat
        } else {
            band.max_carat().map_or(0.0, |max| (carat - max).max(0.0))
        }
    };
    let mut nearest = 0;
    for (at, band) in model.bands().iter().enumerate().skip(1) {
        if distance(band) < distance(&model.bands()[nearest]) {
            nearest = at;
        }
    }
    (nearest, true)
}

/// The old value rule: `clamp`, then `partition_point` over the anchors.
fn old_value_at(band: &RatioBand, ratio: f64) -> (f64, f64) {
    let points = band.points();
    let applied = ratio.clamp(points[0].ratio, points[points.len() - 1].ratio);
    let upper = points.partition_point(|p| p.ratio <= applied);
    if upper == 0 {
        return (applied, points[0].value);
    }
    if upper == points.len() {
        return (applied, points[upper - 1].value);
    }
    let (a, b) = (points[upper - 1], points[upper]);
    let t = (applied - a.ratio) / (b.ratio - a.ratio);
    (applied, a.value + t * (b.value - a.value))
}

/// The two-point quote arithmetic of docs/pricing.md: the base per-carat price, and the
/// multiplier of a fancy shape.
fn old_per_carat(prices: &PricingSet, request: &QuoteRequest) -> (f64, Option<f64>) {
    let (carat, color, clarity) = (request.carat, request.color, request.clarity);
    let per_carat = |m: &PriceMatrix| {
        // The top band is the upper end of the last segment.
        let lower = old_segment(m.bands(), carat).min(m.bands().len() - 2);
        let (c1, c2) = (m.bands()[lower], m.bands()[lower + 1]);
        let lambda = (carat - c1) / (c2 - c1);
        let ln1 = m.ln_at_band(lower, color, clarity);
        let ln2 = m.ln_at_band(lower + 1, color, clarity);
        ((1.0 - lambda) * ln1 + lambda * ln2).exp()
    };
    let Some(model) = prices.ratios().get(request.shape) else {
        return (per_carat(prices.round()), None);
    };
    let ratio = request.ratio.unwrap_or(model.slider().center());
    let (band, _) = old_band_for(model, carat);
    let (_, value) = old_value_at(&model.bands()[band], ratio);
    (per_carat(prices.matrix(model.base())), Some(model.mode().multiplier(value)))
}

/// Whether `got` is `want` up to the rounding of a few operations (a relative 1e-13) and
/// rounds to the same cent, unless `want` is within a millionth of a cent of a tie.
fn same_to_the_cent(got: f64, want: f64) -> bool {
    let cents = want * 100.0;
    let at_tie = (cents - cents.floor() - 0.5).abs() < 1e-6;
    (got - want).abs() <= want.abs() * 1e-13
        && (at_tie || crate::round_cents(got) == crate::round_cents(want))
}

/// Carats that matter to a sorted list of keys: each key and the floats just around it,
/// and the same around the first carat of each of the table's steps.
fn edges(keys: &[f64]) -> Vec<f64> {
    let firsts = (0..=CaratSteps::STEPS).map(CaratSteps::first_carat);
    keys.iter()
        .copied()
        .chain(firsts)
        .flat_map(|x| {
            [x.next_down().next_down(), x.next_down(), x, x.next_up(), x.next_up().next_up()]
        })
        .collect()
}

/// Strictly increasing band carats covering the priced range, some far closer together
/// than the table's steps, some reaching beyond the range.
fn bands() -> impl Strategy<Value = Vec<f64>> {
    let gap = prop_oneof![1e-9f64..1e-3, 1e-3f64..0.2, 0.2f64..2.0];
    (0.0f64..=CARAT_MIN, proptest::collection::vec(gap, 1..60)).prop_map(|(first, gaps)| {
        let mut bands = vec![first];
        for gap in gaps {
            let next = bands[bands.len() - 1] + gap;
            if next > bands[bands.len() - 1] {
                bands.push(next);
            }
        }
        let last = bands[bands.len() - 1];
        if last < CARAT_MAX {
            bands.push(if bands.len() % 2 == 0 { CARAT_MAX } else { CARAT_MAX + last });
        }
        bands
    })
}

/// A ratio model whose bands touch, leave gaps, hold a single carat, or end open.
fn model() -> impl Strategy<Value = RatioModel> {
    proptest::collection::vec((0.0f64..1.5, 0.0f64..1.5, 0u8..4), 1..6).prop_map(|specs| {
        let mode = ValueMode::DeltaPct;
        let (count, mut start, mut bands) = (specs.len(), 0.2, Vec::new());
        for (at, (gap, width, kind)) in specs.into_iter().enumerate() {
            // kind 0: touches the band before; 1: after a gap; 2: one carat; 3: wide.
            let min = if kind == 0 { start } else { start + gap };
            let max = if kind == 2 { min } else { min + width };
            let open = at + 1 == count && kind == 3;
            let step = at as f64;
            let points = vec![
                RatioPoint { ratio: 1.0, value: step },
                RatioPoint { ratio: 1.2 + 0.1 * step, value: -step },
                RatioPoint { ratio: 1.9, value: 2.0 },
            ];
            bands.push(RatioBand::new(min, (!open).then_some(max), points, mode).unwrap());
            start = max;
        }
        let slider = Slider::new(0.5, 1.3, 2.0).unwrap();
        RatioModel::new(BaseMatrix::Round, mode, slider, bands).unwrap()
    })
}

/// Mostly priced carats, some outside the range, and the odd floats.
fn carat() -> impl Strategy<Value = f64> {
    let odd = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, CARAT_MIN, CARAT_MAX];
    prop_oneof![
        8 => CARAT_MIN..=CARAT_MAX,
        1 => -1.0f64..10.0,
        1 => proptest::sample::select(odd.to_vec()),
    ]
}

#[test]
fn steps_cover_the_priced_range() {
    assert_eq!(CaratSteps::first_carat(0), CARAT_MIN);
    assert!(CaratSteps::first_carat(CaratSteps::STEPS - 1) <= CARAT_MAX);
    assert!(CaratSteps::first_carat(CaratSteps::STEPS) > CARAT_MAX);
}

#[test]
fn segment_of_the_reference_bands_at_every_edge() {
    let m = matrix(|band, _, _| band as f64);
    for carat in edges(&BANDS).into_iter().filter(|c| (CARAT_MIN..=CARAT_MAX).contains(c)) {
        assert_eq!(m.segment(Carat::new(carat).unwrap()), old_segment(&BANDS, carat), "{carat}");
    }
}

proptest! {
    #[test]
    fn steps_count_as_partition_point(
        keys in bands(),
        carats in proptest::collection::vec(carat(), 1..50),
        pick in any::<prop::sample::Index>(),
    ) {
        let steps = CaratSteps::new(&keys);
        let edge = edges(&keys);
        let from = pick.index(edge.len());
        for carat in carats.into_iter().chain(edge[from..].iter().copied().take(60)) {
            let want = keys.partition_point(|&key| key <= carat);
            prop_assert_eq!(steps.at_or_below(&keys, carat), want, "carat {}", carat);
        }
    }

    #[test]
    fn matrix_segment_is_the_old_rule(
        bands in bands(),
        carat in CARAT_MIN..=CARAT_MAX,
        pick in any::<prop::sample::Index>(),
    ) {
        // Every cell's ln price climbs by 1 per carat from one band to the next, then by
        // 2 to the one after, and so on: a line of its own per segment (so a wrong segment
        // prices a carat off its line), never steeper than the slope limit however close
        // the bands.
        let rise = |at: usize| 1.0 + (at % 2) as f64;
        let lns: Vec<f64> = std::iter::once(0.0)
            .chain(bands.windows(2).enumerate().scan(0.0, |ln, (at, pair)| {
                *ln += (pair[1] - pair[0]) * rise(at);
                Some(*ln)
            }))
            .collect();
        let values = lns.iter().flat_map(|&ln| [ln; 80]).collect();
        let m = ln_matrix(bands.clone(), values).unwrap();
        let edge: Vec<f64> =
            edges(&bands).into_iter().filter(|c| (CARAT_MIN..=CARAT_MAX).contains(c)).collect();
        let from = pick.index(edge.len());
        for carat in std::iter::once(carat).chain(edge[from..].iter().copied().take(60)) {
            let priced = Carat::new(carat).unwrap();
            let lower = old_segment(&bands, carat);
            prop_assert_eq!(m.segment(priced), lower, "carat {}", carat);
            let ln = m.ln_per_carat(priced, Color::G, Clarity::Vs2);
            let want = match bands.get(lower + 1) {
                Some(_) => lns[lower] + (carat - bands[lower]) * rise(lower),
                None => lns[lower],
            };
            prop_assert!((ln - want).abs() <= 1e-12, "carat {}: {} against {}", carat, ln, want);
            if bands.contains(&carat) {
                prop_assert_eq!(ln, lns[lower], "a band carat's own value");
            }
        }
    }

    #[test]
    fn ratio_band_is_the_old_rule(
        model in model(),
        carats in proptest::collection::vec(carat(), 1..30),
    ) {
        let ends: Vec<f64> = model
            .bands()
            .iter()
            .flat_map(|band| [Some(band.min_carat()), band.max_carat()])
            .flatten()
            .collect();
        for carat in carats.into_iter().chain(edges(&ends)) {
            let (band, extrapolated) = model.band_for(carat);
            let (want, want_extrapolated) = old_band_for(&model, carat);
            prop_assert!(std::ptr::eq(band, &model.bands()[want]), "carat {}", carat);
            prop_assert_eq!(extrapolated, want_extrapolated, "carat {}", carat);
            if let Ok(priced) = Carat::new(carat) {
                let (band, extrapolated) = model.band_for_priced(priced);
                prop_assert!(std::ptr::eq(band, &model.bands()[want]), "carat {}", carat);
                prop_assert_eq!(extrapolated, want_extrapolated, "carat {}", carat);
            }
        }
    }

    #[test]
    fn ratio_value_is_the_old_rule(
        model in model(),
        ratio in prop_oneof![
            8 => 0.5f64..2.5,
            2 => proptest::sample::select(vec![1.0, 1.9, f64::NAN, f64::INFINITY, -f64::INFINITY]),
        ],
    ) {
        for band in model.bands() {
            let (applied, value) = band.value_at(ratio);
            let (want_applied, want_value) = old_value_at(band, ratio);
            prop_assert_eq!(applied.to_bits(), want_applied.to_bits());
            prop_assert_eq!(value.to_bits(), want_value.to_bits());
        }
    }

    #[test]
    fn quotes_are_the_two_point_arithmetic_to_the_cent(
        carat in CARAT_MIN..=CARAT_MAX,
        at_band in proptest::option::of(0..BANDS.len()),
        color in 0..Color::ALL.len(),
        clarity in 0..Clarity::ALL.len(),
        shape in 0..Shape::ALL.len(),
        ratio in proptest::option::of(1.2f64..=2.0),
    ) {
        let prices = pricing_set();
        let shape = Shape::ALL[shape];
        let request = QuoteRequest {
            carat: at_band.map_or(carat, |band| BANDS[band]),
            color: Color::ALL[color],
            clarity: Clarity::ALL[clarity],
            shape,
            ratio: if shape.is_fancy() { ratio } else { None },
        };
        let quote = prices.quote(&request).unwrap();
        let (base, multiplier) = old_per_carat(&prices, &request);
        let per_carat = multiplier.map_or(base, |m| base * m);
        if let Some(band) = at_band {
            // A band's own ln price, exactly.
            let (m, carat) = (prices.matrix(quote.base), Carat::new(request.carat).unwrap());
            let ln = m.ln_per_carat(carat, request.color, request.clarity);
            prop_assert_eq!(ln.to_bits(), m.ln_at_band(band, request.color, request.clarity).to_bits());
        }
        for (got, want) in [
            (quote.base_per_carat_usd, base),
            (quote.per_carat_usd, per_carat),
            (quote.total_usd, per_carat * request.carat),
        ] {
            prop_assert!(same_to_the_cent(got, want), "{} against {}", got, want);
        }
    }
}
