//! JSON Schema that states a snapshot's own quote rules: which shapes it prices and the
//! L/W ratios each accepts, so that a published schema never calls valid what a quote
//! refuses. The feed server's OpenAPI description and the price tool's `inputSchema`
//! both build theirs from [`RatioRules`].

use pricing::{PricingSet, Shape, ShownNumber};
use serde_json::{Value, json};

/// The shapes a snapshot prices and the ratios each accepts, as schema pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct RatioRules {
    /// The shapes priced, in [`Shape::ALL`] order (round first): a `shape` enum.
    pub shapes: Vec<&'static str>,
    /// The lowest ratio any priced shape accepts: the ratio field's `minimum`.
    pub lowest: f64,
    /// The highest: its `maximum`.
    pub highest: f64,
    /// Every shape's range in words, e.g. `round 0.95 to 1.05, oval 1.25 to 1.7`.
    pub ranges: String,
    /// One `if`/`then` rule per shape, for an `allOf`: when `shape` is that shape (round
    /// also when `shape` is left out), the ratio field lies within its range.
    pub rules: Vec<Value>,
}

impl RatioRules {
    /// The rules of the snapshot priced from `prices`, for a request whose ratio is the
    /// property `ratio_field`.
    ///
    /// ```
    /// let prices = datasets::Snapshot::reference();
    /// let rules = datasets::schema::RatioRules::of(prices.pricing(), "ratio");
    /// assert_eq!(rules.shapes[0], "round");
    /// assert!(rules.ranges.starts_with("round 0.95 to 1.05"));
    /// assert_eq!(rules.rules.len(), rules.shapes.len());
    /// ```
    pub fn of(prices: &PricingSet, ratio_field: &str) -> RatioRules {
        let priced: Vec<(Shape, (f64, f64))> = Shape::ALL
            .iter()
            .filter_map(|&shape| prices.accepted_ratios(shape).map(|range| (shape, range)))
            .collect();
        let ranges: Vec<String> = priced
            .iter()
            .map(|(shape, (min, max))| {
                format!("{shape} {} to {}", ShownNumber(*min), ShownNumber(*max))
            })
            .collect();
        let rules = priced
            .iter()
            .map(|(shape, (min, max))| {
                let when = if shape.is_fancy() {
                    json!({ "properties": { "shape": { "const": shape.as_str() } }, "required": ["shape"] })
                } else {
                    // Without `shape` the stone is round.
                    json!({ "properties": { "shape": { "const": shape.as_str() } } })
                };
                let bounds = json!({ "minimum": min, "maximum": max });
                json!({ "if": when, "then": { "properties": { ratio_field: bounds } } })
            })
            .collect();
        RatioRules {
            shapes: priced.iter().map(|(shape, _)| shape.as_str()).collect(),
            lowest: priced.iter().map(|(_, (min, _))| *min).fold(f64::INFINITY, f64::min),
            highest: priced.iter().map(|(_, (_, max))| *max).fold(f64::NEG_INFINITY, f64::max),
            ranges: ranges.join(", "),
            rules,
        }
    }
}
