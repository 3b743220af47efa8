//! Tests of the resources: the list, reads of each kind, and the not-found errors per era.

use datasets::{Feed, History, Snapshot};
use jsonrpc::{Era, ErrorCode};

use crate::resources::{LIVE_TTL_MS, list, read, templates};

fn history() -> History {
    History::single(Snapshot::reference())
}

const LEGACY: Era = Era::Legacy("2025-11-25");

#[test]
fn the_list_names_five_feeds_two_documents_the_series_and_two_views() {
    let list = list();
    let uris: Vec<&str> =
        list.as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(
        uris,
        [
            "dcx://feeds/matrix.json",
            "dcx://feeds/matrix_cushion.json",
            "dcx://feeds/ratio_models.json",
            "dcx://feeds/index.json",
            "dcx://feeds/depth.json",
            "dcx://docs/methodology.md",
            "dcx://docs/api.md",
            "dcx://history/dcx.json",
            "ui://dcx/chart.html",
            "ui://dcx/calculator.html",
        ]
    );
    for resource in list.as_array().unwrap() {
        assert!(resource["name"].is_string() && resource["description"].is_string());
        assert!(
            resource["mimeType"] == "application/json"
                || resource["mimeType"] == "text/markdown"
                || resource["mimeType"] == "text/html;profile=mcp-app"
        );
    }
    assert_eq!(templates()[0]["uriTemplate"], "dcx://history/{date}/{feed}");
}

#[test]
fn feeds_are_read_byte_for_byte_from_the_live_snapshot() {
    let history = history();
    for feed in Feed::ALL {
        let uri = format!("dcx://feeds/{}", feed.file_name());
        let read = read(Era::Modern, &uri, &history).unwrap();
        assert!(read.live);
        let item = &read.contents[0];
        assert_eq!(item["uri"], uri.as_str());
        assert_eq!(item["mimeType"], "application/json");
        assert_eq!(item["text"].as_str().unwrap().as_bytes(), history.live().files().get(feed));
    }
    const { assert!(LIVE_TTL_MS < crate::mcp::dispatch::TTL_MS) };
}

#[test]
fn documents_and_history_days_are_read() {
    let history = history();
    let doc = read(LEGACY, "dcx://docs/methodology.md", &history).unwrap();
    assert!(!doc.live);
    assert_eq!(doc.contents[0]["mimeType"], "text/markdown");
    assert!(doc.contents[0]["text"].as_str().unwrap().starts_with("# Methodology"));
    let date = history.live_date();
    let uri = format!("dcx://history/{date}/index.json");
    let day = read(Era::Modern, &uri, &history).unwrap();
    assert!(!day.live);
    assert_eq!(
        day.contents[0]["text"].as_str().unwrap().as_bytes(),
        history.live().files().get(Feed::Index)
    );
}

#[test]
fn unknown_resources_are_not_found_in_each_era() {
    let history = history();
    let uri = "test://nonexistent";
    let modern = read(Era::Modern, uri, &history).err().unwrap();
    assert_eq!(modern.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(modern.data.unwrap()["uri"], uri);
    assert!(modern.message.contains("dcx://feeds/"), "{}", modern.message);
    let legacy = read(LEGACY, uri, &history).err().unwrap();
    assert_eq!(legacy.code, ErrorCode(-32002));
    let day = read(Era::Modern, "dcx://history/1999-01-01/index.json", &history).err().unwrap();
    assert!(day.message.contains("no published day \"1999-01-01\""), "{}", day.message);
    assert!(day.message.contains("holds one day"), "{}", day.message);
    let not_a_date =
        read(Era::Modern, "dcx://history/yesterday/index.json", &history).err().unwrap();
    assert!(not_a_date.message.contains("YYYY-MM-DD"), "{}", not_a_date.message);
    let feed = read(Era::Modern, "dcx://history/2026-11-20/prices.json", &history).err().unwrap();
    assert!(feed.message.contains("unknown feed \"prices.json\""), "{}", feed.message);
    assert!(feed.message.contains("depth.json"), "{}", feed.message);
    assert_eq!(
        read(Era::Modern, "dcx://feeds/x.json", &history).err().unwrap().code,
        ErrorCode::INVALID_PARAMS
    );
}

#[test]
fn the_series_has_one_point_per_day() {
    let read = read(Era::Modern, "dcx://history/dcx.json", &history()).unwrap();
    assert!(read.live);
    let text = read.contents[0]["text"].as_str().unwrap();
    let series: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(series, serde_json::json!({ "days": [{ "date": "2026-11-20", "dcx": 4016.38 }] }));
}
