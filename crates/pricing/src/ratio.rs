//! L/W ratio models for fancy shapes (docs/decisions.md 2.2): band selection, linear
//! interpolation of the fitted value by ratio, clamping, and the value-mode multiplier.

use std::fmt;

use crate::{
    error::{Error, ErrorKind, finite},
    grade::Shape,
    matrix::{ByStep, Carat, CaratSteps},
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

    /// Converts a fitted value into a multiplier: the mode's offset (1 or 0) plus
    /// `value / 100`, one sum whatever the mode, so a quote takes no branch on the value
    /// (`0 + x` is `x` for every multiplier a band allows: a positive one).
    ///
    /// ```
    /// use pricing::ValueMode;
    ///
    /// assert_eq!(ValueMode::DeltaPct.multiplier(-8.0), 0.92);
    /// assert_eq!(ValueMode::PercentOfBase.multiplier(92.0), 0.92);
    /// ```
    #[inline]
    pub fn multiplier(self, value: f64) -> f64 {
        offset_plus_percent(self.offset(), value)
    }

    /// The number a multiplier starts from: 1 for `delta_pct`, 0 otherwise.
    fn offset(self) -> f64 {
        match self {
            ValueMode::DeltaPct => 1.0,
            ValueMode::PercentOfBase => 0.0,
        }
    }
}

/// [`ValueMode::multiplier`] from the mode's offset.
#[inline(always)]
fn offset_plus_percent(offset: f64, value: f64) -> f64 {
    offset + value / 100.0
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
    #[inline]
    pub fn min(&self) -> f64 {
        self.min
    }
    /// Default (neutral) ratio.
    #[inline]
    pub fn center(&self) -> f64 {
        self.center
    }
    /// Largest supported ratio.
    #[inline]
    pub fn max(&self) -> f64 {
        self.max
    }
}

/// The ratio model of one shape. Invariant: bands sorted by `min_carat`, none overlapping
/// another (touching at one carat is allowed; the upper band owns that carat), only the
/// last may be open-ended.
#[derive(Clone, PartialEq)]
pub struct RatioModel {
    base: BaseMatrix,
    mode: ValueMode,
    /// The mode's offset (`ValueMode::offset`), read by a quote with no branch on the mode.
    offset: f64,
    slider: Slider,
    /// The slider's `(min, max)`, the quote's `supported_range`. Kept apart from `slider`,
    /// whose bounds a quote also reads for its check, so that the quote copies these from
    /// here as it writes its result instead of holding the check's values until then.
    supported: (f64, f64),
    bands: Vec<RatioBand>,
    /// Each band's `min_carat`, ascending (the bands' order).
    min_carats: Vec<f64>,
    /// Counts the `min_carats` at or below a carat.
    starts: CaratSteps,
    /// For each carat step (`CaratSteps`), the index of the band that holds every carat
    /// of the step, or [`NO_BAND`] when the step holds the end of a band or a carat no
    /// band holds: those carats take `starts`.
    held: ByStep<u8>,
}

/// A step of [`RatioModel::held`] without one band for all its carats.
const NO_BAND: u8 = u8::MAX;

