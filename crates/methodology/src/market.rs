//! What a build keeps of its in-scope listings instead of the rows (docs/methodology.md,
//! section 1, "Reading as a stream"): per shape and cell the asks (ln per-carat USD, each
//! distinct value once with its count), the depth counts, the fancy listings with an L/W
//! ratio (without their text fields), and the round and cushion asks brought to their
//! band's carat (`spread.rs`). Memory grows with the distinct asks per cell, not the rows.

use std::sync::OnceLock;

use pricing::{Carat, Clarity, Color, PriceMatrix, Shape};

use crate::{
    listing::Listing,
    scope::{BAND_CARATS, BAND_KEYS, CELLS, cell_index},
};

/// Asks waiting in a cell before they are merged into its counted values.
const MERGE_AT_LEAST: usize = 32;

/// The asks of one cell: a multiset of values, each distinct value once with its count.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    /// Distinct values, ascending (`f64::total_cmp`), with how often each was seen.
    counted: Vec<(f64, u64)>,
    /// Values not merged yet.
    waiting: Vec<f64>,
    /// All values seen.
    len: usize,
}

impl Tally {
    /// Adds one value.
    pub(crate) fn push(&mut self, value: f64) {
        self.waiting.push(value);
        self.len += 1;
        if self.waiting.len() >= self.counted.len().max(MERGE_AT_LEAST) {
            self.merge();
        }
    }

    /// How many values were added.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Every value added, ascending.
    pub(crate) fn sorted(&self) -> Vec<f64> {
        let mut values = Vec::with_capacity(self.len);
        for &(value, count) in &self.counted {
            values.extend(std::iter::repeat_n(value, count as usize));
        }
        values.extend_from_slice(&self.waiting);
        values.sort_by(f64::total_cmp);
        values
    }

    /// Every distinct value added, ascending, with how often it was added.
    pub(crate) fn counted(&self) -> Vec<(f64, u64)> {
        let mut all = self.clone();
        all.merge();
        all.counted
    }

    /// Merges the waiting values into the counted ones.
    fn merge(&mut self) {
        self.waiting.sort_by(f64::total_cmp);
        let mut merged = Vec::with_capacity(self.counted.len() + self.waiting.len());
        let mut counted = self.counted.iter().copied().peekable();
        let mut add = |value: f64, count: u64| match merged.last_mut() {
            Some((last, n)) if f64::total_cmp(last, &value).is_eq() => *n += count,
            _ => merged.push((value, count)),
        };
        for &value in &self.waiting {
            while let Some(&(old, count)) = counted.peek() {
                if old.total_cmp(&value).is_gt() {
                    break;
                }
                add(old, count);
                counted.next();
            }
            add(value, 1);
        }
        for (old, count) in counted {
            add(old, count);
        }
        merged.shrink_to_fit();
        self.counted = merged;
        self.waiting.clear();
    }
}

/// The `q` quantile of values given as (value, count) pairs sorted by value: exactly
/// [`quantile`](crate::select::quantile) of the values laid out one by one (Hyndman and
/// Fan type 7), without laying them out. `sorted` holds at least one value.
pub(crate) fn quantile_counted(sorted: &[(f64, u64)], q: f64) -> f64 {
    let len: u64 = sorted.iter().map(|&(_, count)| count).sum();
    let position = q * (len - 1) as f64;
    let below = position.floor() as u64;
    let above = (below + 1).min(len - 1);
    let fraction = position - below as f64;
    let at = |rank: u64| {
        let mut seen = 0;
        for &(value, count) in sorted {
            seen += count;
            if rank < seen {
                return value;
            }
        }
        unreachable!("rank {rank} of {len} values")
    };
    let (low, high) = (at(below), at(above));
    low + (high - low) * fraction
}

/// The asks of one shape, per cell (band-major, then colour, then clarity).
#[derive(Debug, Clone)]
pub(crate) struct CellAsks {
    cells: Vec<Tally>,
    len: u64,
}

impl Default for CellAsks {
    fn default() -> CellAsks {
        CellAsks { cells: vec![Tally::default(); CELLS], len: 0 }
    }
}

