//! Parsing `index.json` (docs/decisions.md 2.3): the DCX, its basket and its trends.

use chrono::{DateTime, Utc};
use pricing::{Clarity, Color};
use serde_json::Value;

use crate::reader::{Reader, child, item};

/// One basket stone of the index.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexSpec {
    /// Carat weight.
    pub carat: f64,
    /// Colour grade.
    pub color: Color,
    /// Clarity grade.
    pub clarity: Clarity,
    /// Cut grade label, e.g. `Excellent`.
    pub cut: String,
    /// Total price, USD.
    pub price: f64,
    /// USD per carat.
    pub per_carat: f64,
    /// ln(`price`), the total price.
    pub log: f64,
    /// Weight in the basket.
    pub weight: f64,
}

/// The parsed index feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    /// Composite per-carat price, USD.
    pub dcx: f64,
    /// The basket.
    pub specs: Vec<IndexSpec>,
    /// 24-hour change of `dcx`, percent.
    pub trend: f64,
    /// 7-day change in percent, when the feed publishes it.
    pub trend_7d: Option<f64>,
    /// 30-day change in percent, when the feed publishes it.
    pub trend_30d: Option<f64>,
    /// Publication timestamp.
    pub ts: DateTime<Utc>,
}

pub(crate) fn parse(reader: &mut Reader, bytes: &[u8]) -> Option<Index> {
    let root = reader.parse(bytes)?;
    let object = reader.object(&root, "")?;
    let ts = reader.ts(object);
    let dcx = reader.number_field(object, "", "dcx");
    if dcx.is_some_and(|dcx| dcx <= 0.0) {
        reader.issue("/dcx", "dcx must be a positive price");
    }
    let trend = reader.number_field(object, "", "trend");
    let trend_7d = reader.optional_number(object, "", "trend_7d");
    let trend_30d = reader.optional_number(object, "", "trend_30d");
    let specs = reader.field(object, "", "specs").and_then(|value| specs(reader, value));
    Some(Index {
        dcx: dcx?,
        specs: specs?,
        trend: trend?,
        trend_7d: trend_7d?,
        trend_30d: trend_30d?,
        ts: ts?,
    })
    .filter(|index| index.dcx > 0.0)
}

fn specs(reader: &mut Reader, value: &Value) -> Option<Vec<IndexSpec>> {
    let items = reader.array(value, "/specs")?;
    if items.is_empty() {
        reader.issue("/specs", "the basket is empty; it needs at least one spec");
        return None;
    }
    let parsed: Vec<Option<IndexSpec>> =
        items.iter().enumerate().map(|(i, v)| spec(reader, v, &item("/specs", i))).collect();
    parsed.into_iter().collect()
}

fn spec(reader: &mut Reader, value: &Value, pointer: &str) -> Option<IndexSpec> {
    let object = reader.object(value, pointer)?;
    let mut grade = |key: &str| -> Option<String> {
        let value = reader.field(object, pointer, key)?;
        reader.string(value, &child(pointer, key)).map(str::to_owned)
    };
    let (color, clarity, cut) = (grade("color"), grade("clarity"), grade("cut"));
    let color = color.and_then(|text| reader.ok(&child(pointer, "color"), Color::parse(&text)));
    let clarity =
        clarity.and_then(|text| reader.ok(&child(pointer, "clarity"), Clarity::parse(&text)));
    let mut positive = |key: &str| -> Option<f64> {
        let number = reader.number_field(object, pointer, key)?;
        if number <= 0.0 && key != "log" {
            reader.issue(&child(pointer, key), format!("{key} must be positive, got {number}"));
            return None;
        }
        Some(number)
    };
    let (carat, price, per_carat, log, weight) = (
        positive("carat"),
        positive("price"),
        positive("per_carat"),
        positive("log"),
        positive("weight"),
    );
    Some(IndexSpec {
        carat: carat?,
        color: color?,
        clarity: clarity?,
        cut: cut?,
        price: price?,
        per_carat: per_carat?,
        log: log?,
        weight: weight?,
    })
}
