//! Unit tests of the metrics: events counted into the right series, every family written
//! once, the live data read at scrape time.

use std::{
    net::SocketAddr,
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use serve::{Cap, Event};

use crate::Metrics;

/// The reference snapshot's ts, 2026-11-20T00:00:00Z, in unix seconds.
const REFERENCE_TS: u64 = 1_795_132_800;

fn metrics(now: SystemTime) -> Metrics {
    let history = datasets::History::single(datasets::Snapshot::reference());
    let live = Arc::new(datasets::Live::fixed(history));
    Metrics::new("9.9.9", live, Arc::new(move || now))
}

fn at_reference_plus(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(REFERENCE_TS + secs)
}

fn answered(route: Option<usize>, status: u16, micros: u64) -> Event<'static> {
    Event::Answered { route, status, elapsed: Duration::from_micros(micros) }
}

/// The value of the sample line that starts with `series` (name and labels), if any.
fn sample(text: &str, series: &str) -> Option<String> {
    let prefix = format!("{series} ");
    text.lines().find_map(|line| line.strip_prefix(&prefix)).map(str::to_owned)
}

#[test]
fn answers_are_counted_by_route_and_status_with_their_latency() {
    let metrics = metrics(at_reference_plus(0));
    let feeds = metrics.server("feeds", &["/matrix.json", "/health"]);
    feeds.record(&answered(Some(0), 200, 40));
    feeds.record(&answered(Some(0), 200, 50));
    feeds.record(&answered(Some(0), 304, 2_000));
    feeds.record(&answered(None, 404, 10));
    // An index past the service's routes is `other` too, never a new label.
    feeds.record(&answered(Some(7), 404, 10));
    let text = metrics.render().unwrap();
    let requests = |route: &str, status: u16| {
        let series = format!(
            "dcx_http_requests_total{{server=\"feeds\",route=\"{route}\",status=\"{status}\"}}"
        );
        sample(&text, &series)
    };
    assert_eq!(requests("/matrix.json", 200).as_deref(), Some("2"), "{text}");
    assert_eq!(requests("/matrix.json", 304).as_deref(), Some("1"));
    assert_eq!(requests("other", 404).as_deref(), Some("2"));
    assert_eq!(requests("/health", 200), None, "no answer, no series");

    let histogram = |suffix: &str, le: Option<&str>| {
        // The encoder writes `le` before the family's labels.
        let le = le.map_or(String::new(), |le| format!("le=\"{le}\","));
        let labels = format!("{le}server=\"feeds\",route=\"/matrix.json\"");
        sample(&text, &format!("dcx_http_request_duration_seconds_{suffix}{{{labels}}}"))
    };
    assert_eq!(histogram("count", None).as_deref(), Some("3"));
    // 50 µs falls in the 50 µs bucket (bounds are inclusive); 2 ms in the 2.5 ms one.
    assert_eq!(histogram("bucket", Some("0.00005")).as_deref(), Some("2"), "{text}");
    assert_eq!(histogram("bucket", Some("0.001")).as_deref(), Some("2"));
    assert_eq!(histogram("bucket", Some("0.0025")).as_deref(), Some("3"));
    assert_eq!(histogram("bucket", Some("+Inf")).as_deref(), Some("3"));
    let sum: f64 = histogram("sum", None).unwrap().parse().unwrap();
    assert!((sum - 0.00209).abs() < 1e-9, "{sum}");
}

#[test]
fn connections_refusals_and_rate_limits_are_counted() {
    let metrics = metrics(at_reference_plus(0));
    let tools = metrics.server("tools", &["/"]);
    let peer: SocketAddr = ([127, 0, 0, 1], 9).into();
    for event in [Event::Opened, Event::Opened, Event::Closed, Event::Opened] {
        tools.record(&event);
    }
    tools.record(&Event::Refused { peer, cap: Cap::Total, reason: "every connection busy" });
    tools.record(&Event::RateLimited { client: peer.ip() });
    tools.record(&Event::RateLimited { client: peer.ip() });
    tools.record(&Event::Drained);
    let text = metrics.render().unwrap();
    let value = |series: &str| sample(&text, series).unwrap_or_else(|| panic!("{series}: {text}"));
    assert_eq!(value("dcx_http_connections_open{server=\"tools\"}"), "2");
    assert_eq!(value("dcx_http_connections_refused_total{server=\"tools\",cap=\"total\"}"), "1");
    assert_eq!(
        value("dcx_http_connections_refused_total{server=\"tools\",cap=\"per_address\"}"),
        "0"
    );
    assert_eq!(value("dcx_http_rate_limited_total{server=\"tools\"}"), "2");
}

