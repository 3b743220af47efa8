//! Tests of `get_dcx_index`.

use std::sync::Arc;

use datasets::{History, Snapshot};
use jsonrpc::{EMPTY_OBJECT, Object};
use serde_json::json;

use crate::index::dcx_index;

#[test]
fn a_single_snapshot_has_no_history_trends() {
    let history = History::single(Snapshot::reference());
    let out = dcx_index(&history, &EMPTY_OBJECT).unwrap();
    let s = &out.structured_value();
    assert_eq!(s["dcx_usd_per_carat"], json!(history.live().index().dcx));
    assert_eq!(s["trends_percent"]["7d"], json!(null));
    assert_eq!(s["trends_percent"]["30d"], json!(null));
    let notes = s["trend_notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n.as_str().unwrap().starts_with("7d: null because")), "{notes:?}");
    assert_eq!(s["basket"].as_array().unwrap().len(), history.live().index().specs.len());
    assert!(out.text().starts_with("DCX: $"), "{}", out.text());
    let _ = Arc::clone(history.live());
}

#[test]
fn arguments_are_refused() {
    let history = History::single(Snapshot::reference());
    let args = Object::from(json!({"carat": 1}).as_object().unwrap().clone());
    let err = dcx_index(&history, &args).unwrap_err();
    assert!(err.to_string().contains("unknown argument \"carat\"; allowed arguments: none"));
}
