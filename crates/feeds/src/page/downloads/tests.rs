//! Unit tests of the downloads: one CSV row per day or cell, numbers as in the feeds.

use datasets::{History, Snapshot};
use pricing::{QuoteRequest, Shape};

use super::*;
use crate::stone::OVAL;

#[test]
fn history_has_one_row_per_day() {
    let history = History::single(Snapshot::reference());
    let csv = history_csv(&history);
    assert_eq!(csv, "date,dcx,trend_24h,trend_7d,trend_30d\r\n2026-11-20,4016.38,0,,\r\n");
    let json: Value = serde_json::from_str(&history_json(&history)).unwrap();
    assert_eq!(json["days"][0]["dcx"], 4016.38);
    assert_eq!(json["days"][0]["trend_7d"], Value::Null);
    assert_eq!(json["live_date"], "2026-11-20");
}

#[test]
fn the_matrix_has_every_cell_in_dollars() {
    let snapshot = Snapshot::reference();
    let round = snapshot.pricing().round();
    let csv = matrix_csv(round);
    let rows: Vec<&str> = csv.trim_end().split("\r\n").collect();
    assert_eq!(rows.len(), 1 + round.bands().len() * 80);
    let band = round.bands().iter().position(|b| *b == 1.0).unwrap();
    let usd = round_cents_text(round.ln_at_band(band, pricing::Color::G, pricing::Clarity::Vs2));
    assert!(rows.contains(&format!("1.0,G,VS2,{usd}").as_str()), "{usd}");
}

fn round_cents_text(ln: f64) -> String {
    format!("{:.2}", pricing::round_cents(ln.exp()))
}

#[test]
fn track_rows_quote_text_with_commas() {
    let history = History::single(Snapshot::reference());
    let request = QuoteRequest { carat: 1.0, ratio: Some(3.0), ..OVAL };
    let csv = track_csv(&crate::tracked::track(&history, &request, chrono::NaiveDate::MIN));
    let rows: Vec<&str> = csv.trim_end().split("\r\n").collect();
    assert_eq!(rows.len(), 2);
    assert!(
        rows[1].starts_with("2026-11-20,2026-11-20T00:00:00Z,oval,1.0,G,VS2,,,,,,"),
        "{}",
        rows[1]
    );
    assert!(rows[1].ends_with("got 3\",,,,"), "{}", rows[1]);
    assert_eq!(csv_text("a,\"b\""), "\"a,\"\"b\"\"\"");
}

#[test]
fn track_rows_end_with_the_range_and_its_evidence() {
    let request = QuoteRequest { carat: 1.0, shape: Shape::Round, ratio: None, ..OVAL };
    let header = "date,ts,shape,carat,color,clarity,per_carat_usd,total_usd,shape_ratio,\
                  ratio_multiplier,preference_driven_ratio,error,low_usd,high_usd,observations,basis";
    let snapshot = Snapshot::reference();
    let quote = snapshot.quote(&request).unwrap();
    let evidence = snapshot.evidence(&quote).unwrap();
    let history = History::single(snapshot);
    let tracked = crate::tracked::track(&history, &request, chrono::NaiveDate::MIN);
    let csv = track_csv(&tracked);
    let rows: Vec<&str> = csv.trim_end().split("\r\n").collect();
    assert_eq!(rows[0], header);
    let cells: Vec<&str> = rows[1].split(',').collect();
    assert_eq!(cells.len(), 16, "{}", rows[1]);
    let (low, high) = (evidence.range.low_usd, evidence.range.high_usd);
    let (low, high) = (pricing::round_cents(low), pricing::round_cents(high));
    assert_eq!(
        cells[12..],
        [
            number(low),
            number(high),
            evidence.observations.to_string(),
            evidence.basis.as_str().to_owned()
        ]
    );
    assert_eq!(cells[11], "");

    // A day without matrix_stats.json: the four cells are there, empty.
    let bare = Snapshot::parse(datasets::reference::embedded()).unwrap();
    let tracked = crate::tracked::track(&History::single(bare), &request, chrono::NaiveDate::MIN);
    let csv = track_csv(&tracked);
    let row = csv.trim_end().split("\r\n").nth(1).unwrap();
    assert!(row.ends_with(",,,,,") && row.split(',').count() == 16, "{row}");
}
