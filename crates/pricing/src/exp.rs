//! `e^x` and `2^(y / 64)` for prices, each within two ulps of the C library's (`f64::exp`,
//! `f64::exp2`), computed in line where the price is, without a call into the library.
//!
//! `x = (64 k + j) ln 2 / 64 + r` with `|r| <= ln 2 / 128`, so `e^x = 2^k 2^(j / 64) e^r`:
//! the power of two goes into the exponent's bits, `2^(j / 64)` comes from a table of the
//! 64 values rounded to the nearest double, and `e^r - 1` from its Taylor polynomial to
//! `r^5` (what it leaves out is below 4e-17 of the result). [`exp`] takes `x` in ln units
//! (outside `|x| < 708`, and for NaN, it is `f64::exp`). [`exp2_64ths`] takes it already in
//! 64ths of `ln 2`, as a matrix keeps its lines (`PriceMatrix::per_carat`), so it skips the
//! multiplication into 64ths and the two-part subtraction that keeps `r` exact; it tests
//! nothing, its caller keeps the argument inside the table (`LN_PRICE_LIMIT`).

/// `64 / ln 2`: `x` in 64ths of `ln 2`.
pub(crate) const SIXTY_FOURTHS_PER_LN2: f64 = 92.33248261689366;
/// `ln 2 / 64` in two parts: the first with 35 significant bits, so that its product with a
/// count of 64ths below 2^18 is exact, and the rest.
const LN2_BY_64_HI: f64 = 0.010830424695996044;
const LN2_BY_64_LO: f64 = 2.5310172166650877e-13;
/// `ln 2 / 64` rounded to the nearest double (`LN2_BY_64_HI + LN2_BY_64_LO`).
const LN2_BY_64: f64 = 0.010830424696249145;
/// `1.5 * 2^52`: added to a number of magnitude below 2^51, it rounds it to an integer and
/// leaves that integer in the low bits of the sum's representation.
const ROUND: f64 = 6755399441055744.0;

/// `2^(j / 64)` for `j` in `0..64`, each the double nearest to it (the bits, as
/// `f64::from_bits` reads them).
#[rustfmt::skip]
const POWERS: [u64; 64] = [
    0x3ff0000000000000, 0x3ff02c9a3e778061, 0x3ff059b0d3158574, 0x3ff0874518759bc8,
    0x3ff0b5586cf9890f, 0x3ff0e3ec32d3d1a2, 0x3ff11301d0125b51, 0x3ff1429aaea92de0,
    0x3ff172b83c7d517b, 0x3ff1a35beb6fcb75, 0x3ff1d4873168b9aa, 0x3ff2063b88628cd6,
    0x3ff2387a6e756238, 0x3ff26b4565e27cdd, 0x3ff29e9df51fdee1, 0x3ff2d285a6e4030b,
    0x3ff306fe0a31b715, 0x3ff33c08b26416ff, 0x3ff371a7373aa9cb, 0x3ff3a7db34e59ff7,
    0x3ff3dea64c123422, 0x3ff4160a21f72e2a, 0x3ff44e086061892d, 0x3ff486a2b5c13cd0,
    0x3ff4bfdad5362a27, 0x3ff4f9b2769d2ca7, 0x3ff5342b569d4f82, 0x3ff56f4736b527da,
    0x3ff5ab07dd485429, 0x3ff5e76f15ad2148, 0x3ff6247eb03a5585, 0x3ff6623882552225,
    0x3ff6a09e667f3bcd, 0x3ff6dfb23c651a2f, 0x3ff71f75e8ec5f74, 0x3ff75feb564267c9,
    0x3ff7a11473eb0187, 0x3ff7e2f336cf4e62, 0x3ff82589994cce13, 0x3ff868d99b4492ed,
    0x3ff8ace5422aa0db, 0x3ff8f1ae99157736, 0x3ff93737b0cdc5e5, 0x3ff97d829fde4e50,
    0x3ff9c49182a3f090, 0x3ffa0c667b5de565, 0x3ffa5503b23e255d, 0x3ffa9e6b5579fdbf,
    0x3ffae89f995ad3ad, 0x3ffb33a2b84f15fb, 0x3ffb7f76f2fb5e47, 0x3ffbcc1e904bc1d2,
    0x3ffc199bdd85529c, 0x3ffc67f12e57d14b, 0x3ffcb720dcef9069, 0x3ffd072d4a07897c,
    0x3ffd5818dcfba487, 0x3ffda9e603db3285, 0x3ffdfc97337b9b5f, 0x3ffe502ee78b3ff6,
    0x3ffea4afa2a490da, 0x3ffefa1bee615a27, 0x3fff50765b6e4540, 0x3fffa7c1819e90d8,
];

