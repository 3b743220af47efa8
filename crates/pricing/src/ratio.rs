//! L/W ratio models for fancy shapes (docs/decisions.md 2.2): band selection, linear
//! interpolation of the fitted value by ratio, clamping, and the value-mode multiplier.

use crate::{
    error::{Error, ErrorKind, finite},
    grade::Shape,
    quote::BaseMatrix,
};

/// How a fitted value becomes a price multiplier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueMode {
    /// `delta_pct`: multiplier = 1 + v/100.
    DeltaPct,
    /// Any other mode: multiplier = v/100 (percent of the base price).
    PercentOfBase,
}

impl ValueMode {
    /// Reads the feed's `valueMode`: `delta_pct`, or any other text (docs/decisions.md 2.2.1).
    pub fn from_feed(text: &str) -> ValueMode {
        if text == "delta_pct" { ValueMode::DeltaPct } else { ValueMode::PercentOfBase }
    }

    /// Converts a fitted value into a multiplier.
    ///
    /// ```
    /// use pricing::ValueMode;
    ///
    /// assert_eq!(ValueMode::DeltaPct.multiplier(-8.0), 0.92);
    /// assert_eq!(ValueMode::PercentOfBase.multiplier(92.0), 0.92);
    /// ```
    pub fn multiplier(self, value: f64) -> f64 {
        match self {
            ValueMode::DeltaPct => 1.0 + value / 100.0,
            ValueMode::PercentOfBase => value / 100.0,
        }
    }
}

/// The supported ratio input range of a shape (`slider`): `min <= center <= max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slider {
    min: f64,
    center: f64,
    max: f64,
}

impl Slider {
    /// Accepts finite, positive bounds in the order `min <= center <= max`.
    ///
    /// ```
    /// let slider = pricing::Slider::new(1.25, 1.4, 1.7)?;
    /// assert_eq!(slider.center(), 1.4);
    /// assert!(pricing::Slider::new(1.7, 1.4, 1.25).is_err());
    /// # Ok::<(), pricing::Error>(())
    /// ```
    pub fn new(min: f64, center: f64, max: f64) -> Result<Slider, Error> {
        for (what, value) in [("slider min", min), ("slider center", center), ("slider max", max)] {
            finite(what, value)?;
            if value <= 0.0 {
                return Err(Error::new(
                    ErrorKind::OutOfRange,
                    format!("{what} must be a positive ratio, got {value}"),
                ));
            }
        }
        if !(min <= center && center <= max) {
            return Err(Error::new(
                ErrorKind::NotIncreasing,
                format!("slider must satisfy min <= center <= max, got {min}, {center}, {max}"),
            ));
        }
        Ok(Slider { min, center, max })
    }

    /// Smallest supported ratio.
    pub fn min(&self) -> f64 {
        self.min
    }
    /// Default (neutral) ratio.
    pub fn center(&self) -> f64 {
        self.center
    }
    /// Largest supported ratio.
    pub fn max(&self) -> f64 {
        self.max
    }
}

/// One anchor: the fitted `value` at L/W `ratio`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioPoint {
    /// L/W ratio of the anchor.
    pub ratio: f64,
    /// Fitted value at the anchor, read through the model's [`ValueMode`].
    pub value: f64,
}

/// A carat band of a ratio model. Invariants: `min_carat <= max_carat`; at least one
/// point; point ratios strictly increasing; every multiplier positive.
#[derive(Debug, Clone, PartialEq)]
pub struct RatioBand {
    min_carat: f64,
    max_carat: Option<f64>,
    points: Vec<RatioPoint>,
}

