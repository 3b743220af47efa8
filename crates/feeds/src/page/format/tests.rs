//! Unit tests of the number formats.

use super::*;

#[test]
fn percents_carry_a_sign_and_a_direction() {
    assert_eq!(percent(1.3149), "+1.31%");
    assert_eq!(percent(-0.47), "\u{2212}0.47%");
    assert_eq!(percent(0.001), "0.00%");
    assert_eq!(percent(-0.001), "0.00%");
    assert_eq!(direction(0.5), "up");
    assert_eq!(direction(-0.5), "down");
    assert_eq!(direction(-0.001), "flat");
}

#[test]
fn carats_keep_one_decimal() {
    assert_eq!(carat(1.0), "1.0");
    assert_eq!(carat(0.3), "0.3");
    assert_eq!(carat(6.0), "6.0");
}
