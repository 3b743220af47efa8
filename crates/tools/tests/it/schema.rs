//! Real results of every tool, in every branch, checked against the `outputSchema` the
//! tool declares; and the declared schemas themselves against the MCP rules.

use std::sync::Arc;

use datasets::{History, Snapshot};
use serde_json::{Value, json};
use tools::{Tool, price::Links};

use crate::validator::validate;

fn args(value: Value) -> tools::Object<'static> {
    tools::Object::from(value.as_object().unwrap().clone())
}

#[track_caller]
fn check(history: &Arc<History>, tool: Tool, arguments: Value) -> Value {
    let input_errors = validate(&tool.input_schema(history.live().pricing()), &arguments);
    let out = tool
        .call(history, &args(arguments.clone()), &Links::default())
        .unwrap_or_else(|e| panic!("{} {arguments}: {e}", tool.name()));
    assert!(input_errors.is_empty(), "{arguments} accepted but invalid: {input_errors:?}");
    let errors = validate(&tool.output_schema(), &out.structured_value());
    assert!(
        errors.is_empty(),
        "{} {arguments}: {errors:#?}\n{}",
        tool.name(),
        out.structured_value()
    );
    out.structured_value()
}

fn single() -> Arc<History> {
    Arc::new(History::single(Snapshot::reference()))
}

#[test]
fn price_results_match_the_schema_in_every_branch() {
    let history = single();
    let mut branches = std::collections::BTreeSet::new();
    for carat in [0.3, 0.5, 1.0, 1.23, 2.5, 6.0] {
        let s =
            check(&history, Tool::Price, json!({"carat": carat, "color": "G", "clarity": "VS2"}));
        branches.insert(("round", s["preference_driven_ratio"] == true));
        for shape in pricing::Shape::FANCY {
            let s = check(
                &history,
                Tool::Price,
                json!({"carat": carat, "color": "D", "clarity": "SI2", "shape": shape.as_str()}),
            );
            branches.insert(("fancy", s["ratio_band_extrapolated"] == true));
            let range = &s["supported_ratio_range"];
            for ratio in [range["min"].as_f64().unwrap(), range["max"].as_f64().unwrap()] {
                let s = check(
                    &history,
                    Tool::Price,
                    json!({"carat": carat, "color": "M", "clarity": "FL", "shape": shape.as_str(), "shape_ratio": ratio}),
                );
                branches.insert(("clamped", s["preference_driven_ratio"] == true));
            }
        }
    }
    assert!(branches.contains(&("clamped", true)), "{branches:?}");
    assert!(branches.contains(&("fancy", false)), "{branches:?}");
}

#[test]
fn index_results_match_the_schema_with_and_without_history() {
    let s = check(&single(), Tool::Index, json!({}));
    assert_eq!(s["trends_percent"]["7d"], Value::Null);

    let temp = test_support::TempDir::new("tools-history");
    let dir = &temp.0;
    for day in ["2026-10-21", "2026-11-13", "2026-11-20"] {
        let files = datasets::reference::generate_variant(&format!("{day}T00:00:00Z"), 1.0);
        datasets::fs::write_dir_atomic(&dir.join(day), &files, true).unwrap();
    }
    let (history, notes) = History::load(dir).unwrap();
    let history = Arc::new(history);
    assert!(notes.is_empty(), "{notes:?}");
    let s = check(&history, Tool::Index, json!({}));
    assert_eq!(s["trends_percent"]["7d"], 0.0);
    assert_eq!(s["trends_percent"]["30d"], 0.0);
}

#[test]
fn depth_results_match_the_schema_in_both_modes() {
    let history = single();
    for carat in [0.3, 0.45, 0.95, 1.04, 1.25, 3.3, 6.0] {
        let s = check(&history, Tool::Depth, json!({"carat": carat}));
        assert_eq!(s["mode"], "carat");
    }
    let s = check(&history, Tool::Depth, json!({}));
    assert_eq!(s["mode"], "overview");
}

