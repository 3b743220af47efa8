//! `Decimal` and `Fixed` write exactly what `{}` and `{:.N}` write.

use proptest::prelude::*;

use super::{Decimal, StackText, fixed, to_json};

#[test]
fn decimal_examples() {
    for (value, text) in [
        (1.35, "1.35"),
        (1.0, "1"),
        (0.3, "0.3"),
        (6.0, "6"),
        (-0.0, "-0"),
        (0.0001, "0.0001"),
        (1e-7, "0.0000001"),
        (1e21, "1000000000000000000000"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "inf"),
    ] {
        assert_eq!(Decimal(value).to_string(), text, "{value:?}");
    }
}

#[test]
fn fixed_examples() {
    for (value, decimals, text) in [
        (1.0, 4, "1.0000"),
        (0.98765, 4, "0.9877"),
        (-0.00001, 4, "-0.0000"),
        (-0.0, 4, "-0.0000"),
        (12.5, 0, "12"),
        (0.125, 2, "0.12"),
        (f64::NAN, 4, "NaN"),
        (1e12, 4, "1000000000000.0000"),
    ] {
        assert_eq!(fixed(value, decimals).to_string(), text, "{value:?} to {decimals}");
    }
}

#[test]
fn digits_pad_to_the_width() {
    let digits = |value: u64, width: u32| {
        let mut text = StackText::default();
        text.digits(value, width);
        String::from_utf8(text.as_bytes().to_vec()).unwrap()
    };
    assert_eq!(digits(0, 1), "0");
    assert_eq!(digits(0, 0), "0");
    assert_eq!(digits(7, 3), "007");
    assert_eq!(digits(1234, 2), "1234");
    assert_eq!(digits(5, 8), "00000005");
    assert_eq!(digits(u64::MAX, 1), u64::MAX.to_string());
    assert_eq!(digits(1, 30), format!("{:020}", 1));
}

#[test]
fn json_numbers_examples() {
    for value in
        [0.0, -0.0, 1.0, 1.35, 0.0001, 0.00012, 123456.78, 999999.9999, 1e6, 1e16, 1e-7, -2.5]
    {
        assert_eq!(to_json(&value).unwrap(), serde_json::to_string(&value).unwrap(), "{value:?}");
    }
    let object = serde_json::json!({"a": 1.5, "b": [1, -2, 3.25], "c": "x", "d": null});
    assert_eq!(to_json(&object).unwrap(), serde_json::to_string(&object).unwrap());
}

/// `units / 10^decimals` as the nearest f64: the numbers the short route handles.
fn short_decimal() -> impl Strategy<Value = f64> {
    (-1_000_000_000_000i64..1_000_000_000_000, 0u32..=6)
        .prop_map(|(units, decimals)| units as f64 / 10f64.powi(decimals as i32))
}

proptest! {
    #[test]
    fn json_numbers_are_serde_json_for_every_f64(bits in any::<u64>()) {
        let value = f64::from_bits(bits);
        prop_assert_eq!(to_json(&value).unwrap(), serde_json::to_string(&value).unwrap());
    }

    #[test]
    fn short_decimals_are_written_like_display_and_serde_json(value in short_decimal()) {
        prop_assert_eq!(Decimal(value).to_string(), format!("{value}"));
        prop_assert_eq!(to_json(&value).unwrap(), serde_json::to_string(&value).unwrap());
    }

    #[test]
    fn decimal_is_display_for_every_f64(bits in any::<u64>()) {
        let value = f64::from_bits(bits);
        prop_assert_eq!(Decimal(value).to_string(), format!("{value}"));
    }

    #[test]
    fn decimal_is_display_in_the_tool_ranges(value in -100.0f64..100.0) {
        prop_assert_eq!(Decimal(value).to_string(), format!("{value}"));
    }

    #[test]
    fn decimal_is_display_at_the_ends_of_the_fast_range(
        small in 1e-4f64..1e-2,
        large in 1e5f64..1e6,
        negative in any::<bool>(),
    ) {
        for value in [small, large] {
            let value = if negative { -value } else { value };
            prop_assert_eq!(Decimal(value).to_string(), format!("{value}"));
        }
    }

    #[test]
    fn fixed_is_standard_precision(value in -1e6f64..1e6, decimals in 0u32..=8) {
        prop_assert_eq!(
            fixed(value, decimals).to_string(),
            format!("{value:.prec$}", prec = decimals as usize)
        );
    }

    #[test]
    fn fixed_is_standard_precision_near_ties(units in -2_000_000i64..2_000_000, decimals in 0u32..=6) {
        // k + 1/2 units of the last decimal, as close as an f64 gets.
        let value = (units as f64 + 0.5) / 10f64.powi(decimals as i32);
        prop_assert_eq!(
            fixed(value, decimals).to_string(),
            format!("{value:.prec$}", prec = decimals as usize)
        );
    }
}
