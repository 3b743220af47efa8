//! Parsing `ratio_models.json` (docs/decisions.md 2.2) into [`pricing::RatioModels`].

use chrono::{DateTime, Utc};
use pricing::{
    BaseMatrix, RatioBand, RatioModel, RatioModels, RatioPoint, Shape, Slider, ValueMode,
};
use serde_json::{Map, Value};

use crate::reader::{Reader, child, item};

/// A parsed ratio-model feed.
#[derive(Debug, Clone)]
pub(crate) struct RatioFeed {
    pub(crate) models: RatioModels,
    pub(crate) shapes: Vec<Shape>,
    pub(crate) ts: DateTime<Utc>,
}

pub(crate) fn parse(reader: &mut Reader, bytes: &[u8]) -> Option<RatioFeed> {
    let root = reader.parse(bytes)?;
    let object = reader.object(&root, "")?;
    let ts = reader.ts(object);
    let shapes_value = reader.field(object, "", "shapes")?;
    let shapes = reader.object(shapes_value, "/shapes")?;
    let mut models = RatioModels::default();
    let mut seen = Vec::new();
    let mut ok = true;
    for (key, entry) in shapes {
        let pointer = child("/shapes", key);
        let shape = match reader.ok(&pointer, Shape::parse(key)) {
            Some(shape) if shape.is_fancy() && key == shape.as_str() => Some(shape),
            Some(Shape::Round) => {
                reader.issue(
                    &pointer,
                    "round is priced from the matrix alone and takes no ratio model",
                );
                None
            }
            Some(shape) => {
                reader.issue(
                    &pointer,
                    format!("shape keys are lower case: use {:?}", shape.as_str()),
                );
                None
            }
            None => None,
        };
        let model = reader.object(entry, &pointer).and_then(|entry| model(reader, entry, &pointer));
        match (shape, model) {
            (Some(shape), Some(model)) => {
                models.insert(shape, model);
                seen.push(shape);
            }
            _ => ok = false,
        }
    }
    let ts = ts?;
    ok.then_some(RatioFeed { models, shapes: seen, ts })
}

fn model(reader: &mut Reader, entry: &Map<String, Value>, pointer: &str) -> Option<RatioModel> {
    let base = match entry.get("dataSource") {
        None => Some(BaseMatrix::Round),
        Some(value) => {
            reader.string(value, &child(pointer, "dataSource")).map(BaseMatrix::from_data_source)
        }
    };
    let mode = reader
        .field(entry, pointer, "valueMode")
        .and_then(|value| reader.string(value, &child(pointer, "valueMode")))
        .map(ValueMode::from_feed);
    let slider = reader
        .field(entry, pointer, "slider")
        .and_then(|value| slider(reader, value, &child(pointer, "slider")));
    let bands_pointer = child(pointer, "bands");
    let bands_value = reader.field(entry, pointer, "bands");
    let (base, mode, slider, bands_value) = (base?, mode?, slider, bands_value?);
    let items = reader.array(bands_value, &bands_pointer)?;
    let bands: Vec<Option<RatioBand>> = items
        .iter()
        .enumerate()
        .map(|(i, band)| self::band(reader, band, &item(&bands_pointer, i), mode))
        .collect();
    let bands: Vec<RatioBand> = bands.into_iter().collect::<Option<_>>()?;
    reader.ok(&bands_pointer, RatioModel::new(base, mode, slider?, bands))
}

fn slider(reader: &mut Reader, value: &Value, pointer: &str) -> Option<Slider> {
    let object = reader.object(value, pointer)?;
    let min = reader.number_field(object, pointer, "min");
    let center = reader.number_field(object, pointer, "center");
    let max = reader.number_field(object, pointer, "max");
    reader.ok(pointer, Slider::new(min?, center?, max?))
}

fn band(reader: &mut Reader, value: &Value, pointer: &str, mode: ValueMode) -> Option<RatioBand> {
    let object = reader.object(value, pointer)?;
    let min = reader.number_field(object, pointer, "minCarat");
    let max = reader.optional_number(object, pointer, "maxCarat");
    let points_pointer = child(pointer, "points");
    let points_value = reader.field(object, pointer, "points")?;
    let items = reader.array(points_value, &points_pointer)?;
    let points: Vec<Option<RatioPoint>> = items
        .iter()
        .enumerate()
        .map(|(i, point)| {
            let at = item(&points_pointer, i);
            let point = reader.object(point, &at)?;
            // Both fields are read (and their issues recorded) before either is needed.
            let ratio = reader.number_field(point, &at, "ratio");
            let value = reader.number_field(point, &at, "value");
            Some(RatioPoint { ratio: ratio?, value: value? })
        })
        .collect();
    let (min, max, points) = (min?, max?, points.into_iter().collect::<Option<Vec<_>>>()?);
    reader.ok(pointer, RatioBand::new(min, max, points, mode))
}
