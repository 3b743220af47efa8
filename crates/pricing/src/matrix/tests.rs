//! Unit tests for the price matrix and carat interpolation (docs/decisions.md 2.1.1 to 2.1.3).

use crate::{
    CARAT_MAX, CARAT_MIN, Carat, Clarity, Color, ErrorKind, LN_PRICE_LIMIT, PriceMatrix,
    test_util::{BANDS, ln_matrix, matrix, plausible_matrix},
};

#[test]
fn exact_at_band_carats() {
    let m = plausible_matrix(1.0);
    for (i, &band) in BANDS.iter().enumerate() {
        let got = m.ln_per_carat(Carat::new(band).unwrap(), Color::G, Clarity::Vs2);
        assert_eq!(got, m.ln_at_band(i, Color::G, Clarity::Vs2), "band {band}");
    }
}

#[test]
fn log_linear_between_bands() {
    // Rule 2.1.3 with the numbers written out: 1.0 ct at 1000 $/ct, 1.5 ct at 4000 $/ct.
    let m = matrix(|band, _, _| match band {
        5 => 1000f64.ln(),
        6 => 4000f64.ln(),
        b => (100.0 * (b + 1) as f64).ln() + if b > 6 { 10.0 } else { 0.0 },
    });
    let carat = 1.25; // lambda = 0.5 -> geometric mean = 2000.
    let got = m.per_carat(Carat::new(carat).unwrap(), Color::D, Clarity::Fl);
    assert!((got - 2000.0).abs() < 1e-9, "{got}");
    let lambda: f64 = (1.1 - 1.0) / 0.5;
    let expected = ((1.0 - lambda) * 1000f64.ln() + lambda * 4000f64.ln()).exp();
    let got = m.per_carat(Carat::new(1.1).unwrap(), Color::D, Clarity::Fl);
    assert!((got - expected).abs() <= expected * 1e-14, "{got} against {expected}");
}

#[test]
fn ln_prices_too_far_apart_to_interpolate_are_refused() {
    // Bands a subnormal apart: the slope between two ln prices in range is infinite.
    let mut values = vec![8.0; 240];
    values[0] = -LN_PRICE_LIMIT; // the first band's D FL, against the second band's
    values[80] = LN_PRICE_LIMIT;
    let err = ln_matrix(vec![0.0, 5e-324, 6.0], values).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFinite);
    assert!(err.to_string().contains("too far apart to interpolate"), "{err}");
}

#[test]
fn ln_prices_steeper_than_the_slope_limit_are_refused() {
    let with_d_fl = |lns: [f64; 2]| {
        let mut values = vec![8.0; 240];
        (values[80], values[160]) = (lns[0], lns[1]); // the second and third band's D FL
        ln_matrix(vec![0.3, 5.5, 6.0], values)
    };
    // 0.5 ct apart: 500 is the steepest change allowed, upward or downward.
    assert!(with_d_fl([-250.0, 250.0]).is_ok());
    assert!(with_d_fl([250.0, -250.0]).is_ok());
    let err = with_d_fl([-250.0, 250.001]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfRange);
    let want = "ln prices -250 at 5.5 ct and 250.001 at 6 ct are too far apart to interpolate: \
                they change by 1000.00";
    assert!(err.to_string().starts_with(want), "{err}");
    assert!(err.to_string().ends_with(" per carat, at most 1000 is allowed"), "{err}");
}

#[test]
fn ln_prices_beyond_the_limit_are_refused_and_the_limit_itself_is_priced() {
    for beyond in [LN_PRICE_LIMIT.next_up(), -LN_PRICE_LIMIT.next_up(), 709.8, f64::MAX] {
        let mut values = vec![8.0; 160];
        values[80] = beyond;
        let err = ln_matrix(vec![0.3, 6.0], values).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::OutOfRange, "{beyond}");
        let want = format!("ln price {beyond} is outside -700 to 700 (a per-carat price from");
        assert!(err.to_string().starts_with(&want), "{err}");
    }
    // The limit at both ends: every carat between them is priced as `f64::exp` prices it,
    // to the rounding of a line in 64ths of `ln 2` this long (1.1e-13 at most here).
    let mut values = vec![8.0; 160];
    values[0] = -LN_PRICE_LIMIT;
    values[80] = LN_PRICE_LIMIT;
    let m = ln_matrix(vec![0.3, 6.0], values).unwrap();
    for carat in [CARAT_MIN, 0.30001, 1.0, 3.15, 5.99999, CARAT_MAX] {
        let priced = Carat::new(carat).unwrap();
        let got = m.per_carat(priced, Color::D, Clarity::Fl);
        let want = m.ln_per_carat(priced, Color::D, Clarity::Fl).exp();
        assert!(
            got.is_finite() && (got - want).abs() <= want * 1e-12,
            "{carat}: {got} against {want}"
        );
    }
}

