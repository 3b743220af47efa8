//! A full price quote: base matrix chosen by the shape model's `dataSource`, carat
//! interpolation, ratio multiplier, per-carat and total price (docs/decisions.md 2.1, 2.2, 2.5).

use std::fmt;

use crate::{
    grade::{Clarity, Color, Shape},
    matrix::PriceMatrix,
    ratio::{RatioAdjustment, RatioModels},
    rules::{self, QuoteError},
};

/// Which matrix family a price starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseMatrix {
    /// `matrix.json`.
    Round,
    /// `matrix_cushion.json`.
    Cushion,
}

impl BaseMatrix {
    /// Reads a model's `dataSource`: `cushion` selects the cushion matrix, any other
    /// value the round one (docs/decisions.md 2.2.1).
    pub fn from_data_source(text: &str) -> BaseMatrix {
        if text == "cushion" { BaseMatrix::Cushion } else { BaseMatrix::Round }
    }

    /// The feed file the family is published as.
    pub fn feed_name(self) -> &'static str {
        match self {
            BaseMatrix::Round => "matrix.json",
            BaseMatrix::Cushion => "matrix_cushion.json",
        }
    }
}

/// Everything needed to price a stone: both matrices and the ratio models of one snapshot.
#[derive(Clone, PartialEq)]
pub struct PricingSet {
    /// The round and the cushion matrix, indexed by [`BaseMatrix`].
    matrices: [PriceMatrix; 2],
    ratios: RatioModels,
}

impl fmt::Debug for PricingSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PricingSet")
            .field("round", self.round())
            .field("cushion", self.cushion())
            .field("ratios", &self.ratios)
            .finish()
    }
}

/// What to price. Grades are already parsed; numbers are checked by [`PricingSet::quote`].
/// A front end reading raw values builds it with [`QuoteInput::validate`](crate::QuoteInput::validate),
/// which reports every problem at once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuoteRequest {
    /// Carat weight, [`CARAT_MIN`](crate::CARAT_MIN)..=[`CARAT_MAX`](crate::CARAT_MAX).
    pub carat: f64,
    /// Colour grade.
    pub color: Color,
    /// Clarity grade.
    pub clarity: Clarity,
    /// Shape; round when none was asked for.
    pub shape: Shape,
    /// L/W ratio; `None` means the shape model's slider centre (1 for round).
    pub ratio: Option<f64>,
}

/// The fancy-shape part of a quote.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct FancyAdjustment {
    /// The slider range `(min, max)`: ratios the model accepts.
    pub supported_range: (f64, f64),
    /// True when no ratio was given and the slider centre was used.
    pub ratio_defaulted: bool,
    /// The model applied at the quoted carat and ratio.
    pub adjustment: RatioAdjustment,
}

/// A priced stone. Prices are unrounded; round them once with [`round_cents`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Quote {
    /// The shape quoted.
    pub shape: Shape,
    /// Carat weight.
    pub carat: f64,
    /// Colour grade.
    pub color: Color,
    /// Clarity grade.
    pub clarity: Clarity,
    /// The L/W ratio quoted: the given one, the slider centre, or 1 for round.
    pub shape_ratio: f64,
    /// The matrix family the base price came from.
    pub base: BaseMatrix,
    /// Per-carat price of the base matrix at this carat, before the ratio multiplier.
    pub base_per_carat_usd: f64,
    /// Final per-carat price in USD (unrounded).
    pub per_carat_usd: f64,
    /// Total price in USD: `per_carat_usd * carat` (unrounded).
    pub total_usd: f64,
    /// Present for fancy shapes.
    pub fancy: Option<FancyAdjustment>,
}

impl PricingSet {
    /// Bundles the two matrices and the ratio models of one snapshot.
    pub fn new(round: PriceMatrix, cushion: PriceMatrix, ratios: RatioModels) -> PricingSet {
        PricingSet { matrices: [round, cushion], ratios }
    }

    /// The round matrix (`matrix.json`).
    #[inline]
    pub fn round(&self) -> &PriceMatrix {
        self.matrix(BaseMatrix::Round)
    }
    /// The cushion matrix (`matrix_cushion.json`).
    #[inline]
    pub fn cushion(&self) -> &PriceMatrix {
        self.matrix(BaseMatrix::Cushion)
    }
    /// The ratio models.
    pub fn ratios(&self) -> &RatioModels {
        &self.ratios
    }

