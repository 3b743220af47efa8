//! Golden request/response pairs: each `fixtures/jsonrpc/<case>.http` (request line,
//! header lines, a blank line, the body) is sent over a socket and the response compared
//! with `<case>.golden` as it went over the wire: the status line, every header line in
//! the order sent but `Date`, and the body's bytes as sent (only `_meta.timestamp`, the
//! injected instant, is replaced by `<timestamp>`), then a newline. So a key order, a number's spelling
//! or an escape of the hand-written writer shows in a golden. serde_json stays as the
//! oracle: every JSON body must parse. `UPDATE_EXPECT=1` rewrites the goldens.

use crate::support::{NOW_MILLIS, exchange};

fn render(reply: &crate::support::Reply) -> String {
    let mut out = format!("{}\n", reply.status_line);
    for (name, value) in reply.headers.iter().filter(|(n, _)| !n.eq_ignore_ascii_case("date")) {
        out.push_str(&format!("{name}: {value}\n"));
    }
    out.push('\n');
    let mut body = std::str::from_utf8(&reply.body).expect("a UTF-8 body").to_owned();
    if reply.header("content-type") == Some("application/json") {
        // The oracle: what the hand-written writers send is JSON.
        let json: serde_json::Value =
            serde_json::from_str(&body).unwrap_or_else(|err| panic!("not JSON ({err}): {body}"));
        if let Some(ts) = json.pointer("/result/_meta/timestamp") {
            let ts = ts.as_str().expect("a string timestamp");
            assert_eq!(ts, expected_timestamp());
            body = body.replacen(ts, "<timestamp>", 1);
        }
    }
    out.push_str(&body);
    out.push('\n');
    out
}

/// `_meta.timestamp` must be the injected instant, in milliseconds; it is then replaced by
/// a placeholder so a change of test clock does not rewrite every golden.
fn expected_timestamp() -> String {
    chrono::DateTime::from_timestamp_millis(NOW_MILLIS)
        .unwrap()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[track_caller]
fn check(case: &str) {
    let text = test_support::fixture(&format!("jsonrpc/{case}.http"));
    let (head, body) = text.split_once("\n\n").unwrap_or((&text, ""));
    let reply = exchange(head, body.trim_end_matches('\n').as_bytes());
    test_support::assert_golden(&format!("jsonrpc/{case}.golden"), &render(&reply));
}

#[test]
fn every_case_matches_its_golden() {
    let dir = test_support::fixture_path("jsonrpc");
    let mut cases: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "http"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert!(cases.len() >= 40, "only {} cases in {}", cases.len(), dir.display());
    for case in &cases {
        check(case);
    }
    // Every golden has its request.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "golden") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            assert!(cases.contains(&stem), "{} has no .http request", path.display());
        }
    }
}

#[test]
fn bodies_over_one_mebibyte_are_413() {
    let body = vec![b' '; 1024 * 1024 + 1];
    let reply = exchange("POST / HTTP/1.1\nContent-Type: application/json", &body);
    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.text(),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large: the limit is 1048576 bytes","data":{"limitBytes":1048576}}}"#
    );
}

#[test]
fn keep_alive_serves_several_requests_on_one_connection() {
    use std::io::{BufRead, BufReader, Read, Write};
    let addr = crate::support::server();
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    for _ in 0..3 {
        write!(stream, "GET /health HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut reader = BufReader::new(&mut stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        let mut length = 0;
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            if header == "\r\n" {
                break;
            }
            if let Some(v) = header.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
    }
}
