//! Downloads for analysts: the DCX history as JSON and CSV, the price matrices as CSV
//! (dollars per carat), and `/track` as CSV.

use std::fmt::Write as _;

use datasets::History;
use pricing::{BaseMatrix, PriceMatrix, SpreadSet};
use serde_json::{Value, json};

use super::format;
use crate::tracked::Tracked;

#[cfg(test)]
mod tests;

/// `/index/history.json`: one entry per history day, oldest first, with the DCX and the
/// three trends as that day's `index.json` published them (`null` when it did not).
pub(crate) fn history_json(history: &History) -> String {
    let days: Vec<Value> = history
        .days()
        .iter()
        .map(|day| {
            json!({
                "date": day.date.to_string(),
                "ts": day.ts_text(),
                "dcx": day.dcx(),
                "trend_24h": day.trend(),
                "trend_7d": day.trend_7d(),
                "trend_30d": day.trend_30d(),
            })
        })
        .collect();
    let body = json!({
        "currency": "USD",
        "live_date": history.live_date().to_string(),
        "live_ts": history.live().ts_text(),
        "days": days,
    });
    let mut text = serde_json::to_string_pretty(&body).unwrap_or_default();
    text.push('\n');
    text
}

/// `/index/history.csv`: the same rows as [`history_json`]; an unpublished trend is an
/// empty cell.
pub(crate) fn history_csv(history: &History) -> String {
    let mut out = String::from("date,dcx,trend_24h,trend_7d,trend_30d\r\n");
    for day in history.days() {
        let _ = write!(out, "{},{},{},", day.date, day.dcx(), day.trend());
        let _ = write!(out, "{},{}\r\n", optional(day.trend_7d()), optional(day.trend_30d()));
    }
    out
}

fn optional(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// `/matrix.csv` and `/matrix_cushion.csv`: one row per band, colour and clarity, with the
/// price in dollars per carat rounded to cents (`exp` of the feed's natural log).
pub(crate) fn matrix_csv(matrix: &PriceMatrix) -> String {
    let mut out = String::from("band,color,clarity,usd_per_carat\r\n");
    for (i, &band) in matrix.bands().iter().enumerate() {
        for &color in matrix.colors() {
            for &clarity in matrix.clarities() {
                let usd = pricing::round_cents(matrix.ln_at_band(i, color, clarity).exp());
                let _ = write!(out, "{},{color},{clarity},{usd:.2}\r\n", format::carat(band));
            }
        }
    }
    out
}

/// `/matrix_stats.csv`: one row per cell of both matrices, round first, with its asks,
/// the basis of its price and its quantiles in dollars per carat (cents).
pub(crate) fn stats_csv(spreads: &SpreadSet) -> String {
    let mut out = String::from("matrix,band,color,clarity,asks,basis,p10,p25,p50,p75,p90\r\n");
    for base in [BaseMatrix::Round, BaseMatrix::Cushion] {
        let matrix = spreads.matrix(base);
        let name = base.feed_name().trim_end_matches(".json");
        for (i, &band) in matrix.bands().iter().enumerate() {
            for &color in matrix.colors() {
                for &clarity in matrix.clarities() {
                    let cell = matrix.cell(i, color, clarity);
                    let (band, asks, basis) = (format::carat(band), cell.observations, cell.basis);
                    let _ = write!(out, "{name},{band},{color},{clarity},{asks},{basis}");
                    for q in cell.quantiles {
                        let _ = write!(out, ",{:.2}", pricing::round_cents(q));
                    }
                    out.push_str("\r\n");
                }
            }
        }
    }
    out
}

/// `/track?…&format=csv`: one row per day of the window; an empty cell for what a day
/// does not have (the range and evidence, last so that the older columns keep their
/// places, only on a day with `matrix_stats.json`). Numbers are written as the JSON answer
/// writes them.
pub(crate) fn track_csv(tracked: &Tracked) -> String {
    let mut out = String::from(
        "date,ts,shape,carat,color,clarity,per_carat_usd,total_usd,shape_ratio,ratio_multiplier,preference_driven_ratio,error,low_usd,high_usd,observations,basis\r\n",
    );
    let stone = [
        csv_text(tracked.shape),
        number(tracked.carat),
        csv_text(tracked.color),
        csv_text(tracked.clarity),
    ]
    .join(",");
    for entry in &tracked.entries {
        let (date, ts) = (entry.date.to_string(), csv_text(&entry.ts));
        let rest: Vec<String> = match &entry.price {
            Ok(price) => {
                let fancy = price.fancy.map(|fancy| {
                    let preference = fancy.preference_driven_ratio.to_string();
                    [number(fancy.shape_ratio), number(fancy.ratio_multiplier), preference]
                });
                let evidence = price.evidence.map(|evidence| {
                    let (low, high) =
                        (number(evidence.range.low_usd), number(evidence.range.high_usd));
                    [low, high, evidence.observations.to_string(), evidence.basis.to_owned()]
                });
                // Priced, the error cell is empty.
                [number(price.per_carat_usd), number(price.total_usd)]
                    .into_iter()
                    .chain(fancy.unwrap_or_default())
                    .chain([String::new()])
                    .chain(evidence.unwrap_or_default())
                    .collect()
            }
            Err(error) => {
                let mut cells = vec![String::new(); 10];
                cells[5] = csv_text(error);
                cells
            }
        };
        let _ = write!(out, "{date},{ts},{stone},{}\r\n", rest.join(","));
    }
    out
}

/// A number as JSON writes it (`1.0`, `6962.34`), so that CSV and JSON agree.
fn number(value: f64) -> String {
    serde_json::to_string(&value).unwrap_or_default()
}

/// A CSV field: quoted (with quotes doubled) when it holds a comma, quote or line break.
fn csv_text(text: &str) -> String {
    match text.contains([',', '"', '\r', '\n']) {
        true => format!("\"{}\"", text.replace('"', "\"\"")),
        false => text.to_owned(),
    }
}
