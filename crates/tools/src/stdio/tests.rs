//! Tests of the stdio loop over in-memory pipes.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{LineEvent, MAX_LINE_BYTES, serve_stdio};
use crate::{Mcp, price::Links};

fn mcp() -> Mcp {
    let history = datasets::History::single(datasets::Snapshot::reference());
    let clock = Arc::new(|| std::time::SystemTime::UNIX_EPOCH);
    Mcp::new(Arc::new(datasets::Live::fixed(history)), Links::default(), clock, "stdio".into())
}

/// Runs the loop over `input`; the output lines as JSON, and the events.
fn run(input: &[u8]) -> (Vec<Value>, Vec<LineEvent>) {
    let mut output = Vec::new();
    let mut events = Vec::new();
    serve_stdio(&mcp(), input, &mut output, |event| events.push(event)).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "{text:?}");
    let lines = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    (lines, events)
}

#[test]
fn a_legacy_session_is_answered_line_by_line() {
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\r\n\n   \n",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#,
    );
    let (lines, events) = run(input.as_bytes());
    assert_eq!(
        events,
        [LineEvent::Answered, LineEvent::Accepted, LineEvent::Answered, LineEvent::Answered]
    );
    assert_eq!(lines[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(lines[1]["result"]["tools"].as_array().unwrap().len(), 4);
    assert!(lines[1]["result"].get("ttlMs").is_none());
    assert_eq!(lines[2], json!({"jsonrpc": "2.0", "id": "p", "result": {}}));
}

#[test]
fn modern_requests_need_meta_but_no_headers() {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let discover =
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}});
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "get_diamond_price", "arguments": {"carat": 1.0, "color": "D", "clarity": "IF"}, "_meta": meta}});
    let init = json!({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"protocolVersion": "2026-07-28", "_meta": meta}});
    let input = format!("{discover}\n{call}\n{init}\n");
    let (lines, _) = run(input.as_bytes());
    assert_eq!(lines[0]["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(lines[1]["result"]["resultType"], "complete");
    assert_eq!(lines[1]["result"]["isError"], false);
    assert_eq!(lines[2]["error"]["code"], -32601);
}

#[test]
fn bad_lines_get_an_error_line_and_the_loop_goes_on() {
    let mut input = b"{not json\n[]\n".to_vec();
    input.extend(vec![b' '; MAX_LINE_BYTES + 10]);
    input.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n");
    let (lines, events) = run(&input);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["error"]["code"], -32700);
    assert_eq!(lines[1]["error"]["code"], -32600);
    assert_eq!(lines[2]["error"]["code"], -32600);
    assert!(lines[2]["error"]["message"].as_str().unwrap().contains("too large"));
    assert_eq!(events[2], LineEvent::TooLong);
    assert_eq!(lines[3]["id"], 9);
}

#[test]
fn empty_input_ends_at_once() {
    assert_eq!(run(b""), (vec![], vec![]));
}

#[test]
fn resources_prompts_and_completions_work_over_stdio_in_both_eras() {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let read = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "dcx://feeds/depth.json", "_meta": meta}});
    let prompt = json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {
        "name": "fair_asking_price", "arguments": {"carat": "1", "color": "F", "clarity": "VS1", "asking_price_usd": "7000"}, "_meta": meta}});
    let legacy_read = r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"dcx://docs/api.md"}}"#;
    let legacy_complete = r#"{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"price_stone"},"argument":{"name":"shape","value":"p"}}}"#;
    let legacy_missing = r#"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"dcx://feeds/none.json"}}"#;
    let input = format!("{read}\n{prompt}\n{legacy_read}\n{legacy_complete}\n{legacy_missing}\n");
    let (lines, _) = run(input.as_bytes());
    assert_eq!(lines[0]["result"]["contents"][0]["mimeType"], "application/json");
    assert_eq!(lines[0]["result"]["ttlMs"], 60_000);
    let text = lines[1]["result"]["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(text.contains("7000 USD"), "{text}");
    assert_eq!(lines[2]["result"]["contents"][0]["mimeType"], "text/markdown");
    assert!(lines[2]["result"].get("ttlMs").is_none());
    assert_eq!(lines[3]["result"]["completion"]["values"], json!(["pear"]));
    assert_eq!(lines[4]["error"]["code"], -32002);
    assert_eq!(lines[4]["error"]["data"]["uri"], "dcx://feeds/none.json");
}

/// Every line goes out whole in one write, then a flush: a host reading the pipe never
/// waits on a half-written message, and a pipe takes one system call per message.
#[test]
fn each_line_is_one_write_then_a_flush() {
    /// Records each call made on it.
    #[derive(Default)]
    struct Calls(Vec<Option<Vec<u8>>>);
    impl std::io::Write for Calls {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.push(Some(bytes.to_vec()));
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            self.0.push(None);
            Ok(())
        }
    }
    let too_long = "x".repeat(MAX_LINE_BYTES + 1);
    let input = format!(
        "{}\n{}\n{too_long}\n",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_dcx_index","arguments":{}}}"#,
    );
    let mut calls = Calls::default();
    serve_stdio(&mcp(), input.as_bytes(), &mut calls, |_| {}).unwrap();
    assert_eq!(calls.0.len(), 6, "a write and a flush per line");
    for pair in calls.0.chunks(2) {
        let line = pair[0].as_deref().expect("a write first");
        assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(line.ends_with(b"\n"));
        serde_json::from_slice::<Value>(line).expect("a whole JSON message");
        assert!(pair[1].is_none(), "then a flush");
    }
}
