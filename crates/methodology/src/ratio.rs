//! Ratio models for the fancy shapes (docs/methodology.md, section 9): refitted from
//! today's fancy listings that carry an L/W ratio, else carried over from the newest
//! earlier published day, else the reference snapshot's models. A band of the fallback
//! model with [`MIN_BAND_LISTINGS`] listings is refitted: split by ratio into three equal
//! groups, each gives a point (median ratio, median relative value, `matched.rs`). Slider,
//! data source, value mode and band limits stay those of the fallback model.

use chrono::NaiveDate;
use datasets::{
    Feed, History,
    wire::{BandFile, Ordered, PointFile, RatioModelsFile, ShapeModel, SliderFile},
};
use pricing::{BaseMatrix, PriceMatrix, Shape, ValueMode};
use serde::Serialize;
use serde_json::Value;

use crate::{
    listing::Listing,
    matched::{RoundReference, median},
    scope::{BAND_KEYS, band_of},
};

/// The fewest listings with a ratio that refit one band of a model.
pub const MIN_BAND_LISTINGS: usize = 9;

/// Where a shape's published model came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelSource {
    /// Refitted today; `bands` of the model's bands had enough listings.
    Refit {
        /// Bands refitted.
        bands: usize,
        /// Listings with a ratio used.
        listings: usize,
    },
    /// Copied from the day published on `from` (`YYYY-MM-DD`).
    CarriedOver {
        /// The day copied.
        from: String,
    },
    /// The reference snapshot's model.
    Reference,
}

impl ModelSource {
    /// The word `ratio_models.json` carries in each shape's `source`.
    pub fn feed_word(&self) -> &'static str {
        match self {
            ModelSource::Refit { .. } => "refit",
            ModelSource::CarriedOver { .. } => "carried",
            ModelSource::Reference => "reference",
        }
    }
}

/// The ratio models feed and where each shape's model came from.
pub(crate) fn ratio_models(
    listings: &[Listing],
    reference: Option<&RoundReference>,
    round: &PriceMatrix,
    cushion_factors: &[f64],
    history: Option<&History>,
    date: NaiveDate,
    ts: &str,
) -> (RatioModelsFile, Vec<(Shape, ModelSource)>) {
    let previous = history.and_then(|h| {
        let day = h.days().iter().rev().find(|d| d.date < date)?;
        let snapshot = h.snapshot_of(day).ok()?;
        from_bytes(snapshot.files().get(Feed::RatioModels))
            .map(|file| (file, ModelSource::CarriedOver { from: day.date.to_string() }))
    });
    let (fallback, fallback_source) = previous.unwrap_or_else(|| {
        let bytes = datasets::reference::embedded();
        let file = from_bytes(bytes.get(Feed::RatioModels)).expect("reference ratio models read");
        (file, ModelSource::Reference)
    });
    let mut sources = Vec::new();
    let mut shapes = Vec::new();
    let mut refitted = false;
    for (name, model) in fallback.shapes.0 {
        let Ok(shape) = Shape::parse(&name) else { continue };
        let on_cushion = BaseMatrix::from_data_source(&model.data_source) == BaseMatrix::Cushion;
        let zero = [0.0; BAND_KEYS.len()];
        let factors = if on_cushion { cushion_factors } else { &zero };
        let (mut model, source) = match reference {
            Some(reference) => refit(model, shape, listings, reference, round, factors),
            None => (model, None),
        };
        let source = source.unwrap_or_else(|| fallback_source.clone());
        model.source = Some(source.feed_word().to_owned());
        refitted |= matches!(source, ModelSource::Refit { .. });
        sources.push((shape, source));
        shapes.push((name, model));
    }
    let version = if refitted { format!("fit-{date}") } else { fallback.version };
    (RatioModelsFile { ts: ts.to_owned(), version, shapes: Ordered(shapes) }, sources)
}

