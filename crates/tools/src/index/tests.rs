//! Tests of `get_dcx_index`.

use std::sync::Arc;

use datasets::{History, Snapshot};
use jsonrpc::{EMPTY_OBJECT, Object};
use serde_json::json;

use crate::{index::dcx_index, price::Answered};

#[test]
fn a_single_snapshot_has_no_history_trends() {
    let history = Arc::new(History::single(Snapshot::reference()));
    let out = dcx_index(&history, &EMPTY_OBJECT).unwrap();
    let s = &out.structured_value();
    assert_eq!(s["dcx_usd_per_carat"], json!(history.live().index().dcx));
    assert_eq!(s["trends_percent"]["7d"], json!(null));
    assert_eq!(s["trends_percent"]["30d"], json!(null));
    let notes = s["trend_notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n.as_str().unwrap().starts_with("7d: null because")), "{notes:?}");
    assert_eq!(s["basket"].as_array().unwrap().len(), history.live().index().specs.len());
    assert!(out.text().starts_with("DCX: $"), "{}", out.text());
}

#[test]
fn arguments_are_refused() {
    let history = Arc::new(History::single(Snapshot::reference()));
    let args = Object::from(json!({"carat": 1}).as_object().unwrap().clone());
    let err = dcx_index(&history, &args).unwrap_err();
    assert!(err.to_string().contains("unknown argument \"carat\"; allowed arguments: none"));
}

/// The text and the JSON are the bytes `format!` and serde_json write: trends of each
/// sign, zero and minus zero, published and absent, a whole and a long number, and a cut
/// with characters to escape.
#[test]
fn text_and_json_are_the_bytes_of_format_and_serde_json() {
    use serde_json::Value;

    use crate::{
        index::{structured, text},
        price::Output,
    };

    let snapshot = Snapshot::reference();
    let mut index = snapshot.index().clone();
    index.specs[0].cut = "Very \"Good\" \\ \u{e9}\ttab".to_owned();
    index.specs[1].carat = 1.0;
    index.specs[1].weight = 0.125;
    index.specs[2].per_carat = 1_234_567.891;
    let notes = ["24h: as published".to_owned(), "7d: null because \"none\"".to_owned()];
    let cases = [
        (0.0, None, None),
        (-0.0, Some(-0.0), Some(2.5)),
        (-1.25, Some(3.0), Some(-12.34)),
        (1e-7, Some(123_456_789.0), None),
        (0.1 + 0.2, None, Some(1e21)),
    ];
    for (trend, trend_7d, trend_30d) in cases {
        index.trend = trend;
        let out = Output::written(
            text(&snapshot, &index, trend_7d, trend_30d, &notes),
            structured(&snapshot, &index, trend_7d, trend_30d, &notes),
        );
        let percent = |v: Option<f64>| v.map_or("n/a".to_owned(), |p| format!("{p:+}%"));
        let mut lines = vec![
            format!("DCX: {}/ct", words::usd(index.dcx)),
            format!(
                "Trends: 24h {:+}%, 7d {}, 30d {}",
                index.trend,
                percent(trend_7d),
                percent(trend_30d)
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
        assert_eq!(out.text(), lines.join("\n"), "trend {trend}");
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
        let expected = json!({
            "dcx_usd_per_carat": pricing::round_cents(index.dcx),
            "trends_percent": { "24h": index.trend, "7d": trend_7d, "30d": trend_30d },
            "trend_notes": notes,
            "basket": basket,
            "as_of": snapshot.ts_text(),
        });
        let json = String::from_utf8(out.structured.clone()).unwrap();
        assert_eq!(json, serde_json::to_string(&expected).unwrap(), "trend {trend}");
    }
}

/// Whatever a thread keeps, a history gets the bytes a fresh build for it writes, in any
/// order of two histories, and arguments are still refused (that it is built only once
/// is `memo`'s test).
#[test]
fn a_kept_answer_is_always_the_one_of_its_history() {
    let files = datasets::reference::generate_variant("2026-11-21T00:00:00Z", 1.1);
    let histories = [
        Arc::new(History::single(Snapshot::reference())),
        Arc::new(History::single(Snapshot::parse(files).unwrap())),
    ];
    let fresh = histories.each_ref().map(|history| crate::index::build(history));
    assert_ne!(fresh[0], fresh[1], "the two days need different answers");
    for _ in 0..2 {
        for (history, fresh) in histories.iter().zip(&fresh) {
            let first = dcx_index(history, &EMPTY_OBJECT).unwrap();
            assert_eq!(&*first, fresh);
            let again = dcx_index(history, &EMPTY_OBJECT).unwrap();
            let (Answered::Kept(first), Answered::Kept(again)) = (first, again) else {
                panic!("the answer is kept")
            };
            assert!(Arc::ptr_eq(&first, &again), "shared, not copied");
            let args = Object::from(json!({"carat": 1}).as_object().unwrap().clone());
            assert!(dcx_index(history, &args).is_err(), "an argument is refused however kept");
        }
    }
}
