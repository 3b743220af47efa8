//! A matrix's cells estimated together (docs/methodology.md, section 16): each cell's
//! centre (its mean ln ask at its band's carat) is drawn towards a model of the matrix,
//! ln price = band level + band scale x (colour premium + clarity premium), fitted by
//! weighted least squares, as far as the cells agree with it. The centre is the
//! precision-weighted mix of the cell's own mean (sampling variance s² / n) and the fit
//! (variance tau², how far cells depart from the model): empirical Bayes shrinkage.

/// Sweeps of the alternating least-squares fit (it settles in a few dozen).
const FIT_SWEEPS: usize = 200;
/// Halvings of the bracket around tau² (to a part in 2^60 of its width).
const BISECTIONS: usize = 60;

/// One cell with enough asks for its own estimate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CellMean {
    /// The carat band, row (colour) and column (clarity) of the cell.
    pub(crate) band: usize,
    pub(crate) row: usize,
    pub(crate) column: usize,
    /// Its asks and their mean ln per-carat price.
    pub(crate) n: usize,
    pub(crate) mean: f64,
    /// The sum of squared deviations from that mean.
    pub(crate) squares: f64,
}

impl CellMean {
    /// The cell at (`band`, `row`, `column`) of ln asks `asks` (not empty).
    pub(crate) fn new(band: usize, row: usize, column: usize, asks: &[f64]) -> CellMean {
        let n = asks.len();
        let mean = asks.iter().sum::<f64>() / n as f64;
        let squares = asks.iter().map(|x| (x - mean).powi(2)).sum();
        CellMean { band, row, column, n, mean, squares }
    }
}

/// The centres of the cells, in the order given: each cell's mean drawn towards the
/// model's fit by how well the cells follow it.
pub(crate) fn centres(cells: &[CellMean]) -> Vec<f64> {
    let (asks, squares) = cells.iter().fold((0, 0.0), |(n, s), c| (n + c.n, s + c.squares));
    let freedom = asks.saturating_sub(cells.len());
    let present = |index: fn(&CellMean) -> usize| {
        let mut seen: Vec<usize> = cells.iter().map(index).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    };
    // A level and a scale per band, a premium per colour and clarity, less the three
    // directions the model leaves free: colour premiums up and clarity premiums down by
    // the same amount, every colour premium up with each level down by its scale times
    // it, and the scales times a factor with the premiums over it.
    let parameters =
        (2 * present(|c| c.band) + present(|c| c.row) + present(|c| c.column)).saturating_sub(3);
    let within = squares / freedom.max(1) as f64;
    // Without spread inside the cells (every ask of a cell alike) each mean is exact.
    if freedom == 0 || within == 0.0 || cells.len() <= parameters {
        return cells.iter().map(|c| c.mean).collect();
    }
    let fitted = fit(cells);
    let between = between_variance(cells, &fitted, within, cells.len() - parameters);
    cells
        .iter()
        .zip(fitted)
        .map(|(c, f)| {
            let own = between / (between + within / c.n as f64);
            f + own * (c.mean - f)
        })
        .collect()
}

/// How far the cells' true centres depart from the fit (the variance tau²), by the
/// method of moments (Paule and Mandel): the tau² at which the residuals, each over its
/// expected variance (sampling plus tau²), sum in squares to their degrees of freedom;
/// 0 when they do not exceed them at 0.
fn between_variance(cells: &[CellMean], fitted: &[f64], within: f64, freedom: usize) -> f64 {
    let standardized = |between: f64| -> f64 {
        let squares = cells
            .iter()
            .zip(fitted)
            .map(|(c, f)| (c.mean - f).powi(2) / (within / c.n as f64 + between));
        squares.sum::<f64>() - freedom as f64
    };
    if standardized(0.0) <= 0.0 {
        return 0.0;
    }
    // At the sum of squared residuals the standardized sum is at most 1 <= freedom.
    let mut bracket = (0.0, cells.iter().zip(fitted).map(|(c, f)| (c.mean - f).powi(2)).sum());
    for _ in 0..BISECTIONS {
        let middle = (bracket.0 + bracket.1) / 2.0;
        if standardized(middle) > 0.0 {
            bracket.0 = middle;
        } else {
            bracket.1 = middle;
        }
    }
    (bracket.0 + bracket.1) / 2.0
}

/// The model's parameters.
struct Model {
    level: Vec<f64>,
    scale: Vec<f64>,
    colour: Vec<f64>,
    clarity: Vec<f64>,
}

impl Model {
    fn premium(&self, c: &CellMean) -> f64 {
        self.colour[c.row] + self.clarity[c.column]
    }

    fn at(&self, c: &CellMean) -> f64 {
        self.level[c.band] + self.scale[c.band] * self.premium(c)
    }

    /// The weighted least-squares terms of one of a cell's premiums, `own`, with the rest
    /// of the model held: its mean less its level and its other premium, over its scale.
    fn premium_terms(&self, c: &CellMean, own: f64) -> (f64, f64) {
        let scale = self.scale[c.band];
        let other = self.premium(c) - own;
        (scale * (c.mean - self.level[c.band] - scale * other), scale * scale)
    }
}

/// The model's fitted ln price of each cell, by alternating weighted least squares: each
/// sweep solves for the levels, the scales, the colour and then the clarity premiums with
/// the others held.
fn fit(cells: &[CellMean]) -> Vec<f64> {
    let len = |index: fn(&CellMean) -> usize| cells.iter().map(index).max().map_or(0, |m| m + 1);
    let bands = len(|c| c.band);
    let mut model = Model {
        level: vec![0.0; bands],
        scale: vec![1.0; bands],
        colour: vec![0.0; len(|c| c.row)],
        clarity: vec![0.0; len(|c| c.column)],
    };
    for _ in 0..FIT_SWEEPS {
        model.level = solved(
            cells,
            &model.level,
            |c| c.band,
            |c| (c.mean - model.scale[c.band] * model.premium(c), 1.0),
        );
        model.scale = solved(
            cells,
            &model.scale,
            |c| c.band,
            |c| {
                let premium = model.premium(c);
                ((c.mean - model.level[c.band]) * premium, premium * premium)
            },
        );
        model.colour = solved(
            cells,
            &model.colour,
            |c| c.row,
            |c| model.premium_terms(c, model.colour[c.row]),
        );
        model.clarity = solved(
            cells,
            &model.clarity,
            |c| c.column,
            |c| model.premium_terms(c, model.clarity[c.column]),
        );
    }
    cells.iter().map(|c| model.at(c)).collect()
}

/// New `values` by group: each the ratio of its cells' weighted sums of `terms`
/// (numerator, denominator), weighted by asks; a group without weight keeps its value.
fn solved(
    cells: &[CellMean],
    values: &[f64],
    group: fn(&CellMean) -> usize,
    terms: impl Fn(&CellMean) -> (f64, f64),
) -> Vec<f64> {
    let mut sums = vec![(0.0, 0.0); values.len()];
    for cell in cells {
        let (numerator, denominator) = terms(cell);
        let weight = cell.n as f64;
        let sum = &mut sums[group(cell)];
        sum.0 += weight * numerator;
        sum.1 += weight * denominator;
    }
    values
        .iter()
        .zip(sums)
        .map(
            |(&value, (numerator, denominator))| {
                if denominator > 0.0 { numerator / denominator } else { value }
            },
        )
        .collect()
}

#[cfg(test)]
mod tests;