impl CellAsks {
    /// Adds the ln per-carat ask of one listing of `cell`.
    pub(crate) fn push(&mut self, cell: usize, ln_per_carat: f64) {
        self.cells[cell].push(ln_per_carat);
        self.len += 1;
    }

    /// The asks of one cell.
    pub(crate) fn cell(&self, cell: usize) -> &Tally {
        &self.cells[cell]
    }

    /// All asks of every cell.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// The asks of `listings` (tests and hand-made inputs), whatever their shape.
    #[cfg(test)]
    pub(crate) fn of(listings: &[Listing]) -> CellAsks {
        let mut asks = CellAsks::default();
        for listing in listings {
            let cell =
                cell_index(crate::scope::band_of(listing.carat), listing.color, listing.clarity);
            asks.push(cell, listing.per_carat().ln());
        }
        asks
    }
}

/// In-scope listings per band key, colour and clarity (`depth.json`).
pub(crate) type Depth = [[[u64; Clarity::ALL.len()]; Color::ALL.len()]; BAND_KEYS.len()];

/// Everything a build needs of its in-scope listings.
#[derive(Debug, Clone)]
pub(crate) struct Market {
    /// Per shape ([`Shape::index`]), the asks of each cell.
    asks: Vec<CellAsks>,
    /// Listings of every shape per band, colour and clarity.
    pub(crate) depth: Depth,
    /// Fancy listings with an L/W ratio, for the ratio models.
    with_ratio: Vec<Listing>,
    /// The round and the cushion asks brought to their band's carat (`spread.rs`).
    at_band: [CellAsks; 2],
}

impl Default for Market {
    fn default() -> Market {
        Market {
            asks: vec![CellAsks::default(); Shape::ALL.len()],
            depth: [[[0; Clarity::ALL.len()]; Color::ALL.len()]; BAND_KEYS.len()],
            with_ratio: Vec::new(),
            at_band: Default::default(),
        }
    }
}

impl Market {
    /// Takes in one in-scope listing of `band`.
    pub(crate) fn add(&mut self, listing: &Listing, band: usize) {
        let cell = cell_index(band, listing.color, listing.clarity);
        let ln = listing.per_carat().ln();
        self.asks[listing.shape.index()].push(cell, ln);
        if matches!(listing.shape, Shape::Round | Shape::Cushion) {
            self.at_band[usize::from(listing.shape != Shape::Round)]
                .push(cell, ln + to_band(listing, band));
        }
        self.depth[band][listing.color.index()][listing.clarity.index()] += 1;
        if listing.shape.is_fancy() && listing.lw_ratio.is_some() {
            self.with_ratio.push(listing.without_text());
        }
    }

    /// The asks of one shape.
    pub(crate) fn asks(&self, shape: Shape) -> &CellAsks {
        &self.asks[shape.index()]
    }

    /// The asks of the round (`Shape::Round`) or the cushion family brought to their
    /// band's carat.
    pub(crate) fn at_band(&self, shape: Shape) -> &CellAsks {
        &self.at_band[usize::from(shape != Shape::Round)]
    }

    /// The fancy listings with an L/W ratio, as the ratio models read them.
    pub(crate) fn with_ratio(&self) -> &[Listing] {
        &self.with_ratio
    }
}

/// What brings a listing's ln per-carat ask to its band's carat: the change of the
/// reference snapshot's round price (its colour and clarity) from the listing's carat
/// down to the band's. Asks of one cell then differ by their stones, not by where in the
/// band their carats lie.
pub(crate) fn to_band(listing: &Listing, band: usize) -> f64 {
    static CURVE: OnceLock<PriceMatrix> = OnceLock::new();
    let curve = CURVE.get_or_init(|| {
        let files = datasets::reference::embedded();
        let snapshot = datasets::Snapshot::parse(files).expect("the reference is valid");
        snapshot.pricing().round().clone()
    });
    let (Ok(carat), Ok(key)) = (Carat::new(listing.carat), Carat::new(BAND_CARATS[band])) else {
        return 0.0;
    };
    let (color, clarity) = (listing.color, listing.clarity);
    curve.ln_per_carat(key, color, clarity) - curve.ln_per_carat(carat, color, clarity)
}

#[cfg(test)]
mod tests;