impl RatioBand {
    /// Validates one band; `mode` is needed to check that every multiplier is positive.
    pub fn new(
        min_carat: f64,
        max_carat: Option<f64>,
        points: Vec<RatioPoint>,
        mode: ValueMode,
    ) -> Result<RatioBand, Error> {
        finite("minCarat", min_carat)?;
        if let Some(max) = max_carat {
            finite("maxCarat", max)?;
            if min_carat > max {
                return Err(Error::new(
                    ErrorKind::NotIncreasing,
                    format!("minCarat {min_carat} is above maxCarat {max}"),
                ));
            }
        }
        if points.is_empty() {
            return Err(Error::new(ErrorKind::Shape, "a band needs at least one point"));
        }
        for point in &points {
            finite("point ratio", point.ratio)?;
            finite("point value", point.value)?;
            if mode.multiplier(point.value) <= 0.0 {
                return Err(Error::new(
                    ErrorKind::OutOfRange,
                    format!(
                        "point value {} gives a multiplier of {} at ratio {}; multipliers must be positive",
                        point.value,
                        mode.multiplier(point.value),
                        point.ratio
                    ),
                ));
            }
        }
        if let Some(pair) = points.windows(2).find(|pair| pair[0].ratio >= pair[1].ratio) {
            return Err(Error::new(
                ErrorKind::NotIncreasing,
                format!(
                    "point ratios must be strictly increasing, got {} then {}",
                    pair[0].ratio, pair[1].ratio
                ),
            ));
        }
        Ok(RatioBand { min_carat, max_carat, points })
    }

    /// Inclusive lower carat bound.
    pub fn min_carat(&self) -> f64 {
        self.min_carat
    }
    /// Inclusive upper carat bound; `None` for an open-ended band.
    pub fn max_carat(&self) -> Option<f64> {
        self.max_carat
    }
    /// The anchors, by ascending ratio.
    pub fn points(&self) -> &[RatioPoint] {
        &self.points
    }

    /// The observed ratio range: the first and last anchor ratios.
    pub fn observed_range(&self) -> (f64, f64) {
        (self.points[0].ratio, self.points[self.points.len() - 1].ratio)
    }

    fn contains(&self, carat: f64) -> bool {
        carat >= self.min_carat && self.max_carat.is_none_or(|max| carat <= max)
    }

    fn distance(&self, carat: f64) -> f64 {
        if carat < self.min_carat {
            self.min_carat - carat
        } else {
            self.max_carat.map_or(0.0, |max| (carat - max).max(0.0))
        }
    }

    /// The fitted value at `ratio`, clamped to the observed range (docs/decisions.md 2.2.1, step 7),
    /// linear between the two surrounding anchors (rule 2.2.4). Returns the ratio
    /// actually priced and the value there.
    ///
    /// ```
    /// use pricing::{RatioBand, RatioPoint, ValueMode};
    ///
    /// let points = vec![
    ///     RatioPoint { ratio: 1.25, value: -12.0 },
    ///     RatioPoint { ratio: 1.75, value: -8.0 },
    /// ];
    /// let band = RatioBand::new(0.3, Some(2.0), points, ValueMode::DeltaPct)?;
    /// assert_eq!(band.value_at(1.5), (1.5, -10.0)); // halfway between the anchors
    /// assert_eq!(band.value_at(1.9), (1.75, -8.0)); // clamped to the observed range
    /// # Ok::<(), pricing::Error>(())
    /// ```
    pub fn value_at(&self, ratio: f64) -> (f64, f64) {
        let (lo, hi) = self.observed_range();
        let applied = ratio.clamp(lo, hi);
        let upper = self.points.partition_point(|p| p.ratio <= applied);
        if upper == 0 {
            return (applied, self.points[0].value);
        }
        if upper == self.points.len() {
            return (applied, self.points[upper - 1].value);
        }
        let (a, b) = (self.points[upper - 1], self.points[upper]);
        let t = (applied - a.ratio) / (b.ratio - a.ratio);
        (applied, a.value + t * (b.value - a.value))
    }
}

/// The ratio model of one shape. Invariant: bands sorted by `min_carat`, none overlapping
/// another (touching at one carat is allowed; the upper band owns that carat), only the
/// last may be open-ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RatioModel {
    base: BaseMatrix,
    mode: ValueMode,
    slider: Slider,
    bands: Vec<RatioBand>,
}

