//! Smoke tests of the `tool-server` process: port 0, reloads by polling a history folder
//! and by SIGHUP (the feed server's rules), SIGTERM drain. Loopback only.

use test_support::{TempDir, http::get_blocking, process::Server, write_day};

const PROGRAM: &str = env!("CARGO_BIN_EXE_tool-server");

/// The flags that listen on a free loopback port.
const LISTEN: [&str; 2] = ["--listen", "127.0.0.1:0"];

/// The tool server on a free loopback port, with `args`.
fn start(args: &[&str]) -> Server {
    Server::start(PROGRAM, &[&LISTEN[..], args].concat())
}

/// A tool server over a fresh history folder holding the day 2026-11-20 (with its
/// `observed.json`), polled every `poll_secs`: the folder, the process and its address.
fn serve_history(name: &str, poll_secs: &str) -> (TempDir, Server, String) {
    let dir = TempDir::new(name);
    write_day(&dir.0, "2026-11-20", |_, text| text);
    // As `dcx build` writes it, the day's observed cells beside the feeds (ignored).
    let observed = r#"{"date":"2026-11-20","round":[],"cushion":[]}"#;
    std::fs::write(dir.0.join("2026-11-20/observed.json"), observed).unwrap();
    let server = start(&["--history", dir.0.to_str().unwrap(), "--poll-secs", poll_secs]);
    let addr = server.listening_addr();
    (dir, server, addr)
}

fn live_ts(addr: &str) -> String {
    let health = get_blocking(addr, "/health");
    assert_eq!(health.status, 200, "{health:?}");
    health.json()["snapshot"]["ts"].as_str().expect("health names the live ts").to_owned()
}

/// The `tools/call` of `tool` with `arguments` (JSON), sent as a 2026-07-28 client sends it,
/// and its answer.
fn call(addr: &str, tool: &str, arguments: &str) -> test_support::http::Reply {
    use test_support::http::{MODERN_META, exchange_blocking, mcp_post};
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},"_meta":{MODERN_META}}}}}"#
    );
    exchange_blocking(addr.parse().unwrap(), mcp_post("t", &[], &body).as_bytes())
}

/// The days the argument-less tools answer for, each asked four times (which worker
/// answers is the scheduler's choice: `tools`' `reload` test holds one thread to a reload).
fn tools_as_of(addr: &str) -> Vec<String> {
    let mut days = Vec::new();
    for _ in 0..4 {
        for tool in ["get_dcx_index", "get_market_depth"] {
            let answer = call(addr, tool, "{}").json();
            let as_of = &answer["result"]["structuredContent"]["as_of"];
            days.push(as_of.as_str().unwrap_or_else(|| panic!("{answer}")).to_owned());
        }
    }
    days.dedup();
    days
}

#[test]
fn a_new_history_day_is_picked_up_by_polling_and_sigterm_drains() {
    let (dir, server, addr) = serve_history("poll", "1");
    assert_eq!(live_ts(&addr), "2026-11-20T00:00:00Z");
    assert_eq!(tools_as_of(&addr), ["2026-11-20T00:00:00Z"]);

    // No signal: the poll finds the new day, and the answers built once per day follow.
    write_day(&dir.0, "2026-11-21", |_, text| text);
    server.line("reload accepted: now serving snapshot 2026-11-21T00:00:00Z (2 days)");
    assert_eq!(live_ts(&addr), "2026-11-21T00:00:00Z");
    assert_eq!(tools_as_of(&addr), ["2026-11-21T00:00:00Z"]);

    server.stop_gracefully();
}

#[test]
fn with_polling_off_sighup_still_reloads() {
    let (dir, server, addr) = serve_history("hup", "0");
    write_day(&dir.0, "2026-11-21", |_, text| text);
    server.signal("HUP");
    server.line("reload accepted: now serving snapshot 2026-11-21T00:00:00Z");
    assert_eq!(live_ts(&addr), "2026-11-21T00:00:00Z");
}

/// `--metrics-listen`: tool calls are counted by tool and outcome, and the MCP endpoint's
/// requests under the route `/`.
#[test]
fn metrics_count_tool_calls_by_tool_and_outcome() {
    let server = start(&["--metrics-listen", "127.0.0.1:0"]);
    let metrics = server.metrics_addr();
    let addr = server.listening_addr();
    let ok = call(&addr, "get_diamond_price", r#"{"carat":1.0,"color":"G","clarity":"VS2"}"#);
    assert!(ok.text().contains(r#""isError":false"#), "{}", ok.text());
    let refused = call(&addr, "get_diamond_price", r#"{"carat":99,"color":"G","clarity":"VS2"}"#);
    assert!(refused.text().contains(r#""isError":true"#), "{}", refused.text());

    let text = get_blocking(&metrics, "/metrics").text().to_owned();
    for line in [
        r#"dcx_tool_calls_total{tool="get_diamond_price",outcome="ok"} 1"#,
        r#"dcx_tool_calls_total{tool="get_diamond_price",outcome="invalid_arguments"} 1"#,
        r#"dcx_tool_calls_total{tool="get_dcx_index",outcome="ok"} 0"#,
        r#"dcx_http_requests_total{server="tools",route="/",status="200"} 2"#,
    ] {
        assert!(text.lines().any(|sample| sample == line), "no {line} in:\n{text}");
    }
    server.stop_gracefully();
}

/// A SIGHUP while the history loads does not end the server: it starts, serves and
/// stops as usual.
#[test]
fn a_sighup_while_the_data_loads_is_not_fatal() {
    let health = Server::hang_up_while_loading(PROGRAM, &LISTEN, Server::listening_addr);
    assert_eq!(health.json()["snapshot"]["history_days"], 120);
}

/// A log reader that exits stops no server: with the access log on and stderr's reading
/// end closed, every write to stderr fails, and the tool server still answers, then exits
/// cleanly on SIGTERM.
#[test]
fn a_closed_stderr_stops_no_request() {
    let args = [&LISTEN[..], &["--access-log"]].concat();
    let server = Server::start_stalling(PROGRAM, &args, "listening on http://");
    let addr = server.listening_addr();
    server.close_stderr();
    for _ in 0..200 {
        let reply =
            call(&addr, "get_diamond_price", r#"{"carat":1.5,"color":"G","clarity":"VS2"}"#);
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.json()["result"]["isError"], false, "{}", reply.text());
    }
    let (_, clean) = server.terminate_timed();
    assert!(clean, "the exit after SIGTERM was not clean");
}
