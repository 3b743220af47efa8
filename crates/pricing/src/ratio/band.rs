//! One carat band of a ratio model: its anchors, the band's carat range, and the fitted
//! value read at a ratio (linear between anchors, clamped at the ends).

use super::*;

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
    /// `(min_carat, max_carat)`, laid out as a quote reports them
    /// (`RatioAdjustment::band_carats`), which it copies from here.
    pub(super) carats: (f64, Option<f64>),
    /// The first and last anchor's ratio, as a quote reports them
    /// (`RatioAdjustment::observed_range`). The same numbers as `ends`' ratios, kept
    /// apart: a quote reads `ends` to clamp and search, then copies these as it writes its
    /// result, where reading one place for both held the clamp's numbers in registers
    /// until then (three instructions more a quote).
    pub(super) observed: (f64, f64),
    /// The first and last of `points`.
    ends: (RatioPoint, RatioPoint),
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
        let (first, last) = (points[0], points[points.len() - 1]);
        Ok(RatioBand {
            carats: (min_carat, max_carat),
            observed: (first.ratio, last.ratio),
            ends: (first, last),
            points,
        })
    }

    /// Inclusive lower carat bound.
    pub fn min_carat(&self) -> f64 {
        self.carats.0
    }
    /// Inclusive upper carat bound; `None` for an open-ended band.
    pub fn max_carat(&self) -> Option<f64> {
        self.carats.1
    }
    /// The anchors, by ascending ratio.
    pub fn points(&self) -> &[RatioPoint] {
        &self.points
    }

    /// The observed ratio range: the first and last anchor ratios.
    #[inline]
    pub fn observed_range(&self) -> (f64, f64) {
        self.observed
    }

    #[inline]
    pub(super) fn contains(&self, carat: f64) -> bool {
        let (min, max) = self.carats;
        carat >= min && max.is_none_or(|max| carat <= max)
    }

    pub(super) fn distance(&self, carat: f64) -> f64 {
        let (min, max) = self.carats;
        if carat < min { min - carat } else { max.map_or(0.0, |max| (carat - max).max(0.0)) }
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
    #[inline]
    pub fn value_at(&self, ratio: f64) -> (f64, f64) {
        let (applied, value, _) = self.value_clamped(ratio);
        (applied, value)
    }

    /// [`Self::value_at`], and whether `ratio` lay outside the observed range (and was
    /// clamped; NaN is not outside).
    #[inline]
    pub(super) fn value_clamped(&self, ratio: f64) -> (f64, f64, bool) {
        if ratio.is_nan() {
            // No anchor is at or below NaN: the first one's value, as `clamp` keeps NaN.
            return (ratio, self.ends.0.value, false);
        }
        self.value_clamped_number(ratio)
    }

    /// [`Self::value_clamped`] for a ratio that is a number, such as a quote's (checked
    /// against the slider): no test for NaN on the way.
    #[inline]
    pub(super) fn value_clamped_number(&self, ratio: f64) -> (f64, f64, bool) {
        debug_assert!(!ratio.is_nan());
        let (first, last) = self.ends;
        // `ratio.clamp(first.ratio, last.ratio)` without its check of the bounds' order:
        // the ratios increase.
        let (applied, outside) = if ratio < first.ratio {
            (first.ratio, true)
        } else if ratio > last.ratio {
            (last.ratio, true)
        } else {
            (ratio, false)
        };
        // The first anchor above `applied` and the one before it, which is at or below
        // it; none above when `applied` is the last anchor's ratio.
        for pair in self.points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if applied < b.ratio {
                let t = (applied - a.ratio) / (b.ratio - a.ratio);
                return (applied, a.value + t * (b.value - a.value), outside);
            }
        }
        (applied, last.value, outside)
    }
}