#[test]
fn two_servers_share_each_family() {
    let metrics = metrics(at_reference_plus(0));
    let feeds = metrics.server("feeds", &["/health"]);
    let tools = metrics.server("tools", &["/health"]);
    feeds.record(&answered(Some(0), 200, 5));
    tools.record(&answered(Some(0), 200, 5));
    let text = metrics.render().unwrap();
    for family in [
        "dcx_http_requests",
        "dcx_http_request_duration_seconds",
        "dcx_http_connections_open",
        "dcx_snapshot",
    ] {
        let declared = text.lines().filter(|line| line.starts_with(&format!("# TYPE {family} ")));
        assert_eq!(declared.count(), 1, "{family}: {text}");
    }
    assert!(text.contains("dcx_http_requests_total{server=\"tools\",route=\"/health\""), "{text}");
    assert!(text.contains("dcx_http_requests_total{server=\"feeds\",route=\"/health\""), "{text}");
    assert!(text.ends_with("# EOF\n"), "{text}");
}

#[test]
fn reloads_and_tool_calls_are_counted_from_zero() {
    let metrics = metrics(at_reference_plus(0));
    let before = metrics.render().unwrap();
    assert_eq!(sample(&before, "dcx_reloads_total{outcome=\"refused\"}").as_deref(), Some("0"));
    let series = "dcx_tool_calls_total{tool=\"get_diamond_price\",outcome=\"ok\"}";
    assert_eq!(sample(&before, series).as_deref(), Some("0"), "{before}");

    let refused = datasets::Reload::Refused { serving: "x".into(), reason: "bad".into() };
    metrics.reload(&refused);
    metrics.reload(&refused);
    metrics.reload(&datasets::Reload::Kept { serving: "x".into(), skipped: Vec::new() });
    // A rollback makes another history live: an accepted reload.
    metrics.reload(&datasets::Reload::RolledBack {
        serving: "x".into(),
        days: 1,
        removed: Vec::new(),
        skipped: Vec::new(),
    });
    let metrics = Arc::new(metrics);
    let hook = metrics.tool_call_hook();
    let called = |tool, outcome| tools::ToolCalled { tool, outcome };
    hook(&called(Some(tools::Tool::Price), tools::CallOutcome::Ok));
    hook(&called(Some(tools::Tool::Price), tools::CallOutcome::Ok));
    hook(&called(None, tools::CallOutcome::Rejected));
    let text = metrics.render().unwrap();
    assert_eq!(sample(&text, "dcx_reloads_total{outcome=\"refused\"}").as_deref(), Some("2"));
    assert_eq!(sample(&text, "dcx_reloads_total{outcome=\"kept\"}").as_deref(), Some("1"));
    assert_eq!(sample(&text, "dcx_reloads_total{outcome=\"accepted\"}").as_deref(), Some("1"));
    assert_eq!(sample(&text, series).as_deref(), Some("2"));
    let unknown = "dcx_tool_calls_total{tool=\"unknown\",outcome=\"rejected\"}";
    assert_eq!(sample(&text, unknown).as_deref(), Some("1"));
}

#[test]
fn the_live_snapshot_and_the_build_are_read_at_scrape_time() {
    let text = metrics(at_reference_plus(3 * 3600 + 30)).render().unwrap();
    let value = |series: &str| sample(&text, series).unwrap_or_else(|| panic!("{series}: {text}"));
    assert_eq!(value("dcx_build_info{version=\"9.9.9\"}"), "1");
    assert_eq!(value("dcx_snapshot_info{day=\"2026-11-20\",source=\"embedded\"}"), "1");
    assert_eq!(value("dcx_snapshot_timestamp_seconds"), REFERENCE_TS.to_string());
    assert_eq!(value("dcx_snapshot_age_seconds").parse::<f64>(), Ok(10_830.0));
    assert_eq!(value("dcx_snapshot_history_days"), "1");
    assert_eq!(value("dcx_snapshot_refused"), "0");
    assert_eq!(value("dcx_log_lines_dropped_total"), "0");
}