#[test]
fn declared_schemas_follow_the_mcp_rules() {
    for tool in Tool::ALL {
        let definition = tool.definition(Snapshot::reference().pricing());
        let name = definition["name"].as_str().unwrap();
        assert!((1..=128).contains(&name.len()), "{name}");
        assert!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b)), "{name}");
        assert!(definition["description"].as_str().is_some_and(|d| !d.is_empty()));
        for key in ["inputSchema", "outputSchema"] {
            assert_eq!(definition[key]["type"], "object", "{} {key}", tool.name());
        }
        assert_eq!(definition["annotations"]["readOnlyHint"], true);
        assert_eq!(definition["annotations"]["destructiveHint"], false);
        assert_eq!(definition["annotations"]["idempotentHint"], true);
        assert_eq!(definition["annotations"]["openWorldHint"], false);
    }
}

/// The `shape_ratio` bounds `schema` states for a call with `shape` (none: the default),
/// read from the schema itself: the property's own bounds narrowed by every `allOf` rule
/// whose `if` the call matches.
pub(crate) fn stated_ratio_bounds(schema: &Value, shape: Option<&str>) -> (f64, f64) {
    let call = shape.map_or_else(|| json!({}), |shape| json!({ "shape": shape }));
    let own = &schema["properties"]["shape_ratio"];
    let mut bounds = (own["minimum"].as_f64().unwrap(), own["maximum"].as_f64().unwrap());
    for rule in schema["allOf"].as_array().unwrap() {
        if validate(&rule["if"], &call).is_empty() {
            let then = &rule["then"]["properties"]["shape_ratio"];
            bounds.0 = bounds.0.max(then["minimum"].as_f64().unwrap());
            bounds.1 = bounds.1.min(then["maximum"].as_f64().unwrap());
        }
    }
    bounds
}

#[test]
fn every_price_call_the_schema_allows_is_priced_and_the_next_ratio_out_is_refused() {
    let history = single();
    let schema = Tool::Price.input_schema(history.live().pricing());
    let shapes: Vec<Option<&str>> = std::iter::once(None)
        .chain(schema["properties"]["shape"]["enum"].as_array().unwrap().iter().map(|s| s.as_str()))
        .collect();
    assert_eq!(shapes.len(), 1 + pricing::Shape::ALL.len(), "the reference prices every shape");
    let carat = &schema["properties"]["carat"];
    let carats = [carat["minimum"].as_f64().unwrap(), 1.0, carat["maximum"].as_f64().unwrap()];
    for shape in shapes {
        let (min, max) = stated_ratio_bounds(&schema, shape);
        assert!(min <= max, "{shape:?}: {min} to {max}");
        let call = |carat: f64, ratio: Option<f64>| {
            let mut arguments = json!({ "carat": carat, "color": "M", "clarity": "SI2" });
            if let Some(shape) = shape {
                arguments["shape"] = json!(shape);
            }
            if let Some(ratio) = ratio {
                arguments["shape_ratio"] = json!(ratio);
            }
            let errors = validate(&schema, &arguments);
            let answer = Tool::Price.call(&history, &args(arguments.clone()), &Links::default());
            (arguments, errors, answer)
        };
        for carat in carats {
            for ratio in [None, Some(min), Some((min + max) / 2.0), Some(max)] {
                let (arguments, errors, answer) = call(carat, ratio);
                assert!(errors.is_empty(), "{arguments}: {errors:?}");
                assert!(
                    answer.is_ok(),
                    "{arguments} is schema-valid but refused: {:?}",
                    answer.err()
                );
            }
        }
        for ratio in [min.next_down(), max.next_up()] {
            let (arguments, errors, answer) = call(1.0, Some(ratio));
            assert!(!errors.is_empty(), "{arguments} is outside the stated bounds");
            let refused = answer.expect_err("a ratio outside the stated bounds is refused");
            assert_eq!(refused.listed[0].argument, "shape_ratio", "{arguments}");
        }
    }
    for carat in [carats[0].next_down(), carats[2].next_up()] {
        let arguments = json!({ "carat": carat, "color": "M", "clarity": "SI2" });
        assert!(!validate(&schema, &arguments).is_empty());
        assert!(Tool::Price.call(&history, &args(arguments), &Links::default()).is_err());
    }
}

#[test]
fn the_price_schema_states_the_snapshot_sliders() {
    let reference = Snapshot::reference();
    let schema = Tool::Price.input_schema(reference.pricing());
    for &shape in pricing::Shape::FANCY {
        let slider = reference.pricing().ratios().get(shape).unwrap().slider();
        let bounds = stated_ratio_bounds(&schema, Some(shape.as_str()));
        assert_eq!(bounds, (slider.min(), slider.max()), "{shape}");
        let words = format!("{shape} {} to {}", slider.min(), slider.max());
        let description = schema["properties"]["shape_ratio"]["description"].as_str().unwrap();
        assert!(description.contains(&words), "{description} lacks {words}");
    }
    assert_eq!(stated_ratio_bounds(&schema, None), (0.95, 1.05));
    assert_eq!(stated_ratio_bounds(&schema, Some("round")), (0.95, 1.05));
}

