//! The spread of each cell, published as `matrix_stats.json` (docs/methodology.md, section
//! 16): how many asks stand behind the price, where they lie (10th to 90th percentile per
//! carat) and how the price was made. A cell's asks are brought to its band's carat
//! (`market.rs`) and screened as the price selection screens them (`select.rs`). With at
//! least [`MIN_SPREAD_ASKS`] left its quantiles are estimated with its neighbours'
//! ([`pooled_quantiles`]); a cell with fewer gets the market's typical range around its
//! published price ([`datasets::modelled_quantiles`]), widened when it has no asks at all.

mod pooled;

use datasets::{
    DEFAULT_SPREAD_LN, MODEL_WIDENING, modelled_quantiles,
    wire::{CellStatsFile, MatrixStatsFile, Ordered},
};
use pricing::{Basis, CellSpread, Clarity, Color, PERCENTILES};

use crate::{
    cells::{Cells, Provenance},
    market::CellAsks,
    scope::{BAND_KEYS, CELLS, CELLS_PER_BAND, cell_grades},
    select::{self, NEIGHBOUR_FACTOR, SCREEN_MIN_LISTINGS},
};

use pooled::CellMean;

/// The fewest screened asks whose own quantiles a cell publishes; below, the model range.
pub const MIN_SPREAD_ASKS: usize = 5;
/// The fewest asks of a band whose own width of the spread it takes; a band with fewer
/// takes the matrix's.
pub const BAND_SHAPE_MIN_ASKS: usize = 100;
/// The fewest screened asks of a cell that measures the typical spread.
pub const SPREAD_MIN_LISTINGS: usize = 20;
/// The fewest measuring cells for a measured typical spread.
pub const SPREAD_MIN_CELLS: usize = 5;

/// The spreads of one matrix.
#[derive(Debug, Clone)]
pub(crate) struct Spreads {
    /// Band-major, then colour, then clarity, as the matrix.
    pub(crate) cells: Vec<CellSpread>,
    /// The typical ln distance of each quantile from the published price.
    pub(crate) typical: [f64; 5],
    /// The cells that measured `typical` (0: the default).
    pub(crate) measured_by: usize,
}

impl Spreads {
    /// A sentence for the report: the typical range and what measured it.
    pub(crate) fn note(&self, name: &str) -> String {
        let percent = |ln: f64| (ln.exp() - 1.0) * 100.0;
        let (low, high) = (percent(self.typical[0]), percent(self.typical[4]));
        let from = match self.measured_by {
            0 => "the default (too few cells of 20 asks)".to_owned(),
            n => format!("measured over {n} cells of 20 asks or more"),
        };
        format!(
            "{name} spread: the 10th to 90th percentile ask typically lies {low:+.1} % to {high:+.1} % of the published price, {from}"
        )
    }
}

/// How a cell's price was made, as published.
pub(crate) fn basis(provenance: Option<Provenance>) -> Basis {
    match provenance {
        Some(Provenance::Observed | Provenance::Thin) => Basis::Observed,
        Some(Provenance::LookedBack) => Basis::LookedBack,
        Some(Provenance::Carried) => Basis::Carried,
        Some(Provenance::Modelled | Provenance::Derived) | None => Basis::Modelled,
    }
}

/// The spreads of a matrix from its asks at their band's carat, its cells and its
/// published ln prices (rounded as in the feed).
pub(crate) fn spreads(at_band: &CellAsks, cells: &Cells, published: &[f64]) -> Spreads {
    let limit = NEIGHBOUR_FACTOR.ln();
    let kept: Vec<Vec<f64>> = (0..CELLS)
        .map(|cell| {
            let mut list = at_band.cell(cell).sorted();
            list.retain(|x| (x - published[cell]).abs() <= limit);
            if list.len() >= SCREEN_MIN_LISTINGS {
                select::screen_within(&mut list);
            }
            list
        })
        .collect();
    let own = pooled_quantiles(&kept);
    let measuring: Vec<[f64; 5]> = kept
        .iter()
        .zip(&own)
        .zip(published)
        .filter(|((list, _), _)| list.len() >= SPREAD_MIN_LISTINGS)
        .filter_map(|((_, quantiles), &price)| quantiles.map(|q| q.map(|q| q - price)))
        .collect();
    let typical = if measuring.len() >= SPREAD_MIN_CELLS {
        std::array::from_fn(|k| {
            let mut offsets: Vec<f64> = measuring.iter().map(|q| q[k]).collect();
            offsets.sort_by(f64::total_cmp);
            select::quantile(&offsets, 0.5)
        })
    } else {
        DEFAULT_SPREAD_LN
    };
    let cells = kept
        .iter()
        .zip(own)
        .enumerate()
        .map(|(cell, (list, own))| {
            let quantiles = match (own, list.len()) {
                (Some(own), _) => own.map(f64::exp),
                (None, 0) => modelled_quantiles(published[cell], typical, MODEL_WIDENING),
                (None, _) => modelled_quantiles(published[cell], typical, 1.0),
            };
            let observations = u32::try_from(list.len()).unwrap_or(u32::MAX);
            CellSpread { observations, quantiles, basis: basis(cells.provenance[cell]) }
        })
        .collect();
    let measured_by = if measuring.len() >= SPREAD_MIN_CELLS { measuring.len() } else { 0 };
    Spreads { cells, typical, measured_by }
}

