//! Tests of `smooth`: PAVA by example and by property, and whole-matrix smoothing.

use pricing::{Clarity, Color};
use proptest::prelude::*;

use super::{pava, smooth, worst_violation};
use crate::{
    cells::{Cells, Provenance},
    scope::{BAND_CARATS, CELLS, cell_index},
};

#[test]
fn pava_examples() {
    assert_eq!(pava(&[1.0, 2.0, 3.0], &[1.0; 3]), vec![1.0, 2.0, 3.0]);
    assert_eq!(pava(&[3.0, 1.0], &[1.0, 1.0]), vec![2.0, 2.0]);
    assert_eq!(pava(&[3.0, 1.0], &[3.0, 1.0]), vec![2.5, 2.5]);
    assert_eq!(pava(&[1.0, 4.0, 2.0, 3.0], &[1.0; 4]), vec![1.0, 3.0, 3.0, 3.0]);
    assert!(pava(&[], &[]).is_empty());
}

proptest! {
    #[test]
    fn pava_is_monotone_and_keeps_the_weighted_mean(
        pairs in proptest::collection::vec((-1e3f64..1e3, 0.01f64..10.0), 0..40)
    ) {
        let (values, weights): (Vec<f64>, Vec<f64>) = pairs.into_iter().unzip();
        let fitted = pava(&values, &weights);
        prop_assert_eq!(fitted.len(), values.len());
        prop_assert!(fitted.windows(2).all(|w| w[0] <= w[1] + 1e-9), "not monotone: {:?}", fitted);
        let mean = |v: &[f64]| v.iter().zip(&weights).map(|(v, w)| v * w).sum::<f64>();
        let largest = values.iter().map(|v| v.abs()).fold(1.0, f64::max);
        let scale = largest * weights.iter().sum::<f64>();
        prop_assert!((mean(&values) - mean(&fitted)).abs() <= 1e-9 * scale, "weighted mean moved");
    }
}

#[test]
fn smoothing_removes_every_violation_and_keeps_monotone_input() {
    let mut cells = Cells::empty();
    // A monotone surface with deliberate inversions in every direction.
    for (band, carat) in BAND_CARATS.iter().enumerate() {
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                let cell = cell_index(band, color, clarity);
                let noise = if (band + color.index() * 3 + clarity.index() * 7) % 5 == 0 {
                    0.3
                } else {
                    0.0
                };
                cells.ln[cell] = 8.0 - 0.05 * color.index() as f64 - 0.04 * clarity.index() as f64
                    + 0.5 * carat.ln()
                    + noise;
                cells.provenance[cell] = Some(Provenance::Observed);
                cells.listings[cell] = 3;
            }
        }
    }
    assert!(worst_violation(&cells.ln) > 0.1);
    let outcome = smooth(&mut cells);
    assert_eq!(worst_violation(&cells.ln), 0.0, "{outcome:?}");
    assert!(cells.smoothed.iter().any(|&s| s));
    // Already monotone: nothing moves.
    let before = cells.ln.clone();
    let again = smooth(&mut cells);
    assert_eq!(again.passes, 0);
    assert_eq!(cells.ln, before);
    assert!(cells.smoothed.iter().all(|&s| !s));
    assert_eq!(cells.ln.len(), CELLS);
}
