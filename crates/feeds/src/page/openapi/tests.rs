//! Unit tests of `crate::page::openapi`: the description is whole, states the snapshot's
//! sliders, and every stone its schema allows is priced by `/quote` and `/track`.

use datasets::{History, Snapshot};
use pricing::Shape;
use serde_json::Value;

use super::*;
use crate::page::{calculator, layout::Frame};

const FRAME: Frame<'static> = Frame { name: "t", version: "1", ts: "ts", sample: true };

/// The ratio bounds `schema` states for `shape` (none: omitted), read from the schema: the
/// property's own bounds narrowed by every rule whose `if` the stone matches.
fn stated_ratio_bounds(schema: &Value, shape: Option<&str>) -> (f64, f64) {
    let own = &schema["properties"]["ratio"];
    let mut bounds = (own["minimum"].as_f64().unwrap(), own["maximum"].as_f64().unwrap());
    for rule in schema["allOf"].as_array().unwrap() {
        let when = &rule["if"];
        let wanted = when["properties"]["shape"]["const"].as_str().unwrap();
        let needs_shape = when["required"].as_array().is_some_and(|r| !r.is_empty());
        let matches = match shape {
            Some(shape) => shape == wanted,
            None => !needs_shape,
        };
        if matches {
            let then = &rule["then"]["properties"]["ratio"];
            bounds.0 = bounds.0.max(then["minimum"].as_f64().unwrap());
            bounds.1 = bounds.1.min(then["maximum"].as_f64().unwrap());
        }
    }
    bounds
}

#[test]
fn the_description_is_whole_and_carries_the_stone_schema() {
    let reference = Snapshot::reference();
    let text = document(reference.pricing());
    assert!(!text.contains("@STONE_SCHEMA@"));
    let openapi: Value = serde_json::from_str(&text).unwrap();
    let stone = &openapi["components"]["parameters"]["stone"];
    assert_eq!((stone["in"].as_str(), stone["style"].as_str()), (Some("query"), Some("form")));
    assert_eq!(stone["explode"], true);
    assert_eq!(stone["schema"], stone_schema(reference.pricing()));
    for path in ["/track", "/quote"] {
        let parameters = &openapi["paths"][path]["get"]["parameters"];
        assert_eq!(parameters[0]["$ref"], "#/components/parameters/stone", "{path}");
    }
}

#[test]
fn the_stone_schema_states_the_snapshot_sliders() {
    let reference = Snapshot::reference();
    let schema = stone_schema(reference.pricing());
    let description = schema["properties"]["ratio"]["description"].as_str().unwrap();
    for &shape in Shape::FANCY {
        let slider = reference.pricing().ratios().get(shape).unwrap().slider();
        assert_eq!(
            stated_ratio_bounds(&schema, Some(shape.as_str())),
            (slider.min(), slider.max()),
            "{shape}"
        );
        assert!(description.contains(&format!("{shape} {} to {}", slider.min(), slider.max())));
    }
    assert_eq!(stated_ratio_bounds(&schema, None), (0.95, 1.05));
    let carat = &schema["properties"]["carat"];
    assert_eq!((carat["minimum"].as_f64(), carat["maximum"].as_f64()), (Some(0.3), Some(6.0)));
}

#[test]
fn every_stone_the_schema_allows_is_priced_and_the_next_ratio_out_is_refused() {
    let history = History::single(Snapshot::reference());
    let schema = stone_schema(history.live().pricing());
    let shapes = schema["properties"]["shape"]["enum"].as_array().unwrap();
    let shapes = std::iter::once(None).chain(shapes.iter().map(Value::as_str));
    let page_ok = |query: &str| calculator::answer(&history, &FRAME, query).ok;
    for shape in shapes {
        let (min, max) = stated_ratio_bounds(&schema, shape);
        let query = |carat: f64, ratio: Option<f64>| {
            let shape = shape.map_or(String::new(), |shape| format!("&shape={shape}"));
            let ratio = ratio.map_or(String::new(), |ratio| format!("&ratio={ratio}"));
            format!("carat={carat}&color=M&clarity=FL{shape}{ratio}")
        };
        for carat in [CARAT_MIN, 1.0, CARAT_MAX] {
            for ratio in [None, Some(min), Some((min + max) / 2.0), Some(max)] {
                let query = query(carat, ratio);
                assert!(page_ok(&query), "/quote?{query} is allowed but refused");
                let request = crate::stone::parse(&query).expect("/track takes it");
                assert!(
                    history.live().quote(&request).is_ok(),
                    "/track?{query} has an error entry"
                );
            }
        }
        for ratio in [min.next_down(), max.next_up()] {
            let query = query(1.0, Some(ratio));
            assert!(!page_ok(&query), "/quote?{query} is outside the schema and refused");
        }
    }
}
