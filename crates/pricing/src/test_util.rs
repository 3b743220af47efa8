//! Builders shared by this crate's unit and property tests.

use crate::{
    BaseMatrix, CellSpread, Clarity, Color, Error, PriceMatrix, PricingSet, QuoteRequest,
    RatioBand, RatioModel, RatioModels, RatioPoint, Shape, Slider, SpreadMatrix, ValueMode,
};

/// The reference band carats.
pub(crate) const BANDS: [f64; 12] = [0.3, 0.4, 0.5, 0.7, 0.9, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0];

/// A full matrix over `BANDS` whose ln value is `f(band index, color, clarity)`.
pub(crate) fn matrix(f: impl Fn(usize, Color, Clarity) -> f64) -> PriceMatrix {
    let mut values = Vec::new();
    for band in 0..BANDS.len() {
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                values.push(f(band, color, clarity));
            }
        }
    }
    ln_matrix(BANDS.to_vec(), values).unwrap()
}

/// A matrix over `bands` and every grade, with the ln `values` cell after cell.
pub(crate) fn ln_matrix(bands: Vec<f64>, values: Vec<f64>) -> Result<PriceMatrix, Error> {
    PriceMatrix::new(bands, Color::ALL.to_vec(), Clarity::ALL.to_vec(), values)
}

/// A spread matrix over `BANDS` and every grade, with `cells` cell after cell.
pub(crate) fn spread_matrix(cells: Vec<CellSpread>) -> Result<SpreadMatrix, Error> {
    SpreadMatrix::new(BANDS.to_vec(), Color::ALL.to_vec(), Clarity::ALL.to_vec(), cells)
}

/// A plausible matrix: per-carat price rises with carat and with grade.
pub(crate) fn plausible_matrix(scale: f64) -> PriceMatrix {
    matrix(|band, color, clarity| {
        (scale * 1000.0 * (1.0 + band as f64)).ln()
            - 0.1 * color.index() as f64
            - 0.05 * clarity.index() as f64
    })
}

pub(crate) fn points(pairs: &[(f64, f64)]) -> Vec<RatioPoint> {
    pairs.iter().map(|&(ratio, value)| RatioPoint { ratio, value }).collect()
}

/// An emerald-like model: two bands, `delta_pct`, slider 1.2 / 1.5 / 2.0.
pub(crate) fn model(base: BaseMatrix, mode: ValueMode) -> RatioModel {
    let (a, b, c) = match mode {
        ValueMode::DeltaPct => (0.0, 10.0, 0.0),
        ValueMode::PercentOfBase => (60.0, 70.0, 60.0),
    };
    RatioModel::new(
        base,
        mode,
        Slider::new(1.2, 1.5, 2.0).unwrap(),
        vec![
            RatioBand::new(0.3, Some(1.0), points(&[(1.3, a), (1.5, b), (1.7, c)]), mode).unwrap(),
            RatioBand::new(1.0, None, points(&[(1.3, a), (1.5, b + 5.0), (1.7, c)]), mode).unwrap(),
        ],
    )
    .unwrap()
}

/// A request for a G VS2 stone.
pub(crate) fn request(carat: f64, shape: Shape, ratio: Option<f64>) -> QuoteRequest {
    QuoteRequest { carat, color: Color::G, clarity: Clarity::Vs2, shape, ratio }
}

/// A pricing set with every fancy shape modelled (emerald-like models).
pub(crate) fn pricing_set() -> PricingSet {
    let mut ratios = RatioModels::default();
    for &shape in Shape::FANCY {
        let base = if shape == Shape::Cushion { BaseMatrix::Cushion } else { BaseMatrix::Round };
        let mode =
            if shape == Shape::Emerald { ValueMode::PercentOfBase } else { ValueMode::DeltaPct };
        ratios.insert(shape, model(base, mode));
    }
    PricingSet::new(plausible_matrix(1.0), plausible_matrix(0.8), ratios)
}