impl fmt::Debug for RatioModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RatioModel")
            .field("base", &self.base)
            .field("mode", &self.mode)
            .field("slider", &self.slider)
            .field("bands", &self.bands)
            .finish_non_exhaustive()
    }
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
            let (low_min, Some(low_max)) = low.carats else {
                return Err(Error::new(
                    ErrorKind::NotIncreasing,
                    format!(
                        "only the last band may be open-ended; the band from {} has no maxCarat but another follows",
                        low.min_carat()
                    ),
                ));
            };
            if high.min_carat() < low_max {
                return Err(Error::new(
                    ErrorKind::NotIncreasing,
                    format!(
                        "bands overlap or are out of order: {}..{} then a band from {}",
                        low_min,
                        low_max,
                        high.min_carat()
                    ),
                ));
            }
        }
        let min_carats: Vec<f64> = bands.iter().map(|band| band.min_carat()).collect();
        let starts = CaratSteps::new(&min_carats);
        let held = held_bands(&bands, &min_carats);
        let (offset, supported) = (mode.offset(), (slider.min, slider.max));
        Ok(RatioModel { base, mode, offset, slider, supported, bands, min_carats, starts, held })
    }

    /// The base matrix family (`dataSource`).
    #[inline]
    pub fn base(&self) -> BaseMatrix {
        self.base
    }
    /// The value mode.
    #[inline]
    pub fn mode(&self) -> ValueMode {
        self.mode
    }
    /// The supported ratio range.
    #[inline]
    pub fn slider(&self) -> Slider {
        self.slider
    }
    /// The slider's `(min, max)`.
    #[inline]
    pub(crate) fn supported(&self) -> (f64, f64) {
        self.supported
    }
    /// The bands, by ascending carat.
    pub fn bands(&self) -> &[RatioBand] {
        &self.bands
    }

    /// The band for `carat`, and whether it had to be borrowed from the nearest band
    /// because none covers the carat (ties go to the lower band).
    #[inline]
    pub fn band_for(&self, carat: f64) -> (&RatioBand, bool) {
        // The bands' starts never decrease, and a band ends at or before the next one
        // starts: of the bands starting at or below `carat`, only the last can hold it,
        // and when it does not, none does.
        let started = self.starts.at_or_below(&self.min_carats, carat);
        self.band_among(started, carat)
    }

    /// [`Self::band_for`] for a carat known to be in the priced range.
    #[inline]
    pub(crate) fn band_for_priced(&self, carat: Carat) -> (&RatioBand, bool) {
        let held = self.held[CaratSteps::step(carat)];
        if held != NO_BAND
            && let Some(band) = self.bands.get(usize::from(held))
        {
            return (band, false);
        }
        let started = self.starts.at_or_below_priced(&self.min_carats, carat);
        self.band_among(started, carat.get())
    }

    /// The band for `carat`, given how many bands start at or below it.
    #[inline]
    fn band_among(&self, started: usize, carat: f64) -> (&RatioBand, bool) {
        if let Some(band) = started.checked_sub(1).and_then(|last| self.bands.get(last))
            && band.contains(carat)
        {
            return (band, false);
        }
        (self.nearest_band(carat), true)
    }

    /// The band nearest to `carat`, which no band holds (ties go to the lower band).
    fn nearest_band(&self, carat: f64) -> &RatioBand {
        let mut nearest = &self.bands[0];
        for band in &self.bands[1..] {
            if band.distance(carat) < nearest.distance(carat) {
                nearest = band;
            }
        }
        nearest
    }

    /// Applies the model at `carat` and `ratio` (docs/decisions.md 2.2.1, steps 3 to 7).
    #[inline]
    pub fn adjust(&self, carat: f64, ratio: f64) -> RatioAdjustment {
        let (band, band_extrapolated) = self.band_for(carat);
        self.adjustment(band, band_extrapolated, band.value_clamped(ratio))
    }

    /// [`Self::adjust`] for a carat known to be in the priced range and a ratio within
    /// the slider (so a number).
    #[inline]
    pub(crate) fn adjust_priced(&self, carat: Carat, ratio: f64) -> RatioAdjustment {
        let (band, band_extrapolated) = self.band_for_priced(carat);
        self.adjustment(band, band_extrapolated, band.value_clamped_number(ratio))
    }

    /// The adjustment in `band` once the value is read there: the ratio priced, the
    /// value, and whether the ratio was clamped.
    #[inline]
    fn adjustment(
        &self,
        band: &RatioBand,
        band_extrapolated: bool,
        (applied_ratio, value, preference_driven): (f64, f64, bool),
    ) -> RatioAdjustment {
        RatioAdjustment {
            applied_ratio,
            value,
            multiplier: offset_plus_percent(self.offset, value),
            preference_driven,
            observed_range: band.observed_range(),
            band_extrapolated,
            band_carats: band.carats,
        }
    }
}

/// [`RatioModel::held`] for `bands` and their `min_carats`. A step's carats all go to band
/// `i` when the bands starting at or below its first carat are `0..=i`, none starts
/// later within the step, and band `i` holds its first and last carat (so all between).
fn held_bands(bands: &[RatioBand], min_carats: &[f64]) -> ByStep<u8> {
    let mut held = [NO_BAND; CaratSteps::STEPS];
    for (step, slot) in held.iter_mut().enumerate() {
        let first = CaratSteps::first_carat(step);
        let last = CaratSteps::first_carat(step + 1).next_down();
        let started = min_carats.partition_point(|&min| min <= first);
        let Some(at) = started.checked_sub(1) else { continue };
        let later = min_carats.get(started).is_some_and(|&min| min <= last);
        if !later && bands[at].contains(first) && bands[at].contains(last) {
            *slot = u8::try_from(at).unwrap_or(NO_BAND);
        }
    }
    held
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
    #[inline]
    pub fn get(&self, shape: Shape) -> Option<&RatioModel> {
        self.models[shape.index()].as_ref()
    }
}

mod band;
#[cfg(test)]
mod tests;

pub use self::band::{RatioBand, RatioPoint};