#[test]
fn row_major_index_is_color_times_clarities_plus_clarity() {
    // Value = 10 * colour index + clarity index, so every cell is distinguishable.
    let m = matrix(|_, color, clarity| (10 * color.index() + clarity.index()) as f64);
    assert_eq!(m.ln_at_band(0, Color::E, Clarity::If), 11.0);
    assert_eq!(m.ln_at_band(3, Color::M, Clarity::Si2), 97.0);
}

#[test]
fn feed_order_of_grades_is_respected() {
    // Rows listed worst first: the value of row 0 belongs to M.
    let colors: Vec<Color> = Color::ALL.iter().rev().copied().collect();
    let values: Vec<f64> = (0..2 * 10 * 8).map(|i| ((i % 80) / 8) as f64).collect();
    let m = PriceMatrix::new(vec![0.3, 6.0], colors, Clarity::ALL.to_vec(), values).unwrap();
    assert_eq!(m.ln_at_band(0, Color::M, Clarity::Fl), 0.0);
    assert_eq!(m.ln_at_band(0, Color::D, Clarity::Fl), 9.0);
}

#[test]
fn top_band_uses_the_last_segment() {
    let m = plausible_matrix(1.0);
    let top = m.ln_per_carat(Carat::new(6.0).unwrap(), Color::M, Clarity::Si2);
    assert_eq!(top, m.ln_at_band(11, Color::M, Clarity::Si2));
}

#[test]
fn carat_bounds() {
    assert!(Carat::new(0.3).is_ok());
    assert!(Carat::new(6.0).is_ok());
    for bad in [0.29, 6.01, -1.0, f64::NAN, f64::INFINITY] {
        assert!(Carat::new(bad).is_err(), "{bad}");
    }
    assert_eq!(Carat::new(7.0).unwrap_err().message(), "carat must be between 0.3 and 6, got 7");
    let not_finite = Carat::new(f64::NEG_INFINITY).unwrap_err();
    assert_eq!(not_finite.kind(), crate::ErrorKind::NotFinite);
    assert_eq!(not_finite.message(), "carat must be between 0.3 and 6, got -inf");
}

#[test]
fn carat_bits_compare_as_the_range() {
    let ends = [CARAT_MIN, CARAT_MAX, 0.0, f64::MIN_POSITIVE, 5e-324, f64::MAX, 1.0];
    let odd = [f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, -1.0, -CARAT_MIN];
    let near = ends.iter().flat_map(|&x| [x, -x, x.next_down(), x.next_up()]);
    for value in near.chain(odd) {
        let want = (CARAT_MIN..=CARAT_MAX).contains(&value);
        assert_eq!(Carat::priced(value).is_some(), want, "{value:e} ({:#x})", value.to_bits());
    }
}

#[test]
fn constructor_refusals() {
    let (c, q) = (Color::ALL.to_vec(), Clarity::ALL.to_vec());
    let twice = [&q[..], &[Clarity::Vs2]].concat();
    let (not_finite, range) = (ErrorKind::NotFinite, ErrorKind::OutOfRange);
    for (bands, colors, clarities, n, kind, text) in [
        (vec![0.3, 0.3, 6.0], &c[..], &q[..], 240, ErrorKind::NotIncreasing, "strictly increasing"),
        (vec![0.4, 6.0], &c, &q, 160, range, "cover 0.3 to 6"),
        (vec![0.3, 5.0], &c, &q, 160, range, "cover 0.3 to 6"),
        (vec![0.3], &c, &q, 80, ErrorKind::Shape, "at least 2"),
        (vec![0.3, 6.0], &c[1..], &q, 144, ErrorKind::Shape, "misses grade D"),
        (vec![0.3, 6.0], &c, &twice, 180, ErrorKind::Shape, "repeats grade VS2"),
        (vec![0.3, 6.0], &c, &q, 159, ErrorKind::Shape, "expected 160 values"),
        (vec![0.3, f64::NAN, 6.0], &c, &q, 240, not_finite, "finite"),
    ] {
        let err =
            PriceMatrix::new(bands, colors.to_vec(), clarities.to_vec(), vec![0.0; n]).unwrap_err();
        assert_eq!(err.kind(), kind, "{text}: {err}");
        assert!(err.message().contains(text), "{err:?} should mention {text:?}");
    }
    let mut values = vec![0.0; 160];
    values[7] = f64::INFINITY;
    let err = PriceMatrix::new(vec![0.3, 6.0], c, q, values).unwrap_err();
    assert_eq!(err.kind(), not_finite);
}
