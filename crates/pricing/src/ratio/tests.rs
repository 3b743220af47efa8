//! Unit tests for ratio models (docs/decisions.md 2.2).

use crate::{
    BaseMatrix, ErrorKind, RatioBand, RatioModel, Slider, ValueMode,
    test_util::{model, points},
};

#[test]
fn value_modes_follow_the_spec() {
    assert_eq!(ValueMode::from_feed("delta_pct"), ValueMode::DeltaPct);
    assert_eq!(ValueMode::from_feed("pct_of_base"), ValueMode::PercentOfBase);
    assert_eq!(ValueMode::from_feed(""), ValueMode::PercentOfBase);
    assert_eq!(ValueMode::DeltaPct.multiplier(10.0), 1.1);
    assert_eq!(ValueMode::DeltaPct.multiplier(-5.0), 0.95);
    assert_eq!(ValueMode::PercentOfBase.multiplier(65.0), 0.65);
}

#[test]
fn data_source_selects_the_base() {
    assert_eq!(BaseMatrix::from_data_source("cushion"), BaseMatrix::Cushion);
    assert_eq!(BaseMatrix::from_data_source("round"), BaseMatrix::Round);
    assert_eq!(BaseMatrix::from_data_source("anything"), BaseMatrix::Round);
}

#[test]
fn linear_between_points_exact_at_points() {
    let m = model(BaseMatrix::Round, ValueMode::DeltaPct);
    let (band, _) = m.band_for(0.5);
    assert_eq!(band.value_at(1.3), (1.3, 0.0));
    assert_eq!(band.value_at(1.5), (1.5, 10.0));
    let (ratio, value) = band.value_at(1.4);
    assert_eq!(ratio, 1.4);
    assert!((value - 5.0).abs() < 1e-12, "{value}");
    let (_, value) = band.value_at(1.6);
    assert!((value - 5.0).abs() < 1e-12, "{value}");
}

#[test]
fn clamps_outside_the_observed_range_and_flags_it() {
    let m = model(BaseMatrix::Round, ValueMode::DeltaPct);
    let inside = m.adjust(0.5, 1.45);
    assert!(!inside.preference_driven);
    let above = m.adjust(0.5, 1.8);
    assert!(above.preference_driven);
    assert_eq!(above.applied_ratio, 1.7);
    assert_eq!(above.value, 0.0);
    assert_eq!(above.multiplier, 1.0);
    let below = m.adjust(0.5, 1.25);
    assert!(below.preference_driven);
    assert_eq!(below.applied_ratio, 1.3);
    assert_eq!(below.observed_range, (1.3, 1.7));
}

#[test]
fn a_nan_ratio_reads_the_first_anchor() {
    let d = ValueMode::DeltaPct;
    let band = RatioBand::new(0.3, None, points(&[(1.3, -2.0), (1.7, 4.0)]), d).unwrap();
    let slider = Slider::new(1.2, 1.5, 2.0).unwrap();
    let m = RatioModel::new(BaseMatrix::Round, d, slider, vec![band]).unwrap();
    let nan = m.adjust(0.5, f64::NAN);
    assert!(nan.applied_ratio.is_nan() && !nan.preference_driven);
    assert_eq!((nan.value, nan.multiplier), (-2.0, 0.98));
}

#[test]
fn band_selection_inclusive_upper_band_owns_shared_carat() {
    let m = model(BaseMatrix::Round, ValueMode::DeltaPct);
    assert_eq!(m.band_for(0.3).0.min_carat(), 0.3);
    assert_eq!(m.band_for(0.99).0.min_carat(), 0.3);
    // 1.0 is the max of the first band and the min of the second: the second owns it.
    assert_eq!(m.band_for(1.0).0.min_carat(), 1.0);
    assert_eq!(m.band_for(6.0), (&m.bands()[1], false));
}

