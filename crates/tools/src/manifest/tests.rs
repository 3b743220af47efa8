//! Unit tests of the GET documents: `/health` says where the data comes from; the manifest
//! lists what discover lists.

use datasets::{History, Live, Snapshot, Source};

use super::*;

#[test]
fn health_names_the_source_and_flags_sample_data() {
    let (live, _) = Live::open(Source::Embedded).unwrap();
    let body = health(&live);
    assert_eq!(body["source"], "embedded");
    assert_eq!(body["sample_data"], true);
    assert_eq!(body["snapshot"]["ts"], "2026-11-20T00:00:00Z");
    let variant = datasets::reference::generate_variant("2026-11-21T00:00:00Z", 1.01);
    let live = Live::fixed(History::single(Snapshot::parse(variant).unwrap()));
    assert_eq!(health(&live)["sample_data"], false);
}

#[test]
fn health_is_degraded_while_newer_data_is_refused() {
    let (live, _) = Live::open(Source::Embedded).unwrap();
    let ok = health(&live);
    assert_eq!(ok["status"], "ok");
    assert_eq!(ok.get("refused"), None);
    let refusal = datasets::Refusal {
        day: Some("2026-11-21".parse().unwrap()),
        reason: "matrix.json: unexpected end of input".to_owned(),
    };
    let mut degraded = ok.clone();
    mark_degraded(&mut degraded, Some(&refusal), &Source::Embedded);
    assert_eq!(degraded["status"], "degraded");
    assert_eq!(degraded["refused"]["day"], "2026-11-21");
    assert_eq!(degraded["refused"]["reason"], "matrix.json: unexpected end of input");
    assert_eq!(degraded["snapshot"], ok["snapshot"]);
    let whole = datasets::Refusal { day: None, reason: "no valid day".to_owned() };
    mark_degraded(&mut degraded, Some(&whole), &Source::Embedded);
    assert_eq!(degraded["refused"]["day"], serde_json::Value::Null);
}

#[test]
fn health_names_no_folder_of_the_server() {
    let source = Source::History("/srv/dcx/history".into());
    let refusal = datasets::Refusal {
        day: None,
        reason: "no valid snapshot in /srv/dcx/history: /srv/dcx/history/2026-11-21/matrix.json: \
                 permission denied"
            .to_owned(),
    };
    let mut degraded = json!({});
    mark_degraded(&mut degraded, Some(&refusal), &source);
    assert_eq!(
        degraded["refused"]["reason"],
        "no valid snapshot in the history folder: 2026-11-21/matrix.json: permission denied"
    );
}

#[test]
fn the_manifest_lists_the_capabilities_as_discover_does() {
    let live = std::sync::Arc::new(datasets::Snapshot::reference());
    let card = manifest("http://127.0.0.1:8081/", "http://127.0.0.1:8081/docs", &live);
    assert_eq!(card["capabilities"], crate::mcp::dispatch::capabilities());
    for capability in ["tools", "resources", "prompts", "completions"] {
        assert!(card["capabilities"][capability].is_object(), "{capability}");
    }
    assert_eq!(card["resources"].as_array().unwrap().len(), 10);
    assert_eq!(card["resourceTemplates"][0]["uriTemplate"], "dcx://history/{date}/{feed}");
    assert_eq!(card["prompts"][1]["name"], "fair_asking_price");
}

/// The card's name is the one the registry entry (`server.json`) publishes.
#[test]
fn the_card_name_is_the_registry_entrys() {
    let path = test_support::workspace_root().join("server.json");
    let entry: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(entry["name"], CARD_NAME);
}
