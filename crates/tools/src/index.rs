//! `get_dcx_index`: the DCX of the live snapshot, its trends and its basket.

use std::sync::Arc;

use datasets::{History, Index, Snapshot, Trend};
use jsonrpc::Object;
use pricing::round_cents;

use crate::{
    args::{ArgumentErrors, Arguments},
    memo::LastBuilt,
    price::{Answered, Output},
    text::{Text, lit},
    twin::{Twins, fragment},
};

#[cfg(test)]
mod tests;

/// The 7-day or 30-day trend: from the snapshot history; else the feed's own published
/// value (`trend_7d` / `trend_30d` in `index.json`); else none. The note says which.
fn trend(
    history: &History,
    days: u64,
    published: Option<f64>,
    notes: &mut Vec<String>,
) -> Option<f64> {
    match history.trend(days) {
        Trend::Available { percent, from } => {
            notes.push(format!("{days}d: DCX change since the snapshot of {from}"));
            Some((percent * 100.0).round() / 100.0).filter(|p| p.is_finite())
        }
        Trend::Unavailable { reason } => match published {
            Some(value) => {
                notes.push(format!("{days}d: as published in index.json ({reason})"));
                Some(value).filter(|v| v.is_finite())
            }
            None => {
                notes.push(format!("{days}d: null because {reason}"));
                None
            }
        },
    }
}

/// Runs `get_dcx_index` (it takes no arguments; any argument is reported). Its answer
/// depends on the history alone, so each thread builds it once per history.
pub(crate) fn dcx_index(
    history: &Arc<History>,
    arguments: &Object<'_>,
) -> Result<Answered, ArgumentErrors> {
    thread_local! {
        static LAST: LastBuilt<History, Arc<Output>> = const { LastBuilt::new() };
    }
    Arguments::new(arguments, &[]).finish()?;
    Ok(Answered::Kept(LAST.with(|last| last.get(history, || Arc::new(build(history))))))
}

/// The answer of `get_dcx_index` for `history`.
fn build(history: &History) -> Output {
    let snapshot = history.live();
    let index = snapshot.index();
    let mut notes = vec!["24h: trend as published in index.json".to_owned()];
    let trend_7d = trend(history, 7, index.trend_7d, &mut notes);
    let trend_30d = trend(history, 30, index.trend_30d, &mut notes);
    Output::written(
        text(snapshot, index, trend_7d, trend_30d, &notes),
        structured(snapshot, index, trend_7d, trend_30d, &notes),
    )
}

/// The readable text: the DCX, its trends, the basket a stone a line, the notes of the
/// trends that are null.
fn text(
    snapshot: &Snapshot,
    index: &Index,
    trend_7d: Option<f64>,
    trend_30d: Option<f64>,
    notes: &[String],
) -> Text {
    let mut out = Text::with_capacity(1024);
    lit!(out, "DCX: ");
    out.usd(index.dcx);
    lit!(out, "/ct\nTrends: 24h ");
    signed(&mut out, index.trend);
    lit!(out, "%, 7d ");
    percent(&mut out, trend_7d);
    lit!(out, ", 30d ");
    percent(&mut out, trend_30d);
    lit!(out, "\nBasket (");
    out.integer(index.specs.len() as u64);
    lit!(out, " stones):");
    for spec in &index.specs {
        lit!(out, "\n  ");
        out.decimal(spec.carat);
        lit!(out, " ct ");
        out.name(spec.color.as_str());
        lit!(out, " ");
        out.name(spec.clarity.as_str());
        lit!(out, " ");
        out.push_str(&spec.cut);
        lit!(out, ": ");
        out.usd(spec.per_carat);
        lit!(out, "/ct, weight ");
        out.decimal(spec.weight);
    }
    for note in notes.iter().filter(|note| note.contains("null")) {
        lit!(out, "\n");
        out.push_str(note);
    }
    lit!(out, "\n");
    out.as_of(snapshot.ts_text());
    out
}

/// A trend as `{:+}%` writes it, or `n/a`.
fn percent(out: &mut Text, trend: Option<f64>) {
    match trend {
        Some(value) => {
            signed(out, value);
            lit!(out, "%");
        }
        None => lit!(out, "n/a"),
    }
}

/// `value` as `{:+}` writes it (a sign on all but NaN).
fn signed(out: &mut Text, value: f64) {
    if value.is_sign_positive() && !value.is_nan() {
        lit!(out, "+");
    }
    out.decimal(value);
}

/// The `structuredContent`, its members in serde_json's (sorted) order.
fn structured(
    snapshot: &Snapshot,
    index: &Index,
    trend_7d: Option<f64>,
    trend_30d: Option<f64>,
    notes: &[String],
) -> Twins {
    let mut out = Twins::new();
    fragment!(out, r#"{"as_of":"#);
    out.name(snapshot.ts_text());
    fragment!(out, r#","basket":["#);
    for (at, spec) in index.specs.iter().enumerate() {
        if at > 0 {
            fragment!(out, ",");
        }
        fragment!(out, r#"{"carat":"#);
        out.number(spec.carat);
        fragment!(out, r#","clarity":"#);
        out.name(spec.clarity.as_str());
        fragment!(out, r#","color":"#);
        out.name(spec.color.as_str());
        fragment!(out, r#","cut":"#);
        out.string(&spec.cut);
        fragment!(out, r#","per_carat":"#);
        out.number(spec.per_carat);
        fragment!(out, r#","price":"#);
        out.number(spec.price);
        fragment!(out, r#","weight":"#);
        out.number(spec.weight);
        fragment!(out, "}");
    }
    fragment!(out, r#"],"dcx_usd_per_carat":"#);
    out.number(round_cents(index.dcx));
    fragment!(out, r#","trend_notes":["#);
    for (at, note) in notes.iter().enumerate() {
        if at > 0 {
            fragment!(out, ",");
        }
        out.string(note);
    }
    fragment!(out, r#"],"trends_percent":{"24h":"#);
    out.number(index.trend);
    fragment!(out, r#","30d":"#);
    out.maybe(trend_30d);
    fragment!(out, r#","7d":"#);
    out.maybe(trend_7d);
    fragment!(out, "}}");
    out
}
