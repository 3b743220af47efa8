//! Unit tests for `crate::home_page`: both forms list every feed.

use std::sync::Arc;

use datasets::{Feed, History, Snapshot};

use crate::{Route, served::Served};

#[test]
fn json_and_html_list_every_feed() {
    let served =
        Served::new(Arc::new(History::single(Snapshot::reference())), "feed-server", "9.9.9");
    let json: serde_json::Value = serde_json::from_slice(served.home_json.identity()).unwrap();
    assert_eq!(json["server"]["version"], "9.9.9");
    assert_eq!(json["ts"], "2026-11-20T00:00:00Z");
    assert_eq!(json["history_days"], serde_json::json!(["2026-11-20"]));
    let html = std::str::from_utf8(served.pages.home.identity()).unwrap();
    for (i, feed) in Feed::ALL.into_iter().enumerate() {
        let path = Route::Feed(feed).path();
        assert_eq!(json["feeds"][i]["path"], path);
        assert_eq!(json["feeds"][i]["etag"], served.feed(feed).etag());
        assert!(html.contains(&format!("<a href=\"{path}\">")), "{path}");
    }
    assert!(html.starts_with("<!DOCTYPE html>"));
}
