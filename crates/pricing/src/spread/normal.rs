//! The standard normal distribution function, to double precision, for the tails of a
//! spread: a series for the middle, a continued fraction far out.

/// The 10th percentile of the standard normal.
pub(crate) const Z10: f64 = -1.281_551_565_544_600_4;
/// The 25th percentile of the standard normal.
pub(crate) const Z25: f64 = -0.674_489_750_196_081_7;

/// P(Z <= z) for a standard normal Z.
pub(crate) fn cdf(z: f64) -> f64 {
    let x = z / std::f64::consts::SQRT_2;
    if x < 0.0 { 0.5 * erfc(-x) } else { 1.0 - 0.5 * erfc(x) }
}

/// The complementary error function for `x >= 0`.
fn erfc(x: f64) -> f64 {
    if x < 3.0 {
        return 1.0 - erf_series(x);
    }
    // erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))).
    let mut f = x;
    for k in (1..=60).rev() {
        f = x + f64::from(k) / 2.0 / f;
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * f)
}

/// erf(x) = 2/sqrt(pi) exp(-x^2) sum x^(2n+1) 2^n / (1 3 5 ... (2n+1)): every term
/// positive, so nothing cancels.
fn erf_series(x: f64) -> f64 {
    let (mut term, mut sum) = (x, x);
    for n in 1..200 {
        term *= 2.0 * x * x / f64::from(2 * n + 1);
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert!((cdf(Z10) - 0.1).abs() < 1e-14, "{}", cdf(Z10));
        assert!((cdf(Z25) - 0.25).abs() < 1e-14, "{}", cdf(Z25));
        assert_eq!(cdf(0.0), 0.5);
        assert!((cdf(-3.0) - 0.001_349_898_031_630_094_6).abs() < 1e-15);
        assert!((cdf(-5.0) - 2.866_515_718_791_939e-7).abs() < 1e-19);
        assert!((cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-14);
    }

    #[test]
    fn monotone_across_the_switch() {
        let mut last = 0.0;
        for step in -8000..=8000 {
            let value = cdf(f64::from(step) / 1000.0);
            assert!(value >= last, "{step}");
            last = value;
        }
    }
}
