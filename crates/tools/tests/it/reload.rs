//! The answers each thread builds once per snapshot or history (the DCX, the depth
//! overview) follow a reload on the very thread that built them.

use std::sync::Arc;

use chrono::TimeZone;
use datasets::{Live, Source, fs, reference};
use serde_json::Value;
use test_support::TempDir;
use tools::{HeaderView, Mcp, Reply, Transport};

/// The `structuredContent` of `tool` called without arguments (over stdio, no headers).
fn call(mcp: &Mcp, tool: &str) -> Value {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{{}}}}}}"#
    );
    match mcp.answer(Transport::Stdio, &HeaderView::default(), line.as_bytes()) {
        Reply::Message(message) => {
            let answer: Value = serde_json::from_slice(&message.body).unwrap();
            answer["result"]["structuredContent"].clone()
        }
        Reply::Accepted => panic!("{line} is a request"),
    }
}

/// What the built-once answers say of the live data: the DCX's day, value and 7-day
/// trend, and the depth overview's day.
fn seen(mcp: &Mcp) -> [Value; 4] {
    let (index, depth) = (call(mcp, "get_dcx_index"), call(mcp, "get_market_depth"));
    let trend_7d = index["trends_percent"]["7d"].clone();
    [index["as_of"].clone(), index["dcx_usd_per_carat"].clone(), trend_7d, depth["as_of"].clone()]
}

fn publish(history: &std::path::Path, date: &str, level: f64) {
    let files = reference::generate_variant(&format!("{date}T06:00:00Z"), level);
    fs::write_dir_atomic(&history.join(date), &files, false).unwrap();
}

#[test]
fn answers_built_once_per_day_follow_a_reload_on_the_same_thread() {
    let dir = TempDir::new("tools-reload");
    publish(&dir.0, "2026-11-13", 1.0);
    let (live, _) = Live::open(Source::History(dir.0.clone())).unwrap();
    let live = Arc::new(live);
    let now = chrono::Utc.timestamp_millis_opt(1_795_255_200_123).unwrap();
    let clock = Arc::new(move || std::time::SystemTime::from(now));
    let mcp = Mcp::new(Arc::clone(&live), tools::price::Links::default(), clock, "test".into());
    let first = seen(&mcp);
    assert_eq!(first[0], "2026-11-13T06:00:00Z");
    assert_eq!(first[3], "2026-11-13T06:00:00Z");
    assert_eq!(first[2], Value::Null, "one day has no 7-day trend");
    assert_eq!(seen(&mcp), first, "the same day answers the same");

    // A week later, prices 5 % up: a new DCX, its trend and its day, on this thread too.
    publish(&dir.0, "2026-11-20", 1.05);
    live.reload();
    let second = seen(&mcp);
    assert_eq!(second[0], "2026-11-20T06:00:00Z");
    assert_eq!(second[3], "2026-11-20T06:00:00Z");
    assert!(second[1].as_f64().unwrap() > first[1].as_f64().unwrap(), "{second:?}");
    assert!(second[2].as_f64().is_some_and(|trend| trend > 4.0), "{second:?}");
}
