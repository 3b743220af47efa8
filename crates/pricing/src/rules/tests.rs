//! Unit tests for `crate::rules`: every rule, every problem at once, the same words.

use crate::{
    CARAT_MAX, CARAT_MIN, Clarity, Color, Given, QuoteField, QuoteInput, ROUND_RATIO_TOLERANCE,
    Shape, ShownNumber, test_util::request,
};

fn input<'a>() -> QuoteInput<'a> {
    QuoteInput {
        carat: Given::Value(1.0),
        color: Given::Value("G"),
        clarity: Given::Value("VS2"),
        shape: Given::Missing,
        ratio: Given::Missing,
    }
}

/// The fields and messages of every problem of `input`, in order.
#[track_caller]
fn problems(input: QuoteInput<'_>) -> Vec<(QuoteField, String)> {
    input.validate().unwrap_err().into_iter().map(|p| (p.field, p.message)).collect()
}

#[track_caller]
fn one_problem(input: QuoteInput<'_>) -> String {
    let mut all = problems(input);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0).1
}

#[test]
fn a_good_input_is_a_request() {
    assert_eq!(input().validate(), Ok(request(1.0, Shape::Round, None)));
    let fancy = QuoteInput {
        carat: Given::Value(CARAT_MAX),
        color: Given::Value(" d "),
        clarity: Given::Value("if"),
        shape: Given::Value("OVAL"),
        ratio: Given::Value(9.0), // the slider is a snapshot's rule
    };
    let request = fancy.validate().unwrap();
    assert_eq!(
        (request.color, request.clarity, request.shape),
        (Color::D, Clarity::If, Shape::Oval)
    );
    assert_eq!((request.carat, request.ratio), (CARAT_MAX, Some(9.0)));
    let low = QuoteInput { carat: Given::Value(CARAT_MIN), ..input() };
    assert_eq!(low.validate().unwrap().carat, CARAT_MIN);
}

#[test]
fn every_problem_is_reported_in_field_order() {
    let everything_wrong = QuoteInput {
        carat: Given::Value(9.0),
        color: Given::Value("Z"),
        clarity: Given::Unreadable("the boolean true".to_owned()),
        shape: Given::Value("blob"),
        ratio: Given::Value(-1.0),
    };
    assert_eq!(
        problems(everything_wrong),
        [
            (QuoteField::Carat, "carat must be between 0.3 and 6, got 9".to_owned()),
            (
                QuoteField::Color,
                r#"unknown color "Z"; allowed: D, E, F, G, H, I, J, K, L, M"#.to_owned()
            ),
            (
                QuoteField::Clarity,
                "clarity must be one of FL, IF, VVS1, VVS2, VS1, VS2, SI1, SI2, got the boolean true"
                    .to_owned()
            ),
            (
                QuoteField::Shape,
                r#"unknown shape "blob"; allowed: round, cushion, radiant, emerald, oval, pear, marquise, heart"#
                    .to_owned()
            ),
            (QuoteField::Ratio, "L/W ratio must be a positive number, got -1".to_owned()),
        ]
    );
}

#[test]
fn missing_required_fields_say_what_is_allowed() {
    let nothing = QuoteInput {
        carat: Given::Missing,
        color: Given::Missing,
        clarity: Given::Missing,
        shape: Given::Missing,
        ratio: Given::Missing,
    };
    assert_eq!(
        problems(nothing),
        [
            (QuoteField::Carat, "carat is required: a number of carats from 0.3 to 6".to_owned()),
            (
                QuoteField::Color,
                "color is required: one of D, E, F, G, H, I, J, K, L, M".to_owned()
            ),
            (
                QuoteField::Clarity,
                "clarity is required: one of FL, IF, VVS1, VVS2, VS1, VS2, SI1, SI2".to_owned()
            ),
        ]
    );
}

#[test]
fn carat_range_holds_for_every_kind_of_number() {
    for (carat, shown) in
        [(0.29, "0.29"), (6.01, "6.01"), (-1.0, "-1"), (f64::NAN, "NaN"), (f64::INFINITY, "inf")]
    {
        assert_eq!(
            one_problem(QuoteInput { carat: Given::Value(carat), ..input() }),
            format!("carat must be between 0.3 and 6, got {shown}")
        );
    }
    assert_eq!(
        one_problem(QuoteInput { carat: Given::number_text("abc"), ..input() }),
        r#"carat must be a number of carats from 0.3 to 6, got "abc""#
    );
}

#[test]
fn round_ratio_must_be_one_within_the_tolerance() {
    let round = |ratio: f64| QuoteInput { ratio: Given::Value(ratio), ..input() };
    assert_eq!(round(1.04).validate().unwrap().ratio, Some(1.04));
    assert!(round(0.96).validate().is_ok());
    assert!(round(1.0 + 2.0 * ROUND_RATIO_TOLERANCE).validate().is_err());
    // Both ends of "within 0.05" are accepted, as the published schemas state them.
    assert!(round(0.95).validate().is_ok() && round(1.05).validate().is_ok());
    assert!(round(f64::from_bits(0.95_f64.to_bits() - 1)).validate().is_err());
    assert!(round(f64::from_bits(1.05_f64.to_bits() + 1)).validate().is_err());
    for (ratio, shown) in [(1.3, "1.3"), (-1.0, "-1"), (f64::NAN, "NaN")] {
        assert_eq!(
            one_problem(round(ratio)),
            format!(
                "L/W ratio for a round stone must be 1 (within 0.05), got {shown}; omit it for round stones"
            )
        );
    }
}

