//! `dcx mcp` driven as a child process over its pipes: a legacy session and a 2026-07-28
//! one, answered line by line; bad lines get an error line and the process goes on; only
//! JSON-RPC on stdout; exit 0 at end of input.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Stdio},
};

use serde_json::{Value, json};

/// A running `dcx mcp` and its pipes.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start() -> Session {
        let mut child = super::command("mcp", &[])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start dcx mcp");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends one request and reads its one answer line (before sending anything else: the
    /// answer must not wait for more input).
    fn call(&mut self, message: &Value) -> Value {
        self.send(&message.to_string());
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "an answer is one whole line: {line:?}");
        serde_json::from_str(&line).unwrap_or_else(|err| panic!("not JSON ({err}): {line:?}"))
    }

    /// Closes stdin; returns the exit code, what stdout still held, and stderr.
    fn finish(mut self) -> (Option<i32>, String, String) {
        drop(self.stdin.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        let mut stderr = String::new();
        std::io::Read::read_to_string(self.child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        (self.child.wait().unwrap().code(), rest, stderr)
    }
}

/// `dcx quote --json` of the stone every call here prices.
fn quote_json() -> Value {
    let out = super::dcx("quote --json --carat 1.23 --color G --clarity VS2", &[]);
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `check_asking_price` of the stone of [`quote_json`] asking 8000 USD, and what its
/// answer must share with `dcx quote --json`.
fn check_call(session: &mut Session, id: Value, meta: Option<Value>) {
    let mut params = json!({"name": "check_asking_price", "arguments": {"carat": 1.23, "color": "G", "clarity": "VS2", "asking_price_usd": 8000}});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    let answer = session
        .call(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}));
    let (check, quote) = (&answer["result"]["structuredContent"], quote_json());
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(check["benchmark_usd"], quote["total_usd"]);
    assert_eq!((&check["range"], &check["basis"]), (&quote["range"], &quote["basis"]));
    assert_eq!(check["verdict"], "within_market", "{check}");
    params["arguments"]["asking_price_usd"] = json!(0);
    let refused = session
        .call(&json!({"jsonrpc": "2.0", "id": "bad", "method": "tools/call", "params": params}));
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let text = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("asking_price_usd must be a finite number"), "{text}");
}

fn price_call(id: Value, meta: Option<Value>) -> Value {
    let mut params = json!({"name": "get_diamond_price", "arguments": {"carat": 1.23, "color": "G", "clarity": "VS2"}});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[test]
fn a_legacy_session_over_stdio() {
    let mut session = Session::start();
    let init = session.call(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "it", "version": "1"}}}));
    assert_eq!(init["id"], 0);
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(init["result"]["serverInfo"]["name"], "dcx-diamond-pricing");
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let list = session.call(&json!({"jsonrpc": "2.0", "id": "list", "method": "tools/list"}));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["get_diamond_price", "get_dcx_index", "get_market_depth", "check_asking_price"]
    );
    let price = session.call(&price_call(json!(2), None));
    assert_eq!(price["result"]["structuredContent"], quote_json());
    assert!(price["result"].get("resultType").is_none(), "no 2026-only field for legacy");
    check_call(&mut session, json!("check"), None);
    assert_eq!(
        session.call(&json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}))["result"],
        json!({})
    );
    let (code, rest, stderr) = session.finish();
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(rest, "", "nothing after the answers (the notification is not answered)");
    assert!(stderr.contains("end of input"), "{stderr}");
}

#[test]
fn a_2026_session_and_bad_lines_over_stdio() {
    let meta: Value = serde_json::from_str(test_support::http::MODERN_META).unwrap();
    let mut session = Session::start();
    let discover = session.call(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}),
    );
    assert_eq!(discover["result"]["supportedVersions"], json!(["2026-07-28"]));
    session.send("this is not json");
    let mut line = String::new();
    session.stdout.read_line(&mut line).unwrap();
    let error: Value = serde_json::from_str(&line).unwrap();
    assert_eq!((error["id"].clone(), error["error"]["code"].clone()), (Value::Null, json!(-32700)));
    let price = session.call(&price_call(json!("p"), Some(meta.clone())));
    assert_eq!(price["result"]["resultType"], "complete");
    assert_eq!(price["result"]["structuredContent"], quote_json());
    check_call(&mut session, json!("check"), Some(meta.clone()));
    let init = session.call(
        &json!({"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": {"_meta": meta}}),
    );
    assert_eq!(init["error"]["code"], -32601);
    let (code, rest, _) = session.finish();
    assert_eq!((code, rest.as_str()), (Some(0), ""));
}

/// The README's client configurations are valid JSON, and those that launch `dcx` launch
/// `dcx mcp`.
#[test]
fn the_readme_client_configurations_are_valid() {
    let readme = std::fs::read_to_string(test_support::workspace_root().join("README.md")).unwrap();
    let heading = "## Use it from your MCP client";
    let start = readme.find(heading).expect("the README section");
    let section = &readme[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let blocks: Vec<&str> =
        section.split("```json\n").skip(1).map(|b| b.split("```").next().unwrap()).collect();
    assert_eq!(blocks.len(), 3, "a command, a URL and an mcp-remote configuration");
    for block in blocks {
        let config: Value = serde_json::from_str(block).unwrap_or_else(|e| panic!("{e}: {block}"));
        let server = &config["mcpServers"]["dcx-diamond-pricing"];
        assert!(server.is_object(), "{block}");
        if server["command"].as_str().is_some_and(|c| c.ends_with("/dcx")) {
            assert_eq!(server["args"][0], "mcp");
        }
    }
}