/// `e^x`, within two ulps of `f64::exp(x)` (a property test holds it over the range prices
/// take and beyond).
#[inline(always)]
pub(crate) fn exp(x: f64) -> f64 {
    #[expect(clippy::neg_cmp_op_on_partial_ord, reason = "one compare that NaN fails too")]
    if !(x.abs() < 708.0) {
        return exp_far(x);
    }
    // `x` in 64ths of `ln 2`, rounded to the nearest whole one, and the rest in ln units.
    let shifted = x * SIXTY_FOURTHS_PER_LN2 + ROUND;
    let whole = shifted - ROUND;
    let r = (x - whole * LN2_BY_64_HI) - whole * LN2_BY_64_LO;
    power_times_taylor(shifted, r, TAYLOR)
}

/// `2^(y / 64)`, that is `e^x` for `y = x 64 / ln 2`, for `|y| < 708 * 64 / ln 2`, which the
/// caller guarantees (a debug build checks it). Within two ulps of `(y / 64).exp2()` (a
/// property test holds it).
#[inline(always)]
pub(crate) fn exp2_64ths(y: f64) -> f64 {
    debug_assert!(y.abs() < 708.0 * SIXTY_FOURTHS_PER_LN2, "{y}");
    let shifted = y + ROUND;
    // The rest in 64ths, exact: `y` and the whole number nearest it are within a half.
    let rest = y - (shifted - ROUND);
    power_times_taylor(shifted, rest, TAYLOR_64THS)
}

/// `e^r - 1`'s Taylor coefficients to `r^5`.
const TAYLOR: [f64; 5] = [1.0, 1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0];
/// The same for `r` in 64ths of `ln 2`: each `k`th coefficient times `(ln 2 / 64)^k`.
const TAYLOR_64THS: [f64; 5] = {
    let mut scaled = TAYLOR;
    let mut k = 0;
    let mut power = 1.0;
    while k < 5 {
        power *= LN2_BY_64;
        scaled[k] *= power;
        k += 1;
    }
    scaled
};

/// `2^(k / 64) (1 + p(t))`: `k` the whole number `shifted` holds (`t`'s rounded argument
/// plus [`ROUND`]), `p` the polynomial of `coefficients` without a constant term. A
/// coefficient of 1 costs nothing: `t * 1.0` is `t`.
#[inline(always)]
fn power_times_taylor(shifted: f64, t: f64, coefficients: [f64; 5]) -> f64 {
    let [c1, c2, c3, c4, c5] = coefficients;
    let k64 = shifted.to_bits().wrapping_sub(ROUND.to_bits()) as i64;
    // `2^(k64 / 64)`: the table's entry for the remainder, its exponent raised by the rest.
    let power = POWERS[(k64 & 63) as usize].wrapping_add(((k64 >> 6) as u64) << 52);
    let scale = f64::from_bits(power);
    // In pairs of terms (Estrin's scheme): a shorter chain than one term after another.
    let t2 = t * t;
    let poly = (t * c1 + t2 * (c2 + t * c3)) + (t2 * t2) * (c4 + t * c5);
    scale + scale * poly
}

/// `f64::exp`, where the table's range ends.
#[cold]
fn exp_far(x: f64) -> f64 {
    x.exp()
}

#[cfg(test)]
mod tests;
