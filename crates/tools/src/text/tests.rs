//! `Text`'s numbers against the standard formatter.

use super::Text;

/// What `write` appends to an empty text.
fn written(write: impl FnOnce(&mut Text)) -> String {
    let mut text = Text::with_capacity(0);
    write(&mut text);
    super::unescaped(&text.into_escaped())
}

proptest::proptest! {
    /// Numbers in texts and links are the digits `{}` writes, whichever route writes them.
    #[test]
    fn decimals_are_written_as_display_writes_them(
        value in proptest::prop_oneof![0.0f64..10.0, -1e7f64..1e7, proptest::num::f64::ANY],
        cents in 0u64..100_000_000,
    ) {
        for value in [value, cents as f64 / 100.0, cents as f64 / 10_000.0] {
            proptest::prop_assert_eq!(written(|text| text.decimal(value)), format!("{value}"));
        }
    }

    /// The multiplier is written as `{:.4}` writes it.
    #[test]
    fn fixed_decimals_are_written_as_format_writes_them(
        value in proptest::prop_oneof![0.0f64..4.0, -1e9f64..1e9, proptest::num::f64::ANY],
        units in 0u64..100_000_000,
    ) {
        for value in [value, units as f64 / 1e4, (units as f64 + 0.5) / 1e4, -(units as f64) / 1e8] {
            proptest::prop_assert_eq!(written(|text| text.fixed4(value)), format!("{value:.4}"));
        }
    }

    /// Integers and dollars are written as `{}` and `words::usd` write them.
    #[test]
    fn integers_and_dollars_are_written_as_display_and_usd_write_them(
        value in proptest::num::u64::ANY,
        amount in proptest::prop_oneof![0.0f64..1e4, -1e7f64..1e7, -1e16f64..1e16],
    ) {
        proptest::prop_assert_eq!(written(|text| text.integer(value)), value.to_string());
        proptest::prop_assert_eq!(written(|text| text.usd(amount)), words::usd(amount));
    }
}

#[test]
fn dollars_at_the_edges_are_written_as_usd_writes_them() {
    let edges = [0.0, -0.001, 0.004, 0.005, 0.5, 9.995, 999.99, 999.995, 1000.0, 12_345.678];
    for amount in edges.into_iter().chain([999_999.99, 999_999.995, 1e6, -5.0, f64::NAN]) {
        assert_eq!(written(|text| text.usd(amount)), words::usd(amount), "{amount}");
    }
}

/// A text says whether it wrote an escape, whichever way it was written: the twin of a
/// text without one is a copy of it, so a missed escape would make the twin wrong.
#[test]
fn a_text_knows_whether_it_wrote_an_escape() {
    let has_escapes = |write: &dyn Fn(&mut Text)| {
        let mut text = Text::with_capacity(0);
        write(&mut text);
        text.has_escapes()
    };
    assert!(!has_escapes(&|t| {
        t.name("VS2");
        t.decimal(1.23);
        t.usd(1234.5);
        crate::text::lit!(t, "/track?shape=");
        t.push_str("https://feeds.example.com");
    }));
    assert!(has_escapes(&|t| crate::text::lit!(t, "Total\n")));
    assert!(has_escapes(&|t| t.push_str(r#"a"b"#)));
    assert!(has_escapes(&|t| t.push_str("tab\there")));
    // Once written, an escape stays counted.
    assert!(has_escapes(&|t| {
        t.push_str("\\");
        t.name("G");
    }));
}
