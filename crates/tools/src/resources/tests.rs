//! Tests of the resources: the list, reads of each kind, and the not-found errors per era.

use std::sync::Arc;

use datasets::{Feed, History, Snapshot};
use jsonrpc::{Era, ErrorCode};
use serde_json::Value;

use crate::resources::{LIVE_TTL_MS, Read, list, read, templates};

fn history() -> Arc<History> {
    Arc::new(History::single(Snapshot::reference()))
}

/// The contents of a read, as a value.
fn contents(read: &Read) -> Value {
    serde_json::from_str(read.contents.get()).unwrap()
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
        let item = &contents(&read)[0];
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
    assert_eq!(contents(&doc)[0]["mimeType"], "text/markdown");
    assert!(contents(&doc)[0]["text"].as_str().unwrap().starts_with("# Methodology"));
    let date = history.live_date();
    let uri = format!("dcx://history/{date}/index.json");
    let day = read(Era::Modern, &uri, &history).unwrap();
    assert!(!day.live);
    assert_eq!(
        contents(&day)[0]["text"].as_str().unwrap().as_bytes(),
        history.live().files().get(Feed::Index)
    );
}

#[test]
fn unknown_resources_are_not_found_in_each_era() {
    let history = history();
    let missing = |era, uri| read(era, uri, &history).err().unwrap();
    let uri = "test://nonexistent";
    let modern = missing(Era::Modern, uri);
    assert_eq!(modern.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(modern.data.unwrap()["uri"], uri);
    assert!(modern.message.contains("dcx://feeds/"), "{}", modern.message);
    assert_eq!(missing(LEGACY, uri).code, ErrorCode(-32002));
    // Beside the ones written once per process, no view and no document exists.
    for other in ["ui://dcx/other.html", "dcx://docs/other.md"] {
        assert_eq!(missing(Era::Modern, other).data.unwrap()["uri"], other);
    }
    let day = missing(Era::Modern, "dcx://history/1999-01-01/index.json");
    assert!(day.message.contains("no published day \"1999-01-01\""), "{}", day.message);
    assert!(day.message.contains("holds one day"), "{}", day.message);
    let not_a_date = missing(Era::Modern, "dcx://history/yesterday/index.json");
    assert!(not_a_date.message.contains("YYYY-MM-DD"), "{}", not_a_date.message);
    let feed = missing(Era::Modern, "dcx://history/2026-11-20/prices.json");
    assert!(feed.message.contains("unknown feed \"prices.json\""), "{}", feed.message);
    assert!(feed.message.contains("depth.json"), "{}", feed.message);
    assert_eq!(missing(Era::Modern, "dcx://feeds/x.json").code, ErrorCode::INVALID_PARAMS);
}

#[test]
fn the_series_has_one_point_per_day() {
    let read = read(Era::Modern, "dcx://history/dcx.json", &history()).unwrap();
    assert!(read.live);
    let contents = contents(&read);
    let text = contents[0]["text"].as_str().unwrap();
    let series: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(series, serde_json::json!({ "days": [{ "date": "2026-11-20", "dcx": 4016.38 }] }));
}

/// The documents and views are written once per process, the live feeds once per snapshot
/// and the series once per history (per thread): a second read copies the same JSON, the
/// bytes of the contents built afresh; another history's live feed is its own.
#[test]
fn reads_are_written_once_and_copied() {
    let history = history();
    // Every listed resource: the live feeds, the documents, the series and the views.
    for resource in list().as_array().unwrap() {
        let uri = resource["uri"].as_str().unwrap();
        let (first, second) =
            (read(Era::Modern, uri, &history).unwrap(), read(LEGACY, uri, &history).unwrap());
        assert!(Arc::ptr_eq(&first.contents, &second.contents), "{uri} was written twice");
    }
    for view in &crate::apps::VIEWS {
        let kept = read(Era::Modern, view.uri, &history).unwrap();
        assert_eq!(kept.contents.get(), crate::apps::contents(view).to_string());
    }
    let feed = "dcx://feeds/index.json";
    let kept = read(Era::Modern, feed, &history).unwrap();
    let fresh = serde_json::json!([{
        "uri": feed,
        "mimeType": "application/json",
        "text": std::str::from_utf8(history.live().files().get(Feed::Index)).unwrap(),
    }]);
    assert_eq!(kept.contents.get(), fresh.to_string());
    let other = self::history();
    let again = read(Era::Modern, feed, &other).unwrap();
    assert!(!Arc::ptr_eq(&kept.contents, &again.contents), "another snapshot's feed was reused");
    assert_eq!(kept.contents.get(), again.contents.get());
}
