//! The evidence behind a price, as results carry it: the 10th-90th percentile `range` of
//! comparable asks, the `observations` behind the cells used and the `basis` of the
//! price ([`pricing::Evidence`]), rounded to cents once, here. `get_diamond_price` and
//! `check_asking_price` write the same members with the same schema.

use pricing::{Evidence, round_cents};
use serde_json::{Value, json};

use crate::{
    text::{Text, lit},
    twin::{Twins, fragment},
};

#[cfg(test)]
mod tests;

/// The evidence members of a result: `,"range":{…},"observations":N,"basis":"…"`, the
/// range the 10th and 90th percentile of comparable asks, per carat and total, USD
/// rounded to cents.
#[inline(always)]
pub(crate) fn members(out: &mut Twins, evidence: &Evidence) {
    let range = &evidence.range;
    fragment!(out, r#","range":{"low_per_carat_usd":"#);
    out.number(round_cents(range.low_per_carat_usd));
    fragment!(out, r#","high_per_carat_usd":"#);
    out.number(round_cents(range.high_per_carat_usd));
    fragment!(out, r#","low_usd":"#);
    out.number(round_cents(range.low_usd));
    fragment!(out, r#","high_usd":"#);
    out.number(round_cents(range.high_usd));
    fragment!(out, r#"},"observations":"#);
    out.integer(evidence.observations.into());
    fragment!(out, r#","basis":"#);
    out.name(evidence.basis.as_str());
}

/// The readable line of the evidence: `Range (10th-90th percentile of comparable asks):
/// $X - $Y; based on N observed asks (basis: observed).` (or `no observed asks behind
/// it` when none is the day's own).
#[inline(always)]
pub(crate) fn push_line(out: &mut Text, evidence: &Evidence) {
    lit!(out, "Range (10th-90th percentile of comparable asks): ");
    out.usd(evidence.range.low_usd);
    lit!(out, " - ");
    out.usd(evidence.range.high_usd);
    match evidence.observations {
        0 => lit!(out, "; no observed asks behind it"),
        1 => lit!(out, "; based on 1 observed ask"),
        n => {
            lit!(out, "; based on ");
            out.integer(n.into());
            lit!(out, " observed asks");
        }
    }
    lit!(out, " (basis: ");
    out.name(evidence.basis.as_str());
    lit!(out, ").");
}

/// The schema of `range`.
pub(crate) fn range_schema() -> Value {
    let usd = |what: &str| json!({ "type": "number", "minimum": 0, "description": format!("{what}, USD rounded to cents.") });
    json!({
        "type": "object",
        "description": "The 10th to 90th percentile of comparable asks (estimated per cell from its screened asks and its neighbours', interpolated across carat bands and scaled by the ratio multiplier as the price is).",
        "properties": {
            "low_per_carat_usd": usd("10th percentile per carat"),
            "high_per_carat_usd": usd("90th percentile per carat"),
            "low_usd": usd("10th percentile, total"),
            "high_usd": usd("90th percentile, total"),
        },
        "required": ["low_per_carat_usd", "high_per_carat_usd", "low_usd", "high_usd"],
        "additionalProperties": false,
    })
}

/// The schema of `observations`.
pub(crate) fn observations_schema() -> Value {
    json!({ "type": "integer", "minimum": 0, "description": "Screened asks behind the matrix cells used (the carat bands around the stone); 0 when no price behind it is the day's own." })
}

/// The schema of `basis`.
pub(crate) fn basis_schema() -> Value {
    json!({
        "type": "string",
        "enum": pricing::Basis::ALL.iter().map(|basis| basis.as_str()).collect::<Vec<_>>(),
        "description": "How the price was made, the weakest of the cells used: observed (the day's own asks), looked_back (asks of an earlier day), modelled (the regression or the other matrix), carried (a band with no asks, from its neighbour).",
    })
}
