//! Unit tests of the dollar formats.

use super::{USD_BYTES_MAX, digit_by_digit, under_a_million};
use crate::{eight_digits, grouped, usd, usd_whole};

#[test]
fn dollars_are_rounded_grouped_and_signed() {
    assert_eq!(usd(0.0), "$0.00");
    assert_eq!(usd(5.0), "$5.00");
    assert_eq!(usd(0.125), "$0.13");
    assert_eq!(usd(999.999), "$1,000.00");
    assert_eq!(usd(7217.06), "$7,217.06");
    assert_eq!(usd(12_345.6), "$12,345.60");
    assert_eq!(usd(1_234_567.891), "$1,234,567.89");
    assert_eq!(usd(-5.0), "-$5.00");
    assert_eq!(usd(-1234.5), "-$1,234.50");
    assert_eq!(usd(-0.001), "$0.00");
    assert_eq!(usd(0.004), "$0.00");
    assert_eq!(usd(1_000_000.05), "$1,000,000.05");
    assert_eq!(usd(90_000_000_000_000.0), "$90,000,000,000,000.00");
}

#[test]
fn whole_dollars_are_rounded_grouped_and_signed() {
    assert_eq!(usd_whole(5867.53), "$5,868");
    assert_eq!(usd_whole(100.0), "$100");
    assert_eq!(usd_whole(123_456.0), "$123,456");
    assert_eq!(usd_whole(-1500.2), "-$1,500");
    assert_eq!(usd_whole(-0.4), "$0");
}

#[test]
fn counts_are_grouped_by_thousands() {
    assert_eq!(grouped(0), "0");
    assert_eq!(grouped(999), "999");
    assert_eq!(grouped(1000), "1,000");
    assert_eq!(grouped(1_234_567), "1,234,567");
    assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
}

#[test]
fn eight_digits_are_the_decimal_digits() {
    for n in (0..100_000_000u32).step_by(9_973).chain([0, 9, 10, 99_999_999]) {
        let expect = format!("{n:08}").bytes().fold(0u64, |acc, b| acc << 8 | u64::from(b - b'0'));
        assert_eq!(eight_digits(n), expect, "{n}");
    }
}

#[test]
fn dollars_under_a_million_read_as_written_digit_by_digit() {
    let edges = [0, 1, 99, 100, 999, 99_999, 100_000, 100_001, 9_999_999, 10_000_000, 99_999_999];
    for cents in (0..100_000_000u32).step_by(7_919).chain(edges) {
        let (mut fast, mut slow) = ([0; USD_BYTES_MAX], [0; USD_BYTES_MAX]);
        let fast = under_a_million(cents, &mut fast).to_vec();
        assert_eq!(fast, digit_by_digit(i64::from(cents), &mut slow), "{cents}");
    }
}

#[test]
fn integer_digits_are_the_decimal_digits() {
    for value in [0, 7, 10, 99, 100, 123_456_789, u64::from(u32::MAX), u64::MAX - 1, u64::MAX] {
        let mut buffer = [0; 20];
        let digits = super::integer_digits(value, &mut buffer);
        assert_eq!(std::str::from_utf8(digits).unwrap(), value.to_string());
    }
}
