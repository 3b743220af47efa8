//! Unit tests for DCX arithmetic.

use crate::{BasketEntry, percent_change, weighted_geometric_mean};

fn entry(weight: f64, per_carat: f64) -> BasketEntry {
    BasketEntry { weight, per_carat }
}

#[test]
fn geometric_not_arithmetic_mean() {
    let dcx = weighted_geometric_mean(&[entry(0.5, 1000.0), entry(0.5, 4000.0)]).unwrap();
    assert!((dcx - 2000.0).abs() < 1e-9, "{dcx}");
}

#[test]
fn weights_are_normalised() {
    let a = weighted_geometric_mean(&[entry(1.0, 1000.0), entry(3.0, 5000.0)]).unwrap();
    let b = weighted_geometric_mean(&[entry(0.25, 1000.0), entry(0.75, 5000.0)]).unwrap();
    assert!((a - b).abs() < 1e-9);
    let expected = (0.25 * 1000f64.ln() + 0.75 * 5000f64.ln()).exp();
    assert!((b - expected).abs() < 1e-9);
}

#[test]
fn refuses_bad_baskets() {
    assert!(weighted_geometric_mean(&[]).is_err());
    assert!(weighted_geometric_mean(&[entry(0.0, 1.0)]).is_err());
    assert!(weighted_geometric_mean(&[entry(1.0, -1.0)]).is_err());
    assert!(weighted_geometric_mean(&[entry(f64::NAN, 1.0)]).is_err());
}

#[test]
fn percent_change_reads_as_percent() {
    assert!((percent_change(1000.0, 1001.3).unwrap() - 0.13).abs() < 1e-9);
    assert!((percent_change(1000.0, 990.0).unwrap() + 1.0).abs() < 1e-9);
    assert!(percent_change(0.0, 1.0).is_err());
}
