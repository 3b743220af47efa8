//! The answers each thread builds once per snapshot or history (the DCX, the depth
//! overview, the live feeds and the series read as resources) follow a reload on the
//! very thread that built them.

use std::sync::Arc;

use chrono::TimeZone;
use datasets::{Live, Source};
use serde_json::{Value, json};
use test_support::{TempDir, write_day};
use tools::{HeaderView, Mcp, Reply, Transport};

/// The `result` of the JSON-RPC request `line`, answered over stdio (no headers).
fn result(mcp: &Mcp, line: &str) -> Value {
    match mcp.answer(Transport::Stdio, &HeaderView::default(), line.as_bytes()) {
        Reply::Message(message) => {
            serde_json::from_slice::<Value>(&message.body).unwrap()["result"].clone()
        }
        Reply::Accepted => panic!("{line} is a request"),
    }
}

/// The `structuredContent` of `tool` called without arguments.
fn call(mcp: &Mcp, tool: &str) -> Value {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{{}}}}}}"#
    );
    result(mcp, &line)["structuredContent"].clone()
}

/// The JSON text of resource `uri`.
fn read(mcp: &Mcp, uri: &str) -> Value {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":"{uri}"}}}}"#
    );
    serde_json::from_str(result(mcp, &line)["contents"][0]["text"].as_str().unwrap()).unwrap()
}

/// What the built-once answers say of the live data: the DCX's day and 7-day trend, the
/// depth overview's day, the day of the index feed read as a resource, and the days of
/// the series.
fn seen(mcp: &Mcp) -> [Value; 5] {
    let (index, depth) = (call(mcp, "get_dcx_index"), call(mcp, "get_market_depth"));
    let feed = read(mcp, "dcx://feeds/index.json");
    let series = read(mcp, "dcx://history/dcx.json");
    let days = json!(series["days"].as_array().unwrap().len());
    let ts = feed["ts"].clone();
    [
        index["as_of"].clone(),
        index["trends_percent"]["7d"].clone(),
        depth["as_of"].clone(),
        ts,
        days,
    ]
}

#[test]
fn answers_built_once_per_day_follow_a_reload_on_the_same_thread() {
    let dir = TempDir::new("tools-reload");
    write_day(&dir.0, "2026-11-13", |_, text| text);
    let (live, _) = Live::open(Source::History(dir.0.clone())).unwrap();
    let live = Arc::new(live);
    let now = chrono::Utc.timestamp_millis_opt(1_795_255_200_123).unwrap();
    let clock = Arc::new(move || std::time::SystemTime::from(now));
    let mcp = Mcp::new(Arc::clone(&live), tools::price::Links::default(), clock, "test".into());
    let first = seen(&mcp);
    let day = json!("2026-11-13T00:00:00Z");
    let one = json!(1);
    assert_eq!(first, [day.clone(), Value::Null, day.clone(), day, one], "one day, no 7-day trend");
    assert_eq!(seen(&mcp), first, "the same day answers the same");

    // A week later, the same prices: a new day and a 7-day trend, on this thread too.
    write_day(&dir.0, "2026-11-20", |_, text| text);
    live.reload();
    let day = json!("2026-11-20T00:00:00Z");
    assert_eq!(seen(&mcp), [day.clone(), json!(0.0), day.clone(), day, json!(2)]);
}
