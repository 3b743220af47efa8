//! The crate's `exp` against `f64::exp` (within two ulps everywhere it computes, exactly
//! `f64::exp` where it hands over), and the quote's `exp2_64ths` against `f64::exp2`.

use proptest::prelude::*;

use super::{POWERS, SIXTY_FOURTHS_PER_LN2, exp, exp2_64ths};

/// How many doubles lie between `a` and `b` (both positive and finite).
fn ulps_apart(a: f64, b: f64) -> u64 {
    a.to_bits().abs_diff(b.to_bits())
}

#[test]
fn each_power_is_two_to_its_sixty_fourths() {
    for (j, &bits) in POWERS.iter().enumerate() {
        let want = (j as f64 / 64.0).exp2();
        assert_eq!(bits, want.to_bits(), "2^({j}/64)");
    }
}

#[test]
fn whole_powers_and_the_ends() {
    assert_eq!(exp(0.0), 1.0);
    assert_eq!(exp(-0.0), 1.0);
    for x in [1.0, -1.0, 8.839707, 707.9, -707.9, 0.5f64.ln(), 2f64.ln() * 10.0] {
        assert!(ulps_apart(exp(x), x.exp()) <= 2, "{x}");
    }
    // Where the table ends, `f64::exp` itself.
    for x in [708.0, 709.7, 710.0, -708.0, -745.0, -750.0, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(exp(x).to_bits(), x.exp().to_bits(), "{x}");
    }
    assert!(exp(f64::NAN).is_nan());
}

proptest! {
    #[test]
    fn within_two_ulps_of_the_c_library(x in prop_oneof![
        // The ln prices of a matrix, and around them.
        4 => 0.0f64..20.0,
        1 => -707.99f64..707.99,
        1 => -1e-6f64..1e-6,
    ]) {
        let (got, want) = (exp(x), x.exp());
        prop_assert!(ulps_apart(got, want) <= 2, "exp({}) = {} against {}", x, got, want);
    }

    #[test]
    fn in_sixty_fourths_within_two_ulps_of_exp2(y in prop_oneof![
        // The ln prices of a matrix in 64ths of ln 2, and around them.
        4 => 0.0f64..20.0 * SIXTY_FOURTHS_PER_LN2,
        1 => -707.99 * SIXTY_FOURTHS_PER_LN2..707.99 * SIXTY_FOURTHS_PER_LN2,
        1 => -1e-4f64..1e-4,
    ]) {
        let (got, want) = (exp2_64ths(y), (y / 64.0).exp2());
        prop_assert!(ulps_apart(got, want) <= 2, "2^({} / 64) = {} against {}", y, got, want);
    }
}