/// The ln quantiles of every cell with [`MIN_SPREAD_ASKS`] or more asks (`None` for the
/// others): the spread's shape placed at the cell's centre (`pooled.rs`). The shape is
/// the [`predictive_quantile`]s of every such cell's asks less its centre, over the
/// matrix, widened or narrowed for the band by the ratio of the band's standard deviation
/// of those residuals to the matrix's (when the band has [`BAND_SHAPE_MIN_ASKS`] or more).
fn pooled_quantiles(kept: &[Vec<f64>]) -> Vec<Option<[f64; 5]>> {
    let estimated: Vec<(usize, CellMean)> = kept
        .iter()
        .enumerate()
        .filter(|(_, list)| list.len() >= MIN_SPREAD_ASKS)
        .map(|(cell, list)| {
            let (band, color, clarity) = cell_grades(cell);
            (cell, CellMean::new(band, color.index(), clarity.index(), list))
        })
        .collect();
    if estimated.is_empty() {
        return vec![None; kept.len()];
    }
    let means: Vec<CellMean> = estimated.iter().map(|&(_, mean)| mean).collect();
    let mut centres: Vec<Option<f64>> = vec![None; kept.len()];
    for ((cell, _), centre) in estimated.iter().zip(pooled::centres(&means)) {
        centres[*cell] = Some(centre);
    }
    let bands = kept.len() / CELLS_PER_BAND;
    let residuals = |band: usize| {
        (band * CELLS_PER_BAND..(band + 1) * CELLS_PER_BAND)
            .filter_map(|cell| Some((cell, centres[cell]?)))
            .flat_map(|(cell, centre)| kept[cell].iter().map(move |x| x - centre))
    };
    // (asks, standard deviation) of residuals, in one pass.
    let deviation = |values: &mut dyn Iterator<Item = f64>| {
        let (n, sum, squares) =
            values.fold((0usize, 0.0, 0.0), |(n, s, q), x| (n + 1, s + x, q + x * x));
        let mean = sum / n.max(1) as f64;
        (n, (squares / n.max(1) as f64 - mean * mean).max(0.0).sqrt())
    };
    let mut everywhere: Vec<f64> = (0..bands).flat_map(residuals).collect();
    everywhere.sort_by(f64::total_cmp);
    let shape = PERCENTILES.map(|p| predictive_quantile(&everywhere, p / 100.0));
    let (_, spread) = deviation(&mut everywhere.iter().copied());
    drop(everywhere);
    let width: Vec<f64> = (0..bands)
        .map(|band| match deviation(&mut residuals(band)) {
            (n, own) if n >= BAND_SHAPE_MIN_ASKS && spread > 0.0 => own / spread,
            _ => 1.0,
        })
        .collect();
    centres
        .iter()
        .enumerate()
        .map(|(cell, &centre)| {
            let (centre, width) = (centre?, width[cell / CELLS_PER_BAND]);
            Some(shape.map(|q| centre + width * q))
        })
        .collect()
}

/// The `q` quantile of sorted values as a new value's prediction (Hyndman and Fan type
/// 6): the `q (n + 1)`-th smallest, interpolated, clamped to the smallest and largest.
/// A new draw from the same market falls below the `k`-th smallest of `n` with
/// probability `k / (n + 1)`, so the 10th to 90th percentile so taken holds 80 % of new
/// asks whatever `n`; the type 7 of the price selection holds fewer when `n` is small
/// (about 72 % at 20 asks).
pub(crate) fn predictive_quantile(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    let position = (q * (n + 1) as f64).clamp(1.0, n as f64);
    let below = position.floor() as usize;
    let above = (below + 1).min(n);
    let fraction = position - below as f64;
    sorted[below - 1] + (sorted[above - 1] - sorted[below - 1]) * fraction
}

/// `matrix_stats.json` from the spreads of both matrices.
pub(crate) fn stats_file(
    round: &[CellSpread],
    cushion: &[CellSpread],
    ts: &str,
) -> MatrixStatsFile {
    let family = |cells: &[CellSpread]| {
        Ordered(
            BAND_KEYS
                .iter()
                .zip(cells.chunks(CELLS_PER_BAND))
                .map(|(key, band)| {
                    ((*key).to_owned(), band.iter().map(CellStatsFile::new).collect())
                })
                .collect(),
        )
    };
    MatrixStatsFile {
        ts: ts.to_owned(),
        r: Color::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
        c: Clarity::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
        s: [Color::ALL.len(), Clarity::ALL.len()],
        percentiles: PERCENTILES.map(|p| p as u32),
        round: family(round),
        cushion: family(cushion),
    }
}

#[cfg(test)]
mod tests;
