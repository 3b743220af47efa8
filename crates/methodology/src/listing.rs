//! One listing (a retail ask for one certified stone) and the grade words it carries
//! beyond the price matrix's colour and clarity: cut, polish, symmetry, fluorescence.

use chrono::NaiveDate;
use pricing::{Clarity, Color, Shape};

/// A cut, polish or symmetry grade. GIA words and the AGS/`diamonds` words share one
/// scale: `Ideal` and `Excellent` are both the top grade, `Premium` sits between
/// `Excellent` and `Very Good`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Finish {
    /// `Poor`.
    Poor,
    /// `Fair`.
    Fair,
    /// `Good`.
    Good,
    /// `Very Good` (also `VG`).
    VeryGood,
    /// `Premium` (the `diamonds` data set's second grade).
    Premium,
    /// `Excellent` (also `EX`).
    Excellent,
    /// `Ideal` (AGS and the `diamonds` data set's top grade).
    Ideal,
}

impl Finish {
    /// Parses a grade word, ignoring case, spaces, `-` and `_` (`very good`, `VG`, `EX`).
    pub fn parse(text: &str) -> Option<Finish> {
        Some(match grade_word(text).as_str() {
            "poor" | "p" => Finish::Poor,
            "fair" | "f" => Finish::Fair,
            "good" | "g" | "gd" => Finish::Good,
            "verygood" | "vg" => Finish::VeryGood,
            "premium" => Finish::Premium,
            "excellent" | "ex" | "x" => Finish::Excellent,
            "ideal" | "id" => Finish::Ideal,
            _ => return None,
        })
    }

    /// True for the top grade of either scale (`Excellent` or `Ideal`).
    pub fn is_top(self) -> bool {
        matches!(self, Finish::Excellent | Finish::Ideal)
    }

    /// The canonical spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Finish::Poor => "Poor",
            Finish::Fair => "Fair",
            Finish::Good => "Good",
            Finish::VeryGood => "Very Good",
            Finish::Premium => "Premium",
            Finish::Excellent => "Excellent",
            Finish::Ideal => "Ideal",
        }
    }
}

/// A grade word in lower case without spaces, `-` or `_`.
fn grade_word(text: &str) -> String {
    text.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).map(|c| c.to_ascii_lowercase()).collect()
}

/// Fluorescence strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fluorescence {
    /// `None` (also `NON`, `N`).
    None,
    /// `Faint`.
    Faint,
    /// `Medium`.
    Medium,
    /// `Strong`.
    Strong,
    /// `Very Strong`.
    VeryStrong,
}

impl Fluorescence {
    /// Parses a strength word, ignoring case, spaces, `-` and `_`.
    pub fn parse(text: &str) -> Option<Fluorescence> {
        Some(match grade_word(text).as_str() {
            "none" | "non" | "n" | "nil" => Fluorescence::None,
            "faint" | "fnt" | "f" | "slight" => Fluorescence::Faint,
            "medium" | "med" | "m" => Fluorescence::Medium,
            "strong" | "stg" | "s" => Fluorescence::Strong,
            "verystrong" | "vst" | "vs" => Fluorescence::VeryStrong,
            _ => return None,
        })
    }
}

/// One listing as read from an input file: the grades that decide its matrix cell, its
/// asking price and the optional details that decide whether it is in scope.
///
/// Readers only produce listings whose colour, clarity and shape are grades the
/// snapshot publishes; every other grade is counted as out of scope while reading.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// Carat weight (positive; scope is checked by the build).
    pub carat: f64,
    /// Colour grade.
    pub color: Color,
    /// Clarity grade.
    pub clarity: Clarity,
    /// Shape.
    pub shape: Shape,
    /// Cut grade.
    pub cut: Finish,
    /// Asking price for the stone, USD.
    pub price: f64,
    /// Length-to-width ratio (`>= 1`), from `lw_ratio` or `length`/`width`.
    pub lw_ratio: Option<f64>,
    /// Grading laboratory, upper case (e.g. `GIA`).
    pub lab: Option<String>,
    /// Polish grade.
    pub polish: Option<Finish>,
    /// Symmetry grade.
    pub symmetry: Option<Finish>,
    /// Fluorescence strength.
    pub fluorescence: Option<Fluorescence>,
    /// The seller's identifier (used to find duplicates).
    pub listing_id: Option<String>,
    /// The day the ask was observed.
    pub observed: Option<NaiveDate>,
}

impl Listing {
    /// Price per carat, USD.
    pub fn per_carat(&self) -> f64 {
        self.price / self.carat
    }

    /// The listing without its text fields (`lab`, `listing_id`): what a build keeps of
    /// a listing once its scope and identity are checked.
    pub(crate) fn without_text(&self) -> Listing {
        Listing { lab: None, listing_id: None, ..*self }
    }

    /// A plain listing with no optional details (used by tests and examples).
    pub fn new(
        carat: f64,
        color: Color,
        clarity: Clarity,
        shape: Shape,
        cut: Finish,
        price: f64,
    ) -> Listing {
        Listing {
            carat,
            color,
            clarity,
            shape,
            cut,
            price,
            lw_ratio: None,
            lab: None,
            polish: None,
            symmetry: None,
            fluorescence: None,
            listing_id: None,
            observed: None,
        }
    }
}
