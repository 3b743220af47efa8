//! `get_dcx_index`: the DCX of the live snapshot, its trends and its basket.

use datasets::{History, Trend};
use jsonrpc::Object;
use pricing::round_cents;
use serde_json::{Value, json};

use crate::{
    args::{ArgumentErrors, Arguments},
    price::Output,
};

#[cfg(test)]
mod tests;

/// The 7-day or 30-day trend: from the snapshot history; else the feed's own published
/// value (`trend_7d` / `trend_30d` in `index.json`); else null. The note says which.
fn trend(history: &History, days: u64, published: Option<f64>, notes: &mut Vec<String>) -> Value {
    match history.trend(days) {
        Trend::Available { percent, from } => {
            notes.push(format!("{days}d: DCX change since the snapshot of {from}"));
            json!(round_hundredths(percent))
        }
        Trend::Unavailable { reason } => match published {
            Some(value) => {
                notes.push(format!("{days}d: as published in index.json ({reason})"));
                json!(value)
            }
            None => {
                notes.push(format!("{days}d: null because {reason}"));
                Value::Null
            }
        },
    }
}

fn round_hundredths(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// Runs `get_dcx_index` (it takes no arguments; any argument is reported).
pub(crate) fn dcx_index(
    history: &History,
    arguments: &Object<'_>,
) -> Result<Output, ArgumentErrors> {
    Arguments::new(arguments, &[]).finish()?;
    let snapshot = history.live();
    let index = snapshot.index();
    let mut notes = vec!["24h: trend as published in index.json".to_owned()];
    let trend_7d = trend(history, 7, index.trend_7d, &mut notes);
    let trend_30d = trend(history, 30, index.trend_30d, &mut notes);
    let basket: Vec<Value> = index
        .specs
        .iter()
        .map(|s| {
            json!({
                "carat": s.carat,
                "color": s.color.as_str(),
                "clarity": s.clarity.as_str(),
                "cut": s.cut,
                "per_carat": s.per_carat,
                "price": s.price,
                "weight": s.weight,
            })
        })
        .collect();
    let percent = |v: &Value| v.as_f64().map_or("n/a".to_owned(), |p| format!("{p:+}%"));
    let mut lines = vec![
        format!("DCX: {}/ct", words::usd(index.dcx)),
        format!(
            "Trends: 24h {:+}%, 7d {}, 30d {}",
            index.trend,
            percent(&trend_7d),
            percent(&trend_30d)
        ),
        format!("Basket ({} stones):", index.specs.len()),
    ];
    for s in &index.specs {
        lines.push(format!(
            "  {} ct {} {} {}: {}/ct, weight {}",
            s.carat,
            s.color,
            s.clarity,
            s.cut,
            words::usd(s.per_carat),
            s.weight
        ));
    }
    lines.extend(notes.iter().filter(|n| n.contains("null")).cloned());
    lines.push(format!("Data as of {}.", snapshot.ts_text()));
    let structured = json!({
        "dcx_usd_per_carat": round_cents(index.dcx),
        "trends_percent": { "24h": index.trend, "7d": trend_7d, "30d": trend_30d },
        "trend_notes": notes,
        "basket": basket,
        "as_of": snapshot.ts_text(),
    });
    Ok(Output::new(lines.join("\n"), &structured))
}
