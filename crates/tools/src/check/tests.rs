//! Tests of `check_asking_price`: its answer, the asking price rule, a snapshot without
//! spreads, and that what it shows is `Evidence::assess` of the quote.

use datasets::{Snapshot, reference};
use jsonrpc::Object;
use pricing::{Given, asking_price, tenth};
use serde_json::{Value, json};

use crate::check::{ARGUMENTS, check_asking_price};

fn call(snapshot: &Snapshot, args: Value) -> Result<(String, Value), String> {
    let args = Object::from(args.as_object().unwrap().clone());
    check_asking_price(snapshot, &args)
        .map(|out| {
            out.assert_serde_json_bytes();
            (out.text(), out.structured_value())
        })
        .map_err(|errors| errors.to_string())
}

#[test]
fn answers_the_benchmark_verdict_percentile_and_evidence() {
    let snapshot = Snapshot::reference();
    let args = json!({"carat": 1.0, "color": "G", "clarity": "VS2", "asking_price_usd": 5200});
    let (text, s) = call(&snapshot, args).unwrap();
    assert_eq!(s["benchmark_usd"], 5900.0);
    assert_eq!(s["benchmark_per_carat_usd"], 5900.0);
    assert_eq!(s["asking_price_usd"], 5200.0);
    assert_eq!(s["discount_pct"], -11.9);
    assert_eq!(s["as_of"], "2026-11-20T00:00:00Z");
    let range = &s["range"];
    let (low, high) = (range["low_usd"].as_f64().unwrap(), range["high_usd"].as_f64().unwrap());
    assert!(low < 5900.0 && 5900.0 < high, "{range}");
    let verdict = s["verdict"].as_str().unwrap();
    assert!(["below_market", "within_market", "above_market"].contains(&verdict));
    assert!(text.contains("Asking: $5,200.00"), "{text}");
    assert!(text.contains("Benchmark: $5,900.00"), "{text}");
    assert!(text.contains("11.9 % below the benchmark"), "{text}");
    assert!(text.contains("Range (10th-90th percentile of comparable asks): $"), "{text}");
}

#[test]
fn the_verdict_and_percentile_shown_are_those_of_evidence_assess() {
    let snapshot = Snapshot::reference();
    let stones = [
        json!({"carat": 1.0, "color": "G", "clarity": "VS2"}),
        json!({"carat": 1.37, "color": "D", "clarity": "IF"}),
        json!({"carat": 0.52, "color": "K", "clarity": "SI2", "shape": "oval", "shape_ratio": 1.45}),
        json!({"carat": 2.2, "color": "F", "clarity": "VVS1", "shape": "cushion"}),
    ];
    for stone in stones {
        let request = crate::price::request(&Object::from(stone.as_object().unwrap().clone()));
        let quote = snapshot.quote(&request.unwrap()).unwrap();
        let evidence = snapshot.evidence(&quote).unwrap();
        for factor in [0.3, 0.8, 0.95, 1.0, 1.1, 1.4, 3.0] {
            let asking = (quote.total_usd * factor).round();
            let mut args = stone.clone();
            args["asking_price_usd"] = json!(asking);
            let (text, s) = call(&snapshot, args).unwrap();
            let assessed = evidence.assess(asking);
            assert_eq!(s["verdict"], assessed.verdict.as_str(), "{stone} at {asking}");
            assert_eq!(s["percentile"], tenth(assessed.percentile), "{stone} at {asking}");
            assert_eq!(s["discount_pct"], tenth(assessed.discount_pct), "{stone} at {asking}");
            assert_eq!(s["observations"], evidence.observations);
            assert_eq!(s["basis"], evidence.basis.as_str());
            assert!(text.contains(assessed.verdict.as_str()), "{text}");
        }
    }
}

#[test]
fn a_bad_asking_price_says_what_is_allowed() {
    let snapshot = Snapshot::reference();
    let allowed = "a finite number of US dollars greater than 0 (the total asked for the stone)";
    let stone = json!({"carat": 1.0, "color": "G", "clarity": "VS2"});
    for (asking, got) in [
        (json!(0), "got 0".to_owned()),
        (json!(-5.5), "got -5.5".to_owned()),
        (json!("5200"), r#"got the string "5200""#.to_owned()),
        (json!(true), "got the boolean true".to_owned()),
    ] {
        let mut args = stone.clone();
        args["asking_price_usd"] = asking;
        let message = call(&snapshot, args).unwrap_err();
        assert_eq!(message, format!("asking_price_usd must be {allowed}, {got}"));
    }
    let missing = call(&snapshot, stone).unwrap_err();
    assert_eq!(missing, format!("asking_price_usd is required: {allowed}"));
    assert_eq!(
        asking_price(Given::Value(f64::INFINITY)).unwrap_err(),
        format!("asking_price_usd must be {allowed}, got inf")
    );
    assert!(asking_price(Given::Value(f64::NAN)).is_err());
}

#[test]
fn every_bad_argument_is_listed_with_the_ask() {
    let args = json!({"carat": 9, "color": "Z", "clarity": "VS2", "asking_price_usd": -1, "x": 1});
    let message = call(&Snapshot::reference(), args).unwrap_err();
    for part in
        ["unknown argument \"x\"", "carat must be", "unknown color", "asking_price_usd must be"]
    {
        assert!(message.contains(part), "{part}: {message}");
    }
    assert!(message.contains(&ARGUMENTS.join(", ")), "{message}");
}

#[test]
fn a_snapshot_without_spreads_is_a_tool_error_saying_so() {
    let bare = Snapshot::parse(reference::embedded()).unwrap();
    let args = json!({"carat": 1.0, "color": "G", "clarity": "VS2", "asking_price_usd": 5200});
    let message = call(&bare, args).unwrap_err();
    assert!(message.contains("has no spread data (matrix_stats.json)"), "{message}");
}

#[test]
fn tenths_are_rounded_and_never_negative_zero() {
    assert_eq!(tenth(-12.54), -12.5);
    assert_eq!(tenth(62.35_f64.next_up()), 62.4);
    assert_eq!(tenth(-0.01).to_string(), "0");
    assert_eq!(tenth(1e308), 1e308);
    assert_eq!(tenth(f64::INFINITY), f64::MAX);
}

#[test]
fn the_largest_ask_gives_finite_numbers() {
    let args = json!({"carat": 0.3, "color": "K", "clarity": "SI2", "asking_price_usd": f64::MAX});
    let (_, s) = call(&Snapshot::reference(), args).unwrap();
    for name in ["percentile", "discount_pct", "asking_price_usd"] {
        assert!(s[name].as_f64().is_some_and(f64::is_finite), "{name}: {s}");
    }
    assert_eq!(s["verdict"], "above_market");
}