    /// The matrix of a family.
    #[inline]
    pub fn matrix(&self, base: BaseMatrix) -> &PriceMatrix {
        // `Round` is 0 and `Cushion` 1, the order of `matrices`.
        &self.matrices[base as usize]
    }

    /// Prices one stone, or says which field it refused and why: the carat and round-ratio
    /// rules of [`QuoteInput::validate`](crate::QuoteInput::validate), then the ones only a
    /// snapshot can apply (a fancy shape needs a ratio model; its ratio must be within
    /// the model's slider).
    ///
    /// ```
    /// use pricing::{Clarity, Color, PriceMatrix, PricingSet, QuoteField, QuoteRequest, RatioModels, Shape};
    ///
    /// // The flattest valid matrix: the same price, e^8 USD per carat, in all 160 cells
    /// // of both bands.
    /// let (colors, clarities) = (Color::ALL.to_vec(), Clarity::ALL.to_vec());
    /// let matrix = PriceMatrix::new(vec![0.3, 6.0], colors, clarities, vec![8.0; 160])?;
    /// let prices = PricingSet::new(matrix.clone(), matrix, RatioModels::default());
    ///
    /// let (color, clarity, shape) = (Color::H, Clarity::Si1, Shape::Round);
    /// let mut request = QuoteRequest { carat: 2.0, color, clarity, shape, ratio: None };
    /// let quote = prices.quote(&request)?;
    /// assert_eq!(pricing::round_cents(quote.per_carat_usd), 2980.96);
    /// assert_eq!(quote.total_usd, 2.0 * quote.per_carat_usd);
    ///
    /// request.carat = 7.0;
    /// assert_eq!(prices.quote(&request).unwrap_err().field, QuoteField::Carat);
    /// request = QuoteRequest { carat: 1.0, shape: Shape::Pear, ..request };
    /// assert_eq!(prices.quote(&request).unwrap_err().field, QuoteField::Shape); // no pear model
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    // Always inlined, so that a caller builds the quote in place and keeps what it reads.
    #[inline(always)]
    pub fn quote(&self, request: &QuoteRequest) -> Result<Quote, QuoteError> {
        let carat = rules::checked_carat(request.carat)?;
        let QuoteRequest { color, clarity, shape, .. } = *request;
        if !shape.is_fancy() {
            if let Some(ratio) = request.ratio {
                rules::check_round_ratio(ratio)?;
            }
            let per_carat = self.round().per_carat(carat, color, clarity);
            return Ok(Quote {
                shape,
                carat: carat.get(),
                color,
                clarity,
                shape_ratio: 1.0,
                base: BaseMatrix::Round,
                base_per_carat_usd: per_carat,
                per_carat_usd: per_carat,
                total_usd: per_carat * carat.get(),
                fancy: None,
            });
        }
        let Some(model) = self.ratios.get(shape) else {
            return Err(rules::no_model(shape));
        };
        let slider = model.slider();
        let ratio = request.ratio.unwrap_or(slider.center());
        rules::check_slider_ratio(shape, slider, ratio)?;
        let base_per_carat = self.matrix(model.base()).per_carat(carat, color, clarity);
        let adjustment = model.adjust_priced(carat, ratio);
        let per_carat = base_per_carat * adjustment.multiplier;
        Ok(Quote {
            shape,
            carat: carat.get(),
            color,
            clarity,
            shape_ratio: ratio,
            base: model.base(),
            base_per_carat_usd: base_per_carat,
            per_carat_usd: per_carat,
            total_usd: per_carat * carat.get(),
            fancy: Some(FancyAdjustment {
                supported_range: model.supported(),
                ratio_defaulted: request.ratio.is_none(),
                adjustment,
            }),
        })
    }
}

/// Rounds USD to cents, half away from zero. Applied once, at the edge.
///
/// ```
/// assert_eq!(pricing::round_cents(8490.6561), 8490.66);
/// assert_eq!(pricing::round_cents(0.125), 0.13);
/// ```
#[inline]
pub fn round_cents(usd: f64) -> f64 {
    (usd * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests;
