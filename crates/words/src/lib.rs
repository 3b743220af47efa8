//! How the services show things in text, written once: untrusted text quoted in a message
//! ([`clip`], [`quoted`], [`Quoted`], the one bound [`CLIP_CHARS_MAX`]), JSON string literals
//! as serde_json writes them ([`json_string`], [`push_json_escaped`]), US dollars
//! ([`usd`], [`push_usd`], [`usd_ascii`], [`usd_whole`]), counts ([`grouped`],
//! [`eight_digits`], [`integer_digits`]) and UTC timestamps ([`utc`]). No dependencies: every crate but the
//! published libraries may use it.

mod clip;
mod json;
mod usd;
mod utc;

pub use clip::{CLIP_CHARS_MAX, Quoted, clip, quoted};
pub use json::{json_string, needs_json_escape, push_json_escaped};
pub use usd::{
    USD_BYTES_MAX, eight_digits, grouped, integer_digits, push_usd, usd, usd_ascii, usd_whole,
};
pub use utc::{Fraction, UtcText, utc};
