//! Filtering: which listings the index covers, duplicates, and carat band assignment.
//!
//! Checks run in this order, and a listing is counted under the first that fails:
//! impossible values, scope, duplicates. Duplicates are found among in-scope listings
//! only, in input order, the first occurrence kept: by `listing_id` when the listing has
//! one, otherwise by identical (carat, colour, clarity, shape, cut, price).

use std::{
    collections::HashSet,
    hash::{BuildHasherDefault, Hash, Hasher},
};

use chrono::{Days, NaiveDate};
use pricing::{Clarity, Color, PriceMatrix, Shape};

use crate::{
    listing::{Fluorescence, Listing},
    read::{Reason, RowCounts},
};

/// The published carat band keys; a listing belongs to band `i` when
/// `BAND_KEYS[i] <= carat < BAND_KEYS[i + 1]`, and the last band holds exactly 6.0.
pub const BAND_KEYS: [&str; 12] =
    ["0.3", "0.4", "0.5", "0.7", "0.9", "1.0", "1.5", "2.0", "3.0", "4.0", "5.0", "6.0"];

/// The band keys as numbers.
pub(crate) const BAND_CARATS: [f64; 12] =
    [0.3, 0.4, 0.5, 0.7, 0.9, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0];

/// Smallest carat in scope.
pub const SCOPE_MIN_CARAT: f64 = 0.3;
/// Largest carat in scope (the last band key): heavier stones have no band to join.
pub const SCOPE_MAX_CARAT: f64 = 6.0;
/// The lowest per-carat ask that can be a real GIA-graded stone in scope (USD). The
/// cheapest in-scope stone of the `diamonds` data set asks 1,109 USD per carat.
pub const MIN_ASK_PER_CARAT: f64 = 100.0;
/// The highest per-carat ask that can be a real colourless stone up to 6 ct (USD).
/// Record D FL stones of 10 ct and more sell near 400,000 USD per carat.
pub const MAX_ASK_PER_CARAT: f64 = 1_000_000.0;
/// How many days before the build date an observation (or a published day) may be.
pub const WINDOW_DAYS: u64 = 5;

/// Number of colours x clarities in one band.
pub(crate) const CELLS_PER_BAND: usize = 80;
/// Cells in a whole matrix.
pub(crate) const CELLS: usize = CELLS_PER_BAND * BAND_KEYS.len();

/// Index of a cell in a band-major, row-major matrix.
pub(crate) fn cell_index(band: usize, color: Color, clarity: Clarity) -> usize {
    band * CELLS_PER_BAND + color.index() * Clarity::ALL.len() + clarity.index()
}

/// The band, colour and clarity of a cell index: the inverse of [`cell_index`].
pub(crate) fn cell_grades(cell: usize) -> (usize, Color, Clarity) {
    let (band, within) = (cell / CELLS_PER_BAND, cell % CELLS_PER_BAND);
    (band, Color::ALL[within / Clarity::ALL.len()], Clarity::ALL[within % Clarity::ALL.len()])
}

/// The ln per-carat value of `cell` in `matrix`.
pub(crate) fn cell_value(matrix: &PriceMatrix, cell: usize) -> f64 {
    let (band, color, clarity) = cell_grades(cell);
    matrix.ln_at_band(band, color, clarity)
}

/// The band of an in-scope carat.
pub(crate) fn band_of(carat: f64) -> usize {
    BAND_CARATS.iter().rposition(|&key| key <= carat).unwrap_or(0)
}

/// The scope checks of one build, applied to listings as they arrive: counts every
/// rejection and remembers, as a 64-bit hash, the identity of every listing kept (10 to
/// 20 bytes per kept listing: the one part of a build's memory that grows with every
/// in-scope row).
pub(crate) struct Filter {
    date: NaiveDate,
    oldest: NaiveDate,
    seen: Identities,
    counts: RowCounts,
}

impl Filter {
    /// A filter for a build on `date`.
    pub(crate) fn new(date: NaiveDate) -> Filter {
        Filter {
            date,
            oldest: date.checked_sub_days(Days::new(WINDOW_DAYS)).unwrap_or(date),
            seen: Identities::default(),
            counts: RowCounts::default(),
        }
    }

