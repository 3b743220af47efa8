//! `/openapi.json`: the description kept next to this module (`openapi.json`), with the
//! schema of the stone `/track` and `/quote` take generated from the live snapshot.
//!
//! The stone is one query parameter of form style, exploded (each property its own
//! parameter), so that one schema can tie the ratio to the shape: the shapes the snapshot
//! can price and, per shape, the ratios it accepts (`PricingSet::accepted_ratios`) as
//! JSON Schema 2020-12 `if`/`then` rules under `allOf`. A request the description allows
//! is never refused.

use datasets::schema::RatioRules;
use pricing::{CARAT_MAX, CARAT_MIN, Clarity, Color, PricingSet};
use serde_json::{Value, json};

/// The description, with [`PLACEHOLDER`] where the stone's schema goes.
const TEMPLATE: &str = include_str!("openapi.json");
/// Where the stone's schema goes in [`TEMPLATE`], quotes included.
const PLACEHOLDER: &str = "\"@STONE_SCHEMA@\"";
/// How deep the placeholder is indented in [`TEMPLATE`].
const INDENT: &str = "        ";

/// The OpenAPI description for the snapshot priced from `prices`.
pub(crate) fn document(prices: &PricingSet) -> String {
    let schema = serde_json::to_string_pretty(&stone_schema(prices))
        .expect("a JSON value serializes")
        .replace('\n', &format!("\n{INDENT}"));
    TEMPLATE.replacen(PLACEHOLDER, &schema, 1)
}

/// The schema of the stone parameter: every rule `/track` and `/quote` apply.
pub(crate) fn stone_schema(prices: &PricingSet) -> Value {
    let RatioRules { shapes, lowest, highest, ranges, rules } = RatioRules::of(prices, "ratio");
    let colors: Vec<&str> = Color::ALL.iter().map(|c| c.as_str()).collect();
    let clarities: Vec<&str> = Clarity::ALL.iter().map(|c| c.as_str()).collect();
    json!({
        "type": "object",
        "properties": {
            "shape": { "type": "string", "enum": shapes, "default": "round", "description": "Shape, any case; default round. The shapes the live snapshot can price." },
            "carat": { "type": "number", "minimum": CARAT_MIN, "maximum": CARAT_MAX, "description": "Carat weight." },
            "color": { "type": "string", "enum": colors, "description": "Colour grade, D to M, any case." },
            "clarity": { "type": "string", "enum": clarities, "description": "Clarity grade, any case." },
            "ratio": {
                "type": "number",
                "minimum": lowest,
                "maximum": highest,
                "description": format!("Length-to-width ratio; default the shape's slider centre (1 for round). Its bounds depend on the shape (the live snapshot's sliders): {}. /track prices it on every day held; a day whose slider leaves it out gets an error entry.", ranges),
            },
        },
        "required": ["carat", "color", "clarity"],
        "additionalProperties": false,
        "allOf": rules,
    })
}

#[cfg(test)]
mod tests;
