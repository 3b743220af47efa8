//! Unit tests for `crate::check`: the query, the asking price rule, the answer (its
//! verdict and percentile are `Evidence::assess`'s) and the evidence of `/track`.

use datasets::{History, Snapshot, reference};
use pricing::{ASKING_PRICE_ALLOWED as ASKING_ALLOWED, Clarity, Color, QuoteRequest, Shape, tenth};

use crate::{
    check::{answer, parse},
    stone::OVAL,
};

#[test]
fn reads_a_stone_and_an_ask() {
    let query = "shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4&asking_price_usd=6500.5";
    assert_eq!(parse(query), Ok((OVAL, 6500.5)));
}

#[test]
fn every_bad_parameter_is_named_with_the_words_of_track() {
    let refusal = parse("carat=9&color=G&clarity=VS2&asking_price_usd=-3&days=4").unwrap_err();
    let names: Vec<&str> = refusal.problems.iter().map(|p| p.parameter.as_str()).collect();
    assert_eq!(names, ["days", "carat", "asking_price_usd"]);
    let track = crate::stone::parse("carat=9&color=G&clarity=VS2").unwrap_err();
    assert_eq!(refusal.problems[1], track.problems[0]);
    let ask = &refusal.problems[2];
    assert_eq!(ask.message, format!("asking_price_usd must be {ASKING_ALLOWED}, got -3"));
    assert_eq!(ask.allowed, ASKING_ALLOWED);
    let got = |value: &str| format!("asking_price_usd must be {ASKING_ALLOWED}, got {value}");
    for (asks, message) in [
        ("", format!("asking_price_usd is required: {ASKING_ALLOWED}")),
        ("&asking_price_usd=abc", got(r#""abc""#)),
        ("&asking_price_usd=inf", got("inf")),
        ("&asking_price_usd=0", got("0")),
        (
            "&asking_price_usd=1&asking_price_usd=2",
            "asking_price_usd is given more than once".into(),
        ),
    ] {
        let query = format!("carat=1&color=G&clarity=VS2{asks}");
        let refusal = parse(&query).unwrap_err();
        assert_eq!(refusal.problems.len(), 1, "{query}");
        assert_eq!(refusal.problems[0].message, message, "{query}");
    }
}

#[test]
fn many_problems_are_listed_up_to_the_bound_and_counted() {
    let query: Vec<String> = (0..20).map(|i| format!("x{i}=1")).collect();
    let refusal = parse(&query.join("&")).unwrap_err();
    assert_eq!(refusal.problems.len(), crate::stone::LISTED_PROBLEMS_MAX);
    assert!(refusal.more > 12, "{}", refusal.more);
}

#[test]
fn the_answer_shows_what_evidence_assess_says() {
    let snapshot = Snapshot::reference();
    let quote = snapshot.quote(&OVAL).unwrap();
    let evidence = snapshot.evidence(&quote).unwrap();
    for factor in [0.2, 0.8, 1.0, 1.25, 4.0] {
        let ask = (quote.total_usd * factor).round();
        let shown = serde_json::to_value(answer(&snapshot, &quote, &evidence, ask)).unwrap();
        let assessed = evidence.assess(ask);
        assert_eq!(shown["verdict"], assessed.verdict.as_str());
        assert_eq!(shown["percentile"], tenth(assessed.percentile));
        assert_eq!(shown["discount_pct"], tenth(assessed.discount_pct));
        assert_eq!(shown["asking_price_usd"], ask);
        assert_eq!(shown["observations"], evidence.observations);
        assert_eq!(shown["basis"], evidence.basis.as_str());
        let range = &shown["range"];
        assert!(range["low_usd"].as_f64().unwrap() < range["high_usd"].as_f64().unwrap());
    }
}

#[test]
fn track_entries_carry_the_evidence_when_the_day_has_spreads() {
    let with = History::single(Snapshot::reference());
    let tracked =
        serde_json::to_value(crate::tracked::track(&with, &OVAL, with.live_date())).unwrap();
    let entry = &tracked["entries"][0];
    assert!(entry["range"]["high_usd"].is_number() && entry["basis"].is_string(), "{entry}");
    let bare = History::single(Snapshot::parse(reference::embedded()).unwrap());
    let tracked =
        serde_json::to_value(crate::tracked::track(&bare, &OVAL, bare.live_date())).unwrap();
    let entry = tracked["entries"][0].as_object().unwrap();
    assert!(entry.contains_key("total_usd") && !entry.contains_key("range"), "{entry:?}");
}

#[test]
fn the_largest_ask_gives_finite_numbers() {
    let snapshot = Snapshot::reference();
    let request = QuoteRequest {
        carat: 0.3,
        color: Color::K,
        clarity: Clarity::Si2,
        shape: Shape::Round,
        ratio: None,
    };
    let quote = snapshot.quote(&request).unwrap();
    let evidence = snapshot.evidence(&quote).unwrap();
    let shown = serde_json::to_value(answer(&snapshot, &quote, &evidence, f64::MAX)).unwrap();
    assert!(shown["discount_pct"].as_f64().is_some_and(f64::is_finite), "{shown}");
    assert!(shown["percentile"].as_f64().is_some_and(f64::is_finite), "{shown}");
    assert_eq!(tenth(f64::INFINITY), f64::MAX);
}
