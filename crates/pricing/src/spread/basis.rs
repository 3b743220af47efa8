//! How a cell's price was made (`Basis`) and where an ask stands against a range
//! (`Verdict`), with their published names.

use std::fmt;

use crate::error::{Error, ErrorKind};

/// How a cell's published price was made, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Basis {
    /// Selected from the day's own asks in the cell (one or more).
    Observed,
    /// Selected from the cell's asks of an earlier day.
    LookedBack,
    /// Filled by the regression or derived from the other matrix.
    Modelled,
    /// A carat band with no asks at all, carried from its neighbour.
    Carried,
}

impl Basis {
    /// Every basis, strongest first.
    pub const ALL: &'static [Basis] =
        &[Basis::Observed, Basis::LookedBack, Basis::Modelled, Basis::Carried];

    /// The published name: `observed`, `looked_back`, `modelled`, `carried`.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Observed => "observed",
            Basis::LookedBack => "looked_back",
            Basis::Modelled => "modelled",
            Basis::Carried => "carried",
        }
    }

    /// Parses a published name (exact spelling).
    pub fn parse(text: &str) -> Result<Basis, Error> {
        Basis::ALL.iter().copied().find(|basis| basis.as_str() == text).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownGrade,
                format!(
                    "unknown basis {}; allowed: observed, looked_back, modelled, carried",
                    crate::grade::shown(text)
                ),
            )
        })
    }

    /// The weaker of two bases: observed > looked_back > modelled > carried.
    ///
    /// ```
    /// use pricing::Basis;
    /// assert_eq!(Basis::Observed.weaker(Basis::Modelled), Basis::Modelled);
    /// assert_eq!(Basis::Carried.weaker(Basis::LookedBack), Basis::Carried);
    /// ```
    pub fn weaker(self, other: Basis) -> Basis {
        if (other as u8) > (self as u8) { other } else { self }
    }
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where an ask stands against the range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Below the range's low end (`below_market`).
    BelowMarket,
    /// Within the range, ends included (`within_market`).
    WithinMarket,
    /// Above the range's high end (`above_market`).
    AboveMarket,
}

impl Verdict {
    /// The published name: `below_market`, `within_market`, `above_market`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::BelowMarket => "below_market",
            Verdict::WithinMarket => "within_market",
            Verdict::AboveMarket => "above_market",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
