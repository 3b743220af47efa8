//! The JSON Schemas (2020-12) of the tools' arguments and results.
//!
//! Every field a result may leave empty is declared nullable (`["number", "null"]`), and
//! every object closes with `additionalProperties: false`, so a test can check real
//! results against these schemas strictly (see `tests/it/schema.rs`).
//!
//! The argument schemas state every rule the tools apply, so that any call they allow is
//! answered: the carat range, the grade names, the shapes the live snapshot can price and,
//! per shape, the L/W ratios it accepts (`PricingSet::accepted_ratios`), as JSON Schema
//! 2020-12 `if`/`then` rules under `allOf`.

use datasets::schema::RatioRules;
use pricing::{CARAT_MAX, CARAT_MIN, Clarity, Color, PricingSet, Shape};
use serde_json::{Value, json};

fn colors() -> Vec<&'static str> {
    Color::ALL.iter().map(|g| g.as_str()).collect()
}

fn clarities() -> Vec<&'static str> {
    Clarity::ALL.iter().map(|g| g.as_str()).collect()
}

fn shapes() -> Vec<&'static str> {
    Shape::ALL.iter().map(|s| s.as_str()).collect()
}

fn carat(description: &str) -> Value {
    json!({ "type": "number", "minimum": CARAT_MIN, "maximum": CARAT_MAX, "description": description })
}

fn nullable_range() -> Value {
    json!({
        "type": ["object", "null"],
        "properties": { "min": { "type": "number" }, "max": { "type": "number" } },
        "required": ["min", "max"],
        "additionalProperties": false,
    })
}

/// `get_diamond_price` arguments, for the snapshot priced from `prices`: only the shapes
/// it can price, and per shape (round when `shape` is omitted) the ratios it accepts.
pub(crate) fn price_input(prices: &PricingSet) -> Value {
    let RatioRules { shapes: names, lowest, highest, ranges, rules } =
        RatioRules::of(prices, "shape_ratio");
    json!({
        "type": "object",
        "properties": {
            "carat": carat("Carat weight, 0.3 to 6.0; between published bands the price is interpolated log-linearly."),
            "color": { "type": "string", "enum": colors(), "description": "GIA colour grade, D (best) to M; case-insensitive." },
            "clarity": { "type": "string", "enum": clarities(), "description": "GIA clarity grade, FL (best) to SI2; case-insensitive." },
            "shape": { "type": "string", "enum": names, "default": "round", "description": "Shape; case-insensitive. Fancy shapes are priced through the shape's L/W ratio model." },
            "shape_ratio": {
                "type": "number",
                "minimum": lowest,
                "maximum": highest,
                "description": format!("Length-to-width ratio. Omitted: the centre of the shape model's slider (1 for round). Its bounds depend on the shape (the live snapshot's sliders, the result's supported_ratio_range): {}. Ratios outside the observed range are priced at its nearest end (preference_driven_ratio: true).", ranges),
            },
        },
        "required": ["carat", "color", "clarity"],
        "additionalProperties": false,
        "allOf": rules,
    })
}

/// `get_diamond_price` result (docs/decisions.md 2.5 plus the fancy-shape fields and `as_of`).
pub(crate) fn price_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "shape": { "type": "string", "enum": shapes() },
            "carat": { "type": "number", "minimum": CARAT_MIN, "maximum": CARAT_MAX },
            "color": { "type": "string", "enum": colors() },
            "clarity": { "type": "string", "enum": clarities() },
            "shape_ratio": { "type": "number", "description": "The L/W ratio quoted (1 for round)." },
            "per_carat_usd": { "type": "number", "minimum": 0, "description": "USD per carat, rounded to cents." },
            "total_usd": { "type": "number", "minimum": 0, "description": "Total USD, rounded to cents from the unrounded per-carat price." },
            "tracking_url": { "type": "string", "format": "uri" },
            "as_of": { "type": "string", "format": "date-time", "description": "Timestamp (ts) of the snapshot priced." },
            "base_matrix": { "type": "string", "enum": ["matrix.json", "matrix_cushion.json"] },
            "base_per_carat_usd": { "type": "number", "minimum": 0 },
            "supported_ratio_range": nullable_range(),
            "observed_ratio_range": nullable_range(),
            "price_adjustment_ratio": { "type": ["number", "null"], "description": "The ratio the adjustment was read at (clamped into the observed range); null for round." },
            "ratio_multiplier": { "type": "number" },
            "preference_driven_ratio": { "type": "boolean" },
            "ratio_band_extrapolated": { "type": "boolean" },
            "ratio_band": {
                "type": ["object", "null"],
                "properties": {
                    "min_carat": { "type": "number" },
                    "max_carat": { "type": ["number", "null"] },
                },
                "required": ["min_carat", "max_carat"],
                "additionalProperties": false,
            },
            // Present exactly when the snapshot priced has spreads (`evidence.rs`).
            "range": crate::evidence::range_schema(),
            "observations": crate::evidence::observations_schema(),
            "basis": crate::evidence::basis_schema(),
        },
        "required": [
            "shape", "carat", "color", "clarity", "shape_ratio", "per_carat_usd", "total_usd",
            "tracking_url", "as_of", "base_matrix", "base_per_carat_usd",
            "supported_ratio_range", "observed_ratio_range", "price_adjustment_ratio",
            "ratio_multiplier", "preference_driven_ratio", "ratio_band_extrapolated", "ratio_band",
        ],
        "additionalProperties": false,
    })
}

