//! Filtering: which listings the index covers, duplicates, and carat band assignment.
//!
//! Checks run in this order, and a listing is counted under the first that fails:
//! impossible values, scope, duplicates. Duplicates are found among in-scope listings
//! only, in input order, the first occurrence kept: by `listing_id` when the listing has
//! one, otherwise by identical (carat, colour, clarity, shape, cut, price).

use std::collections::HashSet;

use chrono::{Days, NaiveDate};
use pricing::{Clarity, Color, Shape};

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

/// An in-scope listing with its band.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Used<'a> {
    pub(crate) listing: &'a Listing,
    pub(crate) band: usize,
}

impl Used<'_> {
    /// The listing's cell: band-major, then colour, then clarity.
    pub(crate) fn cell(&self) -> usize {
        cell_index(self.band, self.listing.color, self.listing.clarity)
    }
}

/// Index of a cell in a band-major, row-major matrix.
pub(crate) fn cell_index(band: usize, color: Color, clarity: Clarity) -> usize {
    band * CELLS_PER_BAND + color.index() * Clarity::ALL.len() + clarity.index()
}

/// The band of an in-scope carat.
pub(crate) fn band_of(carat: f64) -> usize {
    BAND_CARATS.iter().rposition(|&key| key <= carat).unwrap_or(0)
}

/// Keeps the listings the index covers, counting the others in `counts`.
pub(crate) fn filter<'a>(
    listings: &'a [Listing],
    date: NaiveDate,
    counts: &mut RowCounts,
) -> Vec<Used<'a>> {
    let oldest = date.checked_sub_days(Days::new(WINDOW_DAYS)).unwrap_or(date);
    let mut ids = HashSet::new();
    let mut keys = HashSet::new();
    let mut used = Vec::with_capacity(listings.len());
    for (i, listing) in listings.iter().enumerate() {
        counts.rows += 1;
        let verdict = impossible(listing, date)
            .map(|why| (Reason::Impossible, why))
            .or_else(|| out_of_scope(listing, oldest).map(|why| (Reason::OutOfScope, why)))
            .or_else(|| {
                let fresh = match &listing.listing_id {
                    Some(id) => ids.insert(id.as_str()),
                    None => keys.insert((
                        listing.carat.to_bits(),
                        listing.color,
                        listing.clarity,
                        listing.shape,
                        listing.cut,
                        listing.price.to_bits(),
                    )),
                };
                (!fresh).then(|| (Reason::Duplicate, "seen before".to_owned()))
            });
        match verdict {
            Some((reason, why)) => counts.reject("listing", i + 1, reason, &why),
            None => {
                counts.accepted += 1;
                used.push(Used { listing, band: band_of(listing.carat) });
            }
        }
    }
    used
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