#[test]
fn the_price_schema_follows_a_snapshot_whose_sliders_moved() {
    let ts = "2026-11-21T00:00:00Z";
    let files = datasets::reference::generate_variant(ts, 1.0);
    let files = datasets::FeedFiles::from_fn(|feed| {
        let bytes = files.get(feed).to_vec();
        if feed != datasets::Feed::RatioModels {
            return bytes;
        }
        let mut models: Value = serde_json::from_slice(&bytes).unwrap();
        models["shapes"]["oval"]["slider"] = json!({ "min": 1.3, "center": 1.45, "max": 1.6 });
        serde_json::to_vec(&models).unwrap()
    });
    let history = Arc::new(History::single(Snapshot::parse(files).unwrap()));
    let schema = Tool::Price.input_schema(history.live().pricing());
    assert_eq!(stated_ratio_bounds(&schema, Some("oval")), (1.3, 1.6));
    // 1.25 was an oval's lowest ratio in the reference; here the schema and the tool agree
    // that it is out.
    let arguments = json!({ "carat": 1.0, "color": "G", "clarity": "VS2", "shape": "oval", "shape_ratio": 1.25 });
    assert!(!validate(&schema, &arguments).is_empty());
    assert!(Tool::Price.call(&history, &args(arguments), &Links::default()).is_err());
}

#[test]
fn check_results_match_the_schema_with_every_verdict() {
    let history = single();
    let mut verdicts = std::collections::BTreeSet::new();
    for (carat, shape) in [(0.3, "round"), (1.23, "oval"), (2.5, "cushion"), (6.0, "pear")] {
        let stone = json!({"carat": carat, "color": "G", "clarity": "VS2", "shape": shape});
        let total = check(&history, Tool::Price, stone.clone())["total_usd"].as_f64().unwrap();
        for factor in [0.2, 0.9, 1.0, 1.3, 5.0] {
            let mut arguments = stone.clone();
            arguments["asking_price_usd"] = json!(total * factor);
            let s = check(&history, Tool::Check, arguments);
            assert_eq!(s["benchmark_usd"], total);
            verdicts.insert(s["verdict"].as_str().unwrap().to_owned());
        }
        for ask in [f64::MAX, f64::MIN_POSITIVE, 5e-324] {
            let mut arguments = stone.clone();
            arguments["asking_price_usd"] = json!(ask);
            check(&history, Tool::Check, arguments);
        }
    }
    assert_eq!(verdicts.len(), 3, "{verdicts:?}");
}

#[test]
fn a_price_without_spreads_leaves_the_evidence_out_and_matches_the_schema() {
    let bare = Snapshot::parse(datasets::reference::embedded()).unwrap();
    let s = check(
        &Arc::new(History::single(bare)),
        Tool::Price,
        json!({"carat": 1.0, "color": "G", "clarity": "VS2"}),
    );
    assert!(s.get("range").is_none() && s.get("basis").is_none(), "{s}");
    let s = check(&single(), Tool::Price, json!({"carat": 1.0, "color": "G", "clarity": "VS2"}));
    assert!(s["range"]["low_usd"].is_number() && s["observations"].is_u64(), "{s}");
}

#[test]
fn the_check_schema_is_the_price_schema_and_the_ask() {
    let prices = Snapshot::reference();
    let (check, price) =
        (Tool::Check.input_schema(prices.pricing()), Tool::Price.input_schema(prices.pricing()));
    assert_eq!(check["allOf"], price["allOf"]);
    for (name, property) in price["properties"].as_object().unwrap() {
        assert_eq!(&check["properties"][name], property, "{name}");
    }
    assert_eq!(check["properties"]["asking_price_usd"]["exclusiveMinimum"], 0);
    assert_eq!(check["required"], json!(["carat", "color", "clarity", "asking_price_usd"]));
    let bad = json!({"carat": 1.0, "color": "G", "clarity": "VS2", "asking_price_usd": 0});
    assert!(!validate(&check, &bad).is_empty());
}
