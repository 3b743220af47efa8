//! Tests of `get_diamond_price` argument reading and result shape.

use datasets::Snapshot;
use jsonrpc::Object;
use serde_json::{Value, json};

use crate::price::{Links, Output, price};

fn args(value: Value) -> Object<'static> {
    Object::from(value.as_object().unwrap().clone())
}

/// The reference snapshot's answer to the arguments `value`.
fn priced(value: Value) -> Result<Output, crate::args::ArgumentErrors> {
    price(&Snapshot::reference(), &args(value), &Links::default())
}

#[track_caller]
fn error(value: Value) -> String {
    priced(value).unwrap_err().to_string()
}

#[test]
fn round_quote_has_the_seed_fields() {
    let out = priced(json!({"carat": 1.0, "color": "g", "clarity": "vs2"})).unwrap();
    let s = &out.structured_value();
    assert_eq!(s["shape"], "round");
    assert_eq!(s["color"], "G");
    assert_eq!(s["clarity"], "VS2");
    assert_eq!(s["shape_ratio"], 1.0);
    assert_eq!(s["per_carat_usd"], 5900.0);
    assert_eq!(s["total_usd"], 5900.0);
    assert_eq!(
        s["tracking_url"],
        "http://127.0.0.1:8080/track?shape=round&carat=1&color=G&clarity=VS2"
    );
    assert_eq!(s["as_of"], "2026-11-20T00:00:00Z");
    assert_eq!(s["supported_ratio_range"], Value::Null);
    assert_eq!(s["preference_driven_ratio"], false);
    assert!(out.text().contains("Per carat: $5,900.00"), "{}", out.text());
}