#[test]
fn fancy_ratio_must_be_positive_even_when_the_shape_is_wrong() {
    for shape in ["oval", "blob"] {
        for ratio in [0.0, -0.5, f64::INFINITY] {
            let bad =
                QuoteInput { shape: Given::Value(shape), ratio: Given::Value(ratio), ..input() };
            let all = problems(bad);
            let ratio_problem = all.iter().find(|(field, _)| *field == QuoteField::Ratio).unwrap();
            assert_eq!(
                ratio_problem.1,
                format!("L/W ratio must be a positive number, got {ratio}")
            );
        }
    }
    let unreadable = QuoteInput { ratio: Given::number_text("wide"), ..input() };
    assert_eq!(
        one_problem(unreadable),
        r#"L/W ratio must be a positive number such as 1.35, within the shape's slider range; omit it for round stones, got "wide""#
    );
}

#[test]
fn echoed_numbers_are_short_even_when_tiny_or_huge() {
    let carat = |value: f64| one_problem(QuoteInput { carat: Given::Value(value), ..input() });
    assert_eq!(carat(5e-324), "carat must be between 0.3 and 6, got 5e-324");
    assert_eq!(carat(f64::MAX), "carat must be between 0.3 and 6, got 1.7976931348623157e308");
    assert_eq!(carat(1e15), "carat must be between 0.3 and 6, got 1000000000000000");
    assert_eq!(carat(6.000000000000001), "carat must be between 0.3 and 6, got 6.000000000000001");
    let round = |ratio: f64| one_problem(QuoteInput { ratio: Given::Value(ratio), ..input() });
    assert!(round(1e-300).contains("got 1e-300;"));
    let fancy = QuoteInput { shape: Given::Value("oval"), ratio: Given::Value(-5e-324), ..input() };
    assert_eq!(one_problem(fancy), "L/W ratio must be a positive number, got -5e-324");
    for bits in [1_u64, 0x000f_ffff_ffff_ffff, 0x8010_0000_0000_0000, 0x7fef_ffff_ffff_ffff] {
        let value = f64::from_bits(bits);
        let shown = ShownNumber(value).to_string();
        assert!(shown.len() <= 24, "{shown}");
        assert_eq!(shown.parse::<f64>(), Ok(value), "{shown} reads back");
    }
    for value in [1e-6, 0.000123, 1.35, 123456.789, 9.999999999999998e15] {
        assert_eq!(ShownNumber(value).to_string(), value.to_string());
    }
}

#[test]
fn texts_are_read_as_decimals_around_whitespace() {
    assert_eq!(Given::number_text(" 1.5\t"), Given::Value(1.5));
    assert_eq!(Given::number_text(""), Given::Unreadable(r#""""#.to_owned()));
    assert_eq!(Given::number_text("1,5"), Given::Unreadable(r#""1,5""#.to_owned()));
    let long = Given::number_text(&"9".repeat(65).replace('9', "x"));
    assert_eq!(long, Given::Unreadable(format!("{:?} (65 bytes)", format!("{}…", "x".repeat(64)))));
    assert_eq!(Given::from(Some(2.0)), Given::Value(2.0));
    assert_eq!(Given::<f64>::from(None), Given::Missing);
}

#[test]
fn allowed_texts_follow_the_constants_and_grade_lists() {
    assert!(QuoteField::Carat.allowed().contains(&format!("from {CARAT_MIN} to {CARAT_MAX}")));
    for shape in Shape::ALL {
        assert!(QuoteField::Shape.allowed().contains(shape.as_str()));
    }
    for (field, name) in QuoteField::ALL.iter().zip(["carat", "color", "clarity", "shape", "ratio"])
    {
        assert_eq!(field.name(), name);
        assert_eq!(field.to_string(), name);
    }
}

#[test]
fn accepted_ratios_are_exactly_the_ratios_a_quote_takes() {
    let set = crate::test_util::pricing_set();
    for &shape in Shape::ALL {
        let Some((min, max)) = set.accepted_ratios(shape) else {
            continue;
        };
        let quote = |ratio: f64| set.quote(&request(1.0, shape, Some(ratio)));
        assert!(quote(min).is_ok() && quote(max).is_ok(), "{shape}: both ends are priced");
        let below = f64::from_bits(min.to_bits() - 1);
        let above = f64::from_bits(max.to_bits() + 1);
        assert_eq!(quote(below).unwrap_err().field, QuoteField::Ratio, "{shape} below {min}");
        assert_eq!(quote(above).unwrap_err().field, QuoteField::Ratio, "{shape} above {max}");
    }
    assert_eq!(set.accepted_ratios(Shape::Round), Some((0.95, 1.05)));
    let bare =
        crate::PricingSet::new(set.round().clone(), set.cushion().clone(), Default::default());
    for &shape in Shape::FANCY {
        assert_eq!(bare.accepted_ratios(shape), None, "{shape} has no model");
    }
}
