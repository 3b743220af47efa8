//! Colour and clarity grades and diamond shapes, parsed case-insensitively.

use std::fmt;

use crate::error::{Error, ErrorKind};

macro_rules! grade_enum {
    ($(#[$doc:meta])* $name:ident, $what:literal, [$($variant:ident = $text:literal),+ $(,)?]) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )+
        }

        impl $name {
            /// Every value, best first (the order of the published grade lists).
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical spelling.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// Position in [`Self::ALL`].
            pub fn index(self) -> usize {
                self as usize
            }

            /// Parses a name, ignoring ASCII case and surrounding whitespace.
            #[inline(always)]
            pub fn parse(text: &str) -> Result<$name, Error> {
                // The canonical spelling, what most callers send: one `match`.
                match text {
                    $($text => return Ok($name::$variant),)+
                    _ => {}
                }
                let trimmed = text.trim();
                Self::ALL
                    .iter()
                    .copied()
                    .find(|it| it.as_str().eq_ignore_ascii_case(trimmed))
                    .ok_or_else(|| {
                        let allowed: Vec<&str> = Self::ALL.iter().map(|it| it.as_str()).collect();
                        Error::new(
                            ErrorKind::UnknownGrade,
                            format!("unknown {} {}; allowed: {}", $what, shown(text), allowed.join(", ")),
                        )
                    })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// Most characters of a refused name quoted in its error, so that no input makes an
/// error large.
const SHOWN_CHARS_MAX: usize = 64;

/// `text` quoted for an error: whole when short, else its first [`SHOWN_CHARS_MAX`]
/// characters, `…` and the full length.
pub(crate) fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS_MAX) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?} ({} bytes)", format!("{}…", &text[..cut]), text.len()),
    }
}

grade_enum!(
    /// GIA colour grade, D (best) to M.
    ///
    /// ```
    /// use pricing::{Clarity, Color, Shape};
    ///
    /// assert_eq!(Color::parse(" g ")?, Color::G);
    /// assert_eq!(Clarity::parse("vvs1")?.as_str(), "VVS1");
    /// assert!(Shape::parse("oval")?.is_fancy());
    /// assert!(Color::D < Color::M); // grades order best first
    /// let refused = Color::parse("Z").unwrap_err();
    /// assert_eq!(refused.to_string(), r#"unknown color "Z"; allowed: D, E, F, G, H, I, J, K, L, M"#);
    /// # Ok::<(), pricing::Error>(())
    /// ```
    Color, "color", [D = "D", E = "E", F = "F", G = "G", H = "H", I = "I", J = "J", K = "K", L = "L", M = "M"]
);

grade_enum!(
    /// GIA clarity grade, FL (best) to SI2.
    Clarity, "clarity", [Fl = "FL", If = "IF", Vvs1 = "VVS1", Vvs2 = "VVS2", Vs1 = "VS1", Vs2 = "VS2", Si1 = "SI1", Si2 = "SI2"]
);

grade_enum!(
    /// Diamond shape. `Round` is priced from the matrix alone; the others through a ratio model.
    Shape, "shape", [Round = "round", Cushion = "cushion", Radiant = "radiant", Emerald = "emerald", Oval = "oval", Pear = "pear", Marquise = "marquise", Heart = "heart"]
);

impl Shape {
    /// The fancy shapes: every shape but round, each priced through a ratio model.
    pub const FANCY: &'static [Shape] = &[
        Shape::Cushion,
        Shape::Radiant,
        Shape::Emerald,
        Shape::Oval,
        Shape::Pear,
        Shape::Marquise,
        Shape::Heart,
    ];

    /// True for every shape but round.
    pub fn is_fancy(self) -> bool {
        self != Shape::Round
    }
}