fn refit(
    mut model: ShapeModel,
    shape: Shape,
    with_ratio: &[Listing],
    reference: &RoundReference,
    round: &PriceMatrix,
    factors: &[f64],
) -> (ShapeModel, Option<ModelSource>) {
    let mode = ValueMode::from_feed(&model.value_mode);
    let last = model.bands.len().saturating_sub(1);
    let (mut bands, mut listings) = (0, 0);
    for (i, band) in model.bands.iter_mut().enumerate() {
        let inside = |carat: f64| {
            carat >= band.min_carat
                && match band.max_carat {
                    Some(max) if i < last => carat < max,
                    Some(max) => carat <= max,
                    None => true,
                }
        };
        let mut samples: Vec<(f64, f64)> = with_ratio
            .iter()
            .filter(|l| l.shape == shape && inside(l.carat))
            .filter_map(|l| {
                let ratio = l.lw_ratio?;
                let band = band_of(l.carat);
                let relative = (reference.relative(l, round)? - factors[band]).exp();
                let value = match mode {
                    ValueMode::DeltaPct => (relative - 1.0) * 100.0,
                    ValueMode::PercentOfBase => relative * 100.0,
                };
                Some((ratio, value))
            })
            .collect();
        if samples.len() < MIN_BAND_LISTINGS {
            continue;
        }
        samples.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let third = samples.len() / 3;
        let groups = [&samples[..third], &samples[third..2 * third], &samples[2 * third..]];
        let points: Vec<PointFile> = groups
            .iter()
            .map(|group| {
                let mut values: Vec<f64> = group.iter().map(|s| s.1).collect();
                let mut ratios: Vec<f64> = group.iter().map(|s| s.0).collect();
                PointFile {
                    ratio: (median(&mut ratios) * 1000.0).round() / 1000.0,
                    value: (median(&mut values) * 100.0).round() / 100.0,
                }
            })
            .collect();
        let increasing = points.windows(2).all(|p| p[0].ratio < p[1].ratio);
        let positive = points.iter().all(|p| mode.multiplier(p.value) > 0.0);
        if increasing && positive {
            band.points = points;
            bands += 1;
            listings += samples.len();
        }
    }
    let source = (bands > 0).then_some(ModelSource::Refit { bands, listings });
    (model, source)
}

/// Reads a published `ratio_models.json` back into its wire shape, shapes in the order
/// of [`Shape::FANCY`].
fn from_bytes(bytes: &[u8]) -> Option<RatioModelsFile> {
    let root: Value = serde_json::from_slice(bytes).ok()?;
    let shapes = root.get("shapes")?.as_object()?;
    let mut out = Vec::new();
    for shape in Shape::FANCY {
        let model = shapes.get(shape.as_str())?;
        let slider = model.get("slider")?;
        let bands = model
            .get("bands")?
            .as_array()?
            .iter()
            .map(|band| {
                let points = band
                    .get("points")?
                    .as_array()?
                    .iter()
                    .map(|p| {
                        Some(PointFile {
                            ratio: p.get("ratio")?.as_f64()?,
                            value: p.get("value")?.as_f64()?,
                        })
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(BandFile {
                    min_carat: band.get("minCarat")?.as_f64()?,
                    max_carat: band.get("maxCarat").and_then(Value::as_f64),
                    points,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        out.push((
            shape.as_str().to_owned(),
            ShapeModel {
                data_source: model.get("dataSource")?.as_str()?.to_owned(),
                value_mode: model.get("valueMode")?.as_str()?.to_owned(),
                slider: SliderFile {
                    min: slider.get("min")?.as_f64()?,
                    center: slider.get("center")?.as_f64()?,
                    max: slider.get("max")?.as_f64()?,
                },
                bands,
                source: None,
            },
        ));
    }
    Some(RatioModelsFile {
        ts: String::new(),
        version: root.get("version").and_then(Value::as_str).unwrap_or("carried-over").to_owned(),
        shapes: Ordered(out),
    })
}

#[cfg(test)]
mod tests;
