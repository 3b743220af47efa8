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
    pub(super) min_carat: f64,
    pub(super) max_carat: Option<f64>,
    pub(super) points: Vec<RatioPoint>,
    /// The first and last of `points`, kept beside them.
    ends: (RatioPoint, RatioPoint),
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
        let ends = (points[0], points[points.len() - 1]);
        Ok(RatioBand { min_carat, max_carat, points, ends })
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
    #[inline]
    pub fn observed_range(&self) -> (f64, f64) {
        let (first, last) = self.ends();
        (first.ratio, last.ratio)
    }

    /// The first and last anchors (a band has at least one).
    #[inline]
    pub(super) fn ends(&self) -> (RatioPoint, RatioPoint) {
        self.ends
    }

    #[inline]
    pub(super) fn contains(&self, carat: f64) -> bool {
        carat >= self.min_carat && self.max_carat.is_none_or(|max| carat <= max)
    }

    pub(super) fn distance(&self, carat: f64) -> f64 {
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
        let (first, last) = self.ends();
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