    /// The band of `listing` when the index covers it; otherwise counts why not and
    /// returns `None`. Listings are numbered in the order they are given.
    pub(crate) fn admit(&mut self, listing: &Listing) -> Option<usize> {
        self.counts.rows += 1;
        let verdict = impossible(listing, self.date)
            .map(|why| (Reason::Impossible, why))
            .or_else(|| out_of_scope(listing, self.oldest).map(|why| (Reason::OutOfScope, why)))
            .or_else(|| {
                let fresh = self.seen.insert(identity(listing));
                (!fresh).then(|| (Reason::Duplicate, "seen before".to_owned()))
            });
        match verdict {
            Some((reason, why)) => {
                let number = self.counts.rows as usize;
                self.counts.reject("listing", number, reason, &why);
                None
            }
            None => {
                self.counts.accepted += 1;
                Some(band_of(listing.carat))
            }
        }
    }

    /// What filtering did with the listings.
    pub(crate) fn into_counts(self) -> RowCounts {
        self.counts
    }
}

/// The identity of a listing for finding duplicates, hashed: its `listing_id` when it has
/// one, otherwise its (carat, colour, clarity, shape, cut, price). Two different listings
/// share a hash with a probability of about n^2 / 2^65 for n listings (1 in 8 million for
/// 2 million listings); the hash is fixed, so a build stays reproducible even then.
fn identity(listing: &Listing) -> u64 {
    // SipHash-1-3 with fixed keys: well mixed, the same in every run.
    let mut hasher = std::hash::DefaultHasher::new();
    match &listing.listing_id {
        Some(id) => (0u8, id.as_str()).hash(&mut hasher),
        None => (
            1u8,
            listing.carat.to_bits(),
            listing.color,
            listing.clarity,
            listing.shape,
            listing.cut,
            listing.price.to_bits(),
        )
            .hash(&mut hasher),
    }
    hasher.finish()
}

/// The identities of the listings kept so far, spread over 256 hash tables by bits 32..40
/// of the hash (bits the tables themselves do not use to place a key): growing one table
/// never holds two copies of all the identities at once.
struct Identities(Vec<HashSet<u64, BuildHasherDefault<Prehashed>>>);

impl Default for Identities {
    fn default() -> Identities {
        Identities(vec![HashSet::default(); 256])
    }
}

impl Identities {
    /// Adds `hash`; false when it was there already.
    fn insert(&mut self, hash: u64) -> bool {
        self.0[(hash >> 32) as usize & 0xff].insert(hash)
    }
}

/// A hasher for keys that are hashes already: passes the `u64` through.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

fn impossible(listing: &Listing, date: NaiveDate) -> Option<String> {
    if !(listing.carat.is_finite() && listing.carat > 0.0) {
        return Some(format!("carat {}", listing.carat));
    }
    if !(listing.price.is_finite() && listing.price > 0.0) {
        return Some(format!("price {}", listing.price));
    }
    let per_carat = listing.per_carat();
    if !(MIN_ASK_PER_CARAT..=MAX_ASK_PER_CARAT).contains(&per_carat) {
        return Some(format!(
            "{per_carat:.2} USD per carat, outside the plausible {MIN_ASK_PER_CARAT}..={MAX_ASK_PER_CARAT}"
        ));
    }
    if let Some(ratio) = listing.lw_ratio
        && !(ratio.is_finite() && ratio >= 1.0)
    {
        return Some(format!("L/W ratio {ratio}"));
    }
    if let Some(observed) = listing.observed
        && observed > date
    {
        return Some(format!("observed {observed}, after the build date {date}"));
    }
    None
}

fn out_of_scope(listing: &Listing, oldest: NaiveDate) -> Option<String> {
    if !(SCOPE_MIN_CARAT..=SCOPE_MAX_CARAT).contains(&listing.carat) {
        return Some(format!("carat {}", listing.carat));
    }
    if !matches!(listing.shape, Shape::Round) && !listing.shape.is_fancy() {
        return Some(format!("shape {}", listing.shape));
    }
    if !listing.cut.is_top() {
        return Some(format!("cut {}", listing.cut.as_str()));
    }
    for (what, grade) in [("polish", listing.polish), ("symmetry", listing.symmetry)] {
        if let Some(grade) = grade
            && !grade.is_top()
        {
            return Some(format!("{what} {}", grade.as_str()));
        }
    }
    if let Some(fluorescence) = listing.fluorescence
        && fluorescence != Fluorescence::None
    {
        return Some(format!("fluorescence {fluorescence:?}"));
    }
    if let Some(lab) = &listing.lab
        && lab != "GIA"
    {
        return Some(format!("lab {lab}"));
    }
    if let Some(observed) = listing.observed
        && observed < oldest
    {
        return Some(format!("observed {observed}, before {oldest}"));
    }
    None
}

#[cfg(test)]
mod tests;
