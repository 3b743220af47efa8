//! Replays the curl examples of `docs/api.md` against a server on `127.0.0.1:0`.
//!
//! Every line starting with `curl ` inside a ```` ```sh ```` block must end with
//! `# NNN`, the status it returns against the embedded reference snapshot. Only the
//! curl flags the examples need are understood; any other flag fails the test, so the
//! docs stay within what is checked.

use crate::support::Server;

/// The address the examples use; replaced by the test server's.
const DOCS_BASE: &str = "http://127.0.0.1:8080";

/// One example: what to send and the documented status.
#[derive(Debug, Default)]
struct Example {
    line: String,
    method: String,
    target: String,
    headers: Vec<String>,
    body: Option<String>,
    status: u16,
}

/// Splits a shell line into words (single and double quotes, no escapes), stopping
/// at a `#` that starts a word; returns the words and the comment.
fn words(line: &str) -> (Vec<String>, String) {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, '#') if word.is_none() => return (words, line[at + 1..].trim().to_owned()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unbalanced quotes in {line:?}");
    words.extend(word);
    (words, String::new())
}

fn parse(line: &str) -> Example {
    let (words, comment) = words(line);
    let status = comment.parse().unwrap_or_else(|_| panic!("{line:?} must end with `# <status>`"));
    let mut example = Example { line: line.to_owned(), status, ..Example::default() };
    let mut head = false;
    let mut args = words.into_iter().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value in {line:?}"));
        match arg.as_str() {
            "-X" | "--request" => example.method = value(),
            "-H" | "--header" => example.headers.push(value()),
            "-d" | "--data" => example.body = Some(value()),
            "-o" | "--output" | "-w" | "--write-out" => {
                value();
            }
            "--compressed" => example.headers.push("Accept-Encoding: gzip".to_owned()),
            "--head" => head = true,
            url if url.starts_with(DOCS_BASE) => {
                let target = &url[DOCS_BASE.len()..];
                example.target = if target.is_empty() { "/".to_owned() } else { target.to_owned() };
            }
            flags if flags.starts_with('-') && !flags.starts_with("--") => {
                for flag in flags[1..].chars() {
                    match flag {
                        's' | 'S' | 'i' | 'v' => {}
                        'I' => head = true,
                        _ => panic!("unsupported curl flag -{flag} in {line:?}"),
                    }
                }
            }
            other => panic!("unsupported curl argument {other:?} in {line:?}"),
        }
    }
    assert!(!example.target.is_empty(), "no {DOCS_BASE} URL in {line:?}");
    if example.method.is_empty() {
        example.method = match (head, &example.body) {
            (true, _) => "HEAD",
            (false, Some(_)) => "POST",
            (false, None) => "GET",
        }
        .to_owned();
    }
    example
}

/// Every curl example of `docs/api.md`.
fn examples() -> Vec<Example> {
    let text = std::fs::read_to_string(test_support::workspace_root().join("docs/api.md")).unwrap();
    let mut in_sh = false;
    let mut examples = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if in_sh && trimmed.starts_with("curl ") {
            examples.push(parse(trimmed));
        }
    }
    examples
}

#[test]
fn the_curl_parser_understands_the_docs_forms() {
    let example =
        parse("curl -sI -H 'If-None-Match: \"ab\"' http://127.0.0.1:8080/x?a=1&b=2  # 304");
    assert_eq!(
        (example.method.as_str(), example.target.as_str(), example.status),
        ("HEAD", "/x?a=1&b=2", 304)
    );
    assert_eq!(example.headers, ["If-None-Match: \"ab\""]);
    let post = parse("curl -d 'x=1' http://127.0.0.1:8080  # 413");
    assert_eq!(
        (post.method.as_str(), post.target.as_str(), post.body.as_deref()),
        ("POST", "/", Some("x=1"))
    );
}

#[tokio::test]
async fn every_curl_example_returns_its_documented_status() {
    let examples = examples();
    assert!(examples.len() >= 20, "only {} curl examples found", examples.len());
    let server = Server::reference().await;
    for example in &examples {
        let mut headers: Vec<&str> = example.headers.iter().map(String::as_str).collect();
        let length;
        if let Some(body) = &example.body {
            length = format!("Content-Length: {}", body.len());
            headers.push("Content-Type: application/x-www-form-urlencoded");
            headers.push(&length);
        }
        let mut client = server.connect().await;
        let reply = match &example.body {
            None => client.request(&example.method, &example.target, &headers).await,
            Some(body) => {
                let mut raw =
                    format!("{} {} HTTP/1.1\r\nHost: docs\r\n", example.method, example.target);
                for line in &headers {
                    raw.push_str(&format!("{line}\r\n"));
                }
                client.send(&format!("{raw}\r\n{body}")).await;
                client.reply(false).await
            }
        };
        assert_eq!(reply.status, example.status, "{}", example.line);
        // Every answer is readable cross-origin, the plumbing's 413 included.
        assert!(reply.header("access-control-allow-origin").is_some(), "{}", example.line);
    }
}