#[test]
fn nearest_band_when_none_covers_the_carat() {
    let mode = ValueMode::DeltaPct;
    let m = RatioModel::new(
        BaseMatrix::Round,
        mode,
        Slider::new(1.0, 1.2, 1.5).unwrap(),
        vec![
            RatioBand::new(0.5, Some(0.9), points(&[(1.0, 1.0), (1.5, 2.0)]), mode).unwrap(),
            RatioBand::new(1.5, Some(2.0), points(&[(1.0, 3.0), (1.5, 4.0)]), mode).unwrap(),
        ],
    )
    .unwrap();
    let below = m.adjust(0.3, 1.0);
    assert!(below.band_extrapolated);
    assert_eq!(below.band_carats, (0.5, Some(0.9)));
    let gap_low = m.adjust(1.0, 1.0);
    assert!(gap_low.band_extrapolated);
    assert_eq!(gap_low.band_carats, (0.5, Some(0.9)));
    let gap_high = m.adjust(1.4, 1.0);
    assert_eq!(gap_high.band_carats, (1.5, Some(2.0)));
    // Equidistant (0.3 from both): the lower band wins.
    assert_eq!(m.adjust(1.2, 1.0).band_carats, (0.5, Some(0.9)));
    let above = m.adjust(5.0, 1.0);
    assert!(above.band_extrapolated);
    assert_eq!(above.value, 3.0);
    assert!(!m.adjust(0.7, 1.0).band_extrapolated);
}

#[test]
fn band_refusals() {
    let (d, p) = (ValueMode::DeltaPct, ValueMode::PercentOfBase);
    let (order, range) = (ErrorKind::NotIncreasing, ErrorKind::OutOfRange);
    for (min, max, pts, mode, kind, text) in [
        (0.3, Some(1.0), &[(1.3, 0.0), (1.3, 1.0)][..], d, order, "strictly increasing"),
        (0.3, Some(1.0), &[(1.5, 0.0), (1.3, 1.0)], d, order, "strictly increasing"),
        (2.0, Some(1.0), &[(1.3, 0.0)], d, order, "above maxCarat"),
        (0.3, None, &[], d, ErrorKind::Shape, "at least one point"),
        (0.3, None, &[(f64::NAN, 0.0)], d, ErrorKind::NotFinite, "finite"),
        (0.3, None, &[(1.2, -100.0)], d, range, "positive"),
        (0.3, None, &[(1.2, 0.0)], p, range, "positive"),
    ] {
        let err = RatioBand::new(min, max, points(pts), mode).unwrap_err();
        assert_eq!(err.kind(), kind, "{text}: {err}");
        assert!(err.message().contains(text), "{err} should mention {text:?}");
    }
}

#[test]
fn model_refusals() {
    let d = ValueMode::DeltaPct;
    let slider = Slider::new(1.0, 1.2, 1.5).unwrap();
    let band = |min, max| RatioBand::new(min, max, points(&[(1.0, 0.0)]), d).unwrap();
    let overlap =
        RatioModel::new(BaseMatrix::Round, d, slider, vec![band(0.3, Some(1.5)), band(1.0, None)]);
    assert!(overlap.unwrap_err().message().contains("overlap"));
    let unsorted = RatioModel::new(
        BaseMatrix::Round,
        d,
        slider,
        vec![band(1.0, Some(2.0)), band(0.3, Some(0.9))],
    );
    assert!(unsorted.unwrap_err().message().contains("out of order"));
    let open_first =
        RatioModel::new(BaseMatrix::Round, d, slider, vec![band(0.3, None), band(1.0, None)]);
    assert!(open_first.unwrap_err().message().contains("open-ended"));
    assert!(RatioModel::new(BaseMatrix::Round, d, slider, vec![]).is_err());
    assert!(Slider::new(1.5, 1.2, 1.8).unwrap_err().message().contains("min <= center <= max"));
    assert!(Slider::new(1.0, 1.6, 1.5).is_err());
    assert!(Slider::new(0.0, 1.0, 1.5).is_err());
    assert!(Slider::new(1.0, 1.0, 1.0).is_ok());
}