/// The result of applying a ratio model to one carat and ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct RatioAdjustment {
    /// The ratio the price was computed at (the input clamped to the observed range).
    pub applied_ratio: f64,
    /// The fitted value at `applied_ratio`.
    pub value: f64,
    /// The price multiplier from [`ValueMode::multiplier`].
    pub multiplier: f64,
    /// True when the input ratio lay outside the observed range (and was clamped).
    pub preference_driven: bool,
    /// The observed ratio range of the band used.
    pub observed_range: (f64, f64),
    /// True when no band covers the carat and the nearest band was used instead.
    pub band_extrapolated: bool,
    /// Carat bounds of the band used.
    pub band_carats: (f64, Option<f64>),
}

impl RatioModel {
    /// Validates the band layout of a shape model.
    pub fn new(
        base: BaseMatrix,
        mode: ValueMode,
        slider: Slider,
        bands: Vec<RatioBand>,
    ) -> Result<RatioModel, Error> {
        if bands.is_empty() {
            return Err(Error::new(ErrorKind::Shape, "a ratio model needs at least one band"));
        }
        for pair in bands.windows(2) {
            let (low, high) = (&pair[0], &pair[1]);
            let Some(low_max) = low.max_carat else {
                return Err(Error::new(
                    ErrorKind::NotIncreasing,
                    format!(
                        "only the last band may be open-ended; the band from {} has no maxCarat but another follows",
                        low.min_carat
                    ),
                ));
            };
            if high.min_carat < low_max {
                return Err(Error::new(
                    ErrorKind::NotIncreasing,
                    format!(
                        "bands overlap or are out of order: {}..{} then a band from {}",
                        low.min_carat, low_max, high.min_carat
                    ),
                ));
            }
        }
        Ok(RatioModel { base, mode, slider, bands })
    }

    /// The base matrix family (`dataSource`).
    pub fn base(&self) -> BaseMatrix {
        self.base
    }
    /// The value mode.
    pub fn mode(&self) -> ValueMode {
        self.mode
    }
    /// The supported ratio range.
    pub fn slider(&self) -> Slider {
        self.slider
    }
    /// The bands, by ascending carat.
    pub fn bands(&self) -> &[RatioBand] {
        &self.bands
    }

    /// The band for `carat`, and whether it had to be borrowed from the nearest band
    /// because none covers the carat (ties go to the lower band).
    pub fn band_for(&self, carat: f64) -> (&RatioBand, bool) {
        if let Some(band) = self.bands.iter().rev().find(|band| band.contains(carat)) {
            return (band, false);
        }
        let mut nearest = &self.bands[0];
        for band in &self.bands[1..] {
            if band.distance(carat) < nearest.distance(carat) {
                nearest = band;
            }
        }
        (nearest, true)
    }

    /// Applies the model at `carat` and `ratio` (docs/decisions.md 2.2.1, steps 3 to 7).
    pub fn adjust(&self, carat: f64, ratio: f64) -> RatioAdjustment {
        let (band, band_extrapolated) = self.band_for(carat);
        let (applied_ratio, value) = band.value_at(ratio);
        let observed_range = band.observed_range();
        RatioAdjustment {
            applied_ratio,
            value,
            multiplier: self.mode.multiplier(value),
            preference_driven: ratio < observed_range.0 || ratio > observed_range.1,
            observed_range,
            band_extrapolated,
            band_carats: (band.min_carat, band.max_carat),
        }
    }
}

/// The ratio models of the fancy shapes, one slot per shape.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RatioModels {
    models: [Option<RatioModel>; 8],
}

impl RatioModels {
    /// Sets the model of `shape`, replacing any earlier one.
    pub fn insert(&mut self, shape: Shape, model: RatioModel) {
        self.models[shape.index()] = Some(model);
    }

    /// The model of `shape`, if the snapshot has one.
    pub fn get(&self, shape: Shape) -> Option<&RatioModel> {
        self.models[shape.index()].as_ref()
    }
}

#[cfg(test)]
mod tests;
