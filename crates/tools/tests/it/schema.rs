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
fn check(history: &History, tool: Tool, arguments: Value) -> Value {
    let input_errors = validate(&tool.input_schema(), &arguments);
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

fn single() -> History {
    History::single(Snapshot::reference())
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

    let dir = std::env::temp_dir().join(format!("tools-history-{}", std::process::id()));
    for day in ["2026-10-21", "2026-11-13", "2026-11-20"] {
        let files = datasets::reference::generate_variant(&format!("{day}T00:00:00Z"), 1.0);
        datasets::fs::write_dir_atomic(&dir.join(day), &files, true).unwrap();
    }
    let (history, notes) = History::load(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    let s = check(&history, Tool::Index, json!({}));
    assert_eq!(s["trends_percent"]["7d"], 0.0);
    assert_eq!(s["trends_percent"]["30d"], 0.0);
    let _ = Arc::new(history);
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
    let name = regex_free_name_check;
    for tool in Tool::ALL {
        let definition = tool.definition();
        name(definition["name"].as_str().unwrap());
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

fn regex_free_name_check(name: &str) {
    assert!((1..=128).contains(&name.len()), "{name}");
    assert!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b)), "{name}");
}
