//! The carat steps: the priced range cut into steps by a carat's bits, and a table per
//! sorted list of carats that says how many of them lie at or below a carat.

use super::{CARAT_MAX, CARAT_MIN, Carat};

/// Finds how many of a sorted list of carats are at or below a given carat (the
/// `partition_point` of `key <= carat`) with a table and a compare or two, instead of a
/// binary search.
///
/// The table is indexed by the carat's bits: for positive floats the bit patterns, read
/// as integers, are in the order of the numbers, so `(bits(carat) - bits(CARAT_MIN)) >>
/// SHIFT` cuts the priced range into [`CaratSteps::STEPS`] steps in order, with integer
/// arithmetic and nothing rounded. Each step is 1/64 of a power of two wide (0.004 ct
/// at 0.3 ct, 0.0625 ct from 4 ct up). The table holds, for each step, how many keys lie
/// at or below its first carat; a look-up reads that count and walks up over the keys
/// of the step the carat has passed: one compare when no two keys share a step, as with
/// the reference bands. Any sorted list gives the exact answer; carats outside the range
/// (NaN too) take the binary search.
#[derive(Clone, PartialEq)]
pub(crate) struct CaratSteps {
    /// For each step, the keys at or below its first carat, saturated at 255.
    below: ByStep<u8>,
}

/// One `T` per carat step. A [`Carat`] is in the priced range, so its step indexes such a
/// table without a bounds check where the compiler sees the carat checked.
pub(crate) type ByStep<T> = [T; CaratSteps::STEPS];

impl CaratSteps {
    /// How far a carat's bits are shifted down to make its step: 64 steps per power of two.
    const SHIFT: u32 = 46;
    /// The steps that hold a priced carat: [`CARAT_MAX`]'s step and all below it.
    pub(crate) const STEPS: usize =
        ((CARAT_MAX.to_bits() - CARAT_MIN.to_bits()) >> Self::SHIFT) as usize + 1;

    /// The first (smallest) carat of a step.
    pub(crate) fn first_carat(step: usize) -> f64 {
        f64::from_bits(CARAT_MIN.to_bits() + ((step as u64) << Self::SHIFT))
    }

    /// The table for `keys`, sorted ascending.
    pub(crate) fn new(keys: &[f64]) -> CaratSteps {
        let mut below = [0u8; Self::STEPS];
        for (step, count) in below.iter_mut().enumerate() {
            let first = Self::first_carat(step);
            let at_or_below = keys.partition_point(|&key| key <= first);
            *count = u8::try_from(at_or_below).unwrap_or(u8::MAX);
        }
        CaratSteps { below }
    }

    /// The step of a carat of the priced range, below [`Self::STEPS`].
    #[inline]
    pub(crate) fn step(carat: Carat) -> usize {
        (carat.get().to_bits().wrapping_sub(CARAT_MIN.to_bits()) >> Self::SHIFT) as usize
    }

    /// The table's count for a carat of the priced range: a lower bound of the answer.
    #[inline]
    fn start(&self, carat: Carat) -> usize {
        usize::from(self.below[Self::step(carat)])
    }

    /// How many of `keys` (the list the table was built for) are at or below `carat`:
    /// `keys.partition_point(|&key| key <= carat)`.
    #[inline]
    pub(crate) fn at_or_below(&self, keys: &[f64], carat: f64) -> usize {
        match Carat::new(carat) {
            Ok(priced) => self.at_or_below_priced(keys, priced),
            Err(_) => Self::searched(keys, carat),
        }
    }

    /// [`Self::at_or_below`] for a carat known to be in the priced range.
    #[inline]
    pub(crate) fn at_or_below_priced(&self, keys: &[f64], carat: Carat) -> usize {
        let mut count = self.start(carat);
        while keys.get(count).is_some_and(|&key| key <= carat.get()) {
            count += 1;
        }
        count
    }

    /// The binary search, for carats outside the priced range.
    #[cold]
    fn searched(keys: &[f64], carat: f64) -> usize {
        keys.partition_point(|&key| key <= carat)
    }

    /// For a table built for the bands after the first (`bands[1..]`): how many of them
    /// are at or below `carat`, which is the segment of `bands` that holds it.
    #[inline]
    pub(super) fn segment(&self, bands: &[f64], carat: Carat) -> usize {
        let mut lower = self.start(carat);
        while lower + 1 < bands.len() && bands[lower + 1] <= carat.get() {
            lower += 1;
        }
        lower
    }
}