/// `get_dcx_index` takes no arguments.
pub(crate) fn index_input() -> Value {
    json!({ "type": "object", "properties": {}, "additionalProperties": false })
}

/// `get_dcx_index` result.
pub(crate) fn index_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "dcx_usd_per_carat": { "type": "number", "minimum": 0 },
            "trends_percent": {
                "type": "object",
                "properties": {
                    "24h": { "type": "number" },
                    "7d": { "type": ["number", "null"] },
                    "30d": { "type": ["number", "null"] },
                },
                "required": ["24h", "7d", "30d"],
                "additionalProperties": false,
            },
            "trend_notes": { "type": "array", "items": { "type": "string" }, "description": "Where each trend came from, and why one is null." },
            "basket": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "carat": { "type": "number" },
                        "color": { "type": "string", "enum": colors() },
                        "clarity": { "type": "string", "enum": clarities() },
                        "cut": { "type": "string" },
                        "per_carat": { "type": "number" },
                        "price": { "type": "number" },
                        "weight": { "type": "number" },
                    },
                    "required": ["carat", "color", "clarity", "cut", "per_carat", "price", "weight"],
                    "additionalProperties": false,
                },
            },
            "as_of": { "type": "string", "format": "date-time" },
        },
        "required": ["dcx_usd_per_carat", "trends_percent", "trend_notes", "basket", "as_of"],
        "additionalProperties": false,
    })
}

/// `get_market_depth` arguments.
pub(crate) fn depth_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "carat": carat("Optional carat weight, 0.3 to 6.0; the nearest published carat point is used (a tie goes to the lower point)."),
        },
        "additionalProperties": false,
    })
}

fn counts(grades: Vec<&'static str>) -> Value {
    json!({
        "type": ["object", "null"],
        "propertyNames": { "enum": grades },
        "additionalProperties": { "type": "integer", "minimum": 0 },
    })
}

/// `get_market_depth` result: one object for both modes; the other mode's fields are null.
pub(crate) fn depth_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "mode": { "type": "string", "enum": ["carat", "overview"] },
            "carat": { "type": ["number", "null"], "description": "The carat asked for." },
            "carat_key": { "type": ["string", "null"], "description": "The published carat point used, as published (e.g. \"1.0\")." },
            "by_color": counts(colors()),
            "by_clarity": counts(clarities()),
            "comparable_offer_count": { "type": ["integer", "null"], "minimum": 0 },
            "availability": { "type": ["string", "null"], "enum": ["none", "limited", "available", "strong", null], "description": "0: none; under 10: limited; over 100: strong; otherwise available." },
            "available_carats": { "type": ["array", "null"], "items": { "type": "number" } },
            "top_combinations": {
                "type": ["array", "null"],
                "items": {
                    "type": "object",
                    "properties": {
                        "color": { "type": "string", "enum": colors() },
                        "clarity": { "type": "string", "enum": clarities() },
                        "observed_offers": { "type": "integer", "minimum": 0 },
                    },
                    "required": ["color", "clarity", "observed_offers"],
                    "additionalProperties": false,
                },
            },
            "as_of": { "type": "string", "format": "date-time" },
        },
        "required": [
            "mode", "carat", "carat_key", "by_color", "by_clarity", "comparable_offer_count",
            "availability", "available_carats", "top_combinations", "as_of",
        ],
        "additionalProperties": false,
    })
}