#[test]
fn the_tracking_link_takes_any_feed_url_written_right() {
    let stone = json!({"carat": 1.0, "color": "G", "clarity": "VS2"});
    let query = "/track?shape=round&carat=1&color=G&clarity=VS2";
    // A URL has nothing to escape; text given as one still makes valid JSON, both forms.
    for (given, base) in [
        ("https://feeds.example.com/", "https://feeds.example.com"),
        (r#"http://h/a"b\c"#, r#"http://h/a"b\c"#),
    ] {
        let out = price(&Snapshot::reference(), &args(stone.clone()), &Links::new(given)).unwrap();
        out.assert_serde_json_bytes();
        assert_eq!(out.structured_value()["tracking_url"], format!("{base}{query}"));
    }
}

#[test]
fn total_is_rounded_from_the_unrounded_per_carat() {
    let out = priced(json!({"carat": 1.23, "color": "G", "clarity": "VS2"})).unwrap();
    let q = Snapshot::reference()
        .quote(&pricing::QuoteRequest {
            carat: 1.23,
            color: pricing::Color::G,
            clarity: pricing::Clarity::Vs2,
            shape: pricing::Shape::Round,
            ratio: None,
        })
        .unwrap();
    assert_eq!(out.structured_value()["total_usd"], pricing::round_cents(q.per_carat_usd * 1.23));
    assert_eq!(out.structured_value()["per_carat_usd"], pricing::round_cents(q.per_carat_usd));
}

#[test]
fn fancy_quote_reports_ranges_and_clamping() {
    let out = priced(
        json!({"carat": 1.5, "color": "G", "clarity": "VS2", "shape": "Oval", "shape_ratio": 1.65}),
    )
    .unwrap();
    let s = &out.structured_value();
    assert_eq!(s["shape"], "oval");
    assert_eq!(s["supported_ratio_range"], json!({"min": 1.25, "max": 1.7}));
    assert_eq!(s["observed_ratio_range"], json!({"min": 1.3, "max": 1.55}));
    assert_eq!(s["price_adjustment_ratio"], 1.55);
    assert_eq!(s["preference_driven_ratio"], true);
    assert_eq!(s["ratio_band"], json!({"min_carat": 1.0, "max_carat": 2.0}));
    assert!(s["tracking_url"].as_str().unwrap().ends_with("&ratio=1.65"));
    assert!(out.text().contains("preference-driven"));
}

#[test]
fn bad_arguments_are_all_named() {
    assert_eq!(
        error(json!({"carat": 7, "color": "G", "clarity": "VS2"})),
        "carat must be between 0.3 and 6, got 7"
    );
    assert_eq!(
        error(json!({"color": "Z", "clarity": 3, "size": 1})),
        [
            r#"unknown argument "size"; allowed arguments: carat, color, clarity, shape, shape_ratio"#,
            "carat is required: a number of carats from 0.3 to 6",
            r#"unknown color "Z"; allowed: D, E, F, G, H, I, J, K, L, M"#,
            "clarity must be one of FL, IF, VVS1, VVS2, VS1, VS2, SI1, SI2, got 3",
        ]
        .join("; ")
    );
    assert_eq!(
        error(json!({"carat": "1", "color": "G", "clarity": "VS2"})),
        r#"carat must be a number of carats from 0.3 to 6, got the string "1""#
    );
    assert_eq!(
        error(
            json!({"carat": 1, "color": "G", "clarity": "VS2", "shape": "oval", "shape_ratio": 3})
        ),
        "L/W ratio for oval must be between 1.25 and 1.7, got 3"
    );
    assert!(
        error(json!({"carat": 1, "color": "G", "clarity": "VS2", "shape": "princess"}))
            .contains("unknown shape \"princess\"")
    );
}

/// Every problem at once, in the words of `/track` and `dcx quote` (the quote rules').
#[test]
fn problems_have_the_quote_rules_words() {
    let arguments = args(json!({"shape": "blob", "carat": 9, "color": "Z", "clarity": "vs2"}));
    let errors = crate::price::request(&arguments).unwrap_err();
    let problems: Vec<(&str, &str)> =
        errors.listed.iter().map(|e| (e.argument.as_str(), e.message.as_str())).collect();
    assert_eq!(
        problems,
        [
            ("carat", "carat must be between 0.3 and 6, got 9"),
            ("color", r#"unknown color "Z"; allowed: D, E, F, G, H, I, J, K, L, M"#),
            (
                "shape",
                r#"unknown shape "blob"; allowed: round, cushion, radiant, emerald, oval, pear, marquise, heart"#
            ),
        ]
    );
}

/// The problems carry the tool's argument names, in the order the rules report them.
#[test]
fn problems_name_the_tool_arguments() {
    let arguments = args(json!({"carat": 9, "color": "G", "clarity": "VS2", "shape_ratio": 2}));
    let errors = crate::price::request(&arguments).unwrap_err();
    let named: Vec<&str> = errors.listed.iter().map(|e| e.argument.as_str()).collect();
    assert_eq!(named, ["carat", "shape_ratio"]);
    assert_eq!(
        errors.listed[1].message,
        "L/W ratio for a round stone must be 1 (within 0.05), got 2; omit it for round stones"
    );
}

#[test]
fn every_text_line_is_terminated_but_the_last_and_written_escaped() {
    for arguments in [
        json!({"carat": 1.0, "color": "G", "clarity": "VS2"}),
        json!({"carat": 1.5, "color": "G", "clarity": "VS2", "shape": "oval", "shape_ratio": 1.65}),
        json!({"carat": 5.9, "color": "D", "clarity": "IF", "shape": "emerald"}),
    ] {
        let out = priced(arguments).unwrap();
        out.assert_serde_json_bytes();
        let text = out.text();
        assert!(!text.ends_with('\n'), "{text:?}");
        assert!(text.lines().all(|line| !line.is_empty()), "{text:?}");
        assert!(text.ends_with("Data as of 2026-11-20T00:00:00Z."), "{text:?}");
        // Written escaped, the text is what a scan escapes.
        let mut scanned = Vec::new();
        words::push_json_escaped(&mut scanned, text.as_bytes());
        assert_eq!(out.text_escaped, scanned);
    }
}

#[test]
fn an_extrapolated_band_is_explained() {
    let snapshot = Snapshot::reference();
    let request = crate::price::request(&args(
        json!({"carat": 1.2, "color": "G", "clarity": "VS2", "shape": "oval"}),
    ))
    .unwrap();
    let mut quote = snapshot.quote(&request).unwrap();
    let fancy = quote.fancy.as_mut().unwrap();
    fancy.adjustment.band_extrapolated = true;
    fancy.adjustment.band_carats = (0.5, Some(1.0));
    let text = crate::text::unescaped(
        &crate::price::text(&quote, &snapshot, snapshot.evidence(&quote).as_ref()).into_escaped(),
    );
    assert!(
        text.contains("\nNo ratio band covers 1.2 ct; the nearest band (0.5 to 1 ct) was used.\n"),
        "{text}"
    );
    quote.fancy.as_mut().unwrap().adjustment.band_carats = (2.0, None);
    let text = crate::text::unescaped(
        &crate::price::text(&quote, &snapshot, snapshot.evidence(&quote).as_ref()).into_escaped(),
    );
    assert!(text.contains("the nearest band (2 to open ct) was used."), "{text}");
}
