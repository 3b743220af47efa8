//! The typed answers of `/track` and the calculator's `/quote`: what the JSON, CSV and
//! HTML renderers share. [`track`] prices one stone in the snapshots of a window of days;
//! [`price`] reads a calculator query into the stone's price now and over its window.

use chrono::NaiveDate;
use datasets::History;
use pricing::{Quote, QuoteRequest, round_cents};
use serde::{Serialize, Serializer, ser::SerializeMap};

use crate::{
    check::ShownEvidence,
    stone::{self, Refusal},
};

/// One stone over a window of days, oldest first: `/track`'s answer. Serialized as the
/// JSON answer (its fields in this order, the order of their names).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Tracked {
    pub(crate) carat: f64,
    pub(crate) clarity: &'static str,
    pub(crate) color: &'static str,
    pub(crate) currency: &'static str,
    pub(crate) entries: Vec<Entry>,
    /// The window asked for, from the first day held at the earliest: asking again with
    /// it gives the same answer.
    pub(crate) from: String,
    pub(crate) history_days: usize,
    pub(crate) live_ts: String,
    /// The L/W ratio asked for; `None` for the shape's usual one.
    pub(crate) ratio: Option<f64>,
    pub(crate) shape: &'static str,
}

/// The stone on one day: its price, or why that day cannot price it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub(crate) date: NaiveDate,
    /// The day's snapshot `ts`, as published.
    pub(crate) ts: String,
    pub(crate) price: Result<DayPrice, String>,
}

/// A day's price of the stone, in dollars rounded to cents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DayPrice {
    pub(crate) per_carat_usd: f64,
    pub(crate) total_usd: f64,
    /// For a fancy shape: the ratio priced and its adjustment.
    pub(crate) fancy: Option<Fancy>,
    /// The range and the asks behind the price, when the day publishes its spread.
    pub(crate) evidence: Option<ShownEvidence>,
}

/// The ratio adjustment of a fancy shape's price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fancy {
    pub(crate) shape_ratio: f64,
    pub(crate) ratio_multiplier: f64,
    pub(crate) preference_driven_ratio: bool,
}

impl Serialize for Entry {
    /// `{["basis"], "date", "error" | (["observations"], "per_carat_usd",
    /// ["preference_driven_ratio"], ["range"], ["ratio_multiplier", "shape_ratio"],
    /// "total_usd"), "ts"}`: the names in order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        let evidence = self.priced().and_then(|price| price.evidence);
        if let Some(evidence) = evidence {
            map.serialize_entry("basis", evidence.basis)?;
        }
        map.serialize_entry("date", &self.date.to_string())?;
        match &self.price {
            Err(error) => map.serialize_entry("error", error)?,
            Ok(price) => {
                if let Some(evidence) = evidence {
                    map.serialize_entry("observations", &evidence.observations)?;
                }
                map.serialize_entry("per_carat_usd", &price.per_carat_usd)?;
                if let Some(fancy) = price.fancy {
                    map.serialize_entry("preference_driven_ratio", &fancy.preference_driven_ratio)?;
                }
                if let Some(evidence) = evidence {
                    map.serialize_entry("range", &evidence.range)?;
                }
                if let Some(fancy) = price.fancy {
                    map.serialize_entry("ratio_multiplier", &fancy.ratio_multiplier)?;
                    map.serialize_entry("shape_ratio", &fancy.shape_ratio)?;
                }
                map.serialize_entry("total_usd", &price.total_usd)?;
            }
        }
        map.serialize_entry("ts", &self.ts)?;
        map.end()
    }
}

impl Entry {
    /// The day's price, if it has one.
    pub(crate) fn priced(&self) -> Option<&DayPrice> {
        self.price.as_ref().ok()
    }
}

/// The stone's entry in every snapshot of `history` from `from` on, oldest first.
pub(crate) fn track(history: &History, request: &QuoteRequest, from: NaiveDate) -> Tracked {
    let entries = history
        .days_from(from)
        .iter()
        .map(|day| {
            let price = match history.snapshot_of(day) {
                Ok(snapshot) => snapshot
                    .quote(request)
                    .map(|quote| day_price(quote, snapshot.evidence(&quote)))
                    .map_err(|err| err.message),
                Err(err) => {
                    let reason = err.to_string().replace('\n', ";");
                    Err(format!("this day's snapshot cannot be read: {reason}"))
                }
            };
            Entry { date: day.date, ts: day.ts_text().to_owned(), price }
        })
        .collect();
    Tracked {
        carat: request.carat,
        clarity: request.clarity.as_str(),
        color: request.color.as_str(),
        currency: "USD",
        entries,
        from: from.max(history.days()[0].date).to_string(),
        history_days: history.days().len(),
        live_ts: history.live().ts_text().to_owned(),
        ratio: request.ratio,
        shape: request.shape.as_str(),
    }
}

/// A quote rounded to cents, with its ratio adjustment for a fancy shape and its evidence
/// when the day has it.
fn day_price(quote: Quote, evidence: Option<pricing::Evidence>) -> DayPrice {
    DayPrice {
        per_carat_usd: round_cents(quote.per_carat_usd),
        total_usd: round_cents(quote.total_usd),
        fancy: quote.fancy.map(|fancy| Fancy {
            shape_ratio: quote.shape_ratio,
            ratio_multiplier: fancy.adjustment.multiplier,
            preference_driven_ratio: fancy.adjustment.preference_driven,
        }),
        evidence: evidence.as_ref().map(ShownEvidence::of),
    }
}

/// The calculator's answer for a priced stone: its quote in the live snapshot and the
/// stone over the days of its window.
#[derive(Debug, Clone)]
pub(crate) struct Priced {
    pub(crate) quote: Quote,
    pub(crate) tracked: Tracked,
}

/// Prices the stone `query` names (`/track`'s parameters, checked by
/// [`stone::parse`]) in `history`: now, and over the window the query asks for; or the
/// problems, with the words `/track` and the tool give.
pub(crate) fn price(history: &History, query: &str) -> Result<Priced, Refusal> {
    let request = stone::parse(query)?;
    let quote = history.live().quote(&request)?;
    let tracked = track(history, &request, stone::from_date(query, history.live_date()));
    Ok(Priced { quote, tracked })
}
