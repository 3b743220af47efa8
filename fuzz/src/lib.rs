//! What the fuzz targets share: turning fuzzer bytes into the requests the servers' HTTP
//! layer would hand their handlers, the services over the reference snapshot with a fixed
//! clock, and the bounds every answer must keep (`docs/reliability.md`).
//!
//! The targets themselves are in `fuzz_targets/`, one per parser an attacker reaches;
//! `scripts/fuzz.sh` builds and runs them.

use std::{
    sync::{Arc, LazyLock},
    time::{Duration, UNIX_EPOCH},
};

use bytes::Bytes;
use hyper::{HeaderMap, Method, Uri, header::HeaderName, header::HeaderValue};

pub mod listings;

/// The largest error body either server may send, whatever the input
/// (`docs/reliability.md`, "Bounded errors").
pub const ERROR_BODY_MAX: usize = 16 * 1024;

/// The fixed instant every answer is stamped with: 2026-11-21T10:00:00Z.
const NOW_UNIX_SECS: u64 = 1_795_255_200;

/// The embedded reference snapshot as a `Live` that never reloads, shared by every run.
pub fn live() -> Arc<datasets::Live> {
    static LIVE: LazyLock<Arc<datasets::Live>> = LazyLock::new(|| {
        let history = datasets::History::single(datasets::Snapshot::reference());
        Arc::new(datasets::Live::fixed(history))
    });
    Arc::clone(&LIVE)
}

/// A clock stopped at a fixed instant, so that answers depend on the input alone.
pub fn clock() -> serve::Clock {
    Arc::new(|| UNIX_EPOCH + Duration::from_secs(NOW_UNIX_SECS))
}

/// A request as the HTTP layer hands it to a handler: from 127.0.0.1, body already read.
pub fn request(method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> serve::Request {
    serve::Request { method, uri, headers, body, peer: ([127, 0, 0, 1], 40_000).into() }
}

/// Reads fuzzer bytes written like an HTTP/1.1 request (the `fixtures/jsonrpc/*.http`
/// files are the seeds): a request line `METHOD TARGET ...`, header lines `Name: value`,
/// an empty line, the body. Lines end in `\n` or `\r\n`.
///
/// What hyper would refuse before any handler runs is left out rather than refused here:
/// a header line that is not a valid name and value is skipped, an unusable method or
/// target reads as `POST /`, a missing blank line means no body. So every input reaches
/// the handler, and the fuzzer can choose any method, path, header and body.
pub fn raw_request(data: &[u8]) -> serve::Request {
    let (head, body) = match find(data, b"\n\n")
        .map(|at| (at, 2))
        .or_else(|| find(data, b"\r\n\r\n").map(|at| (at, 4)))
    {
        Some((at, gap)) => (&data[..at], &data[at + gap..]),
        None => (data, &[][..]),
    };
    let mut lines =
        head.split(|&b| b == b'\n').map(|line| line.strip_suffix(b"\r").unwrap_or(line));
    let mut request_line = lines.next().unwrap_or_default().split(|&b| b == b' ');
    let method = request_line.next().and_then(|m| Method::from_bytes(m).ok());
    let uri = request_line.next().and_then(|t| Uri::try_from(t).ok());
    let mut headers = HeaderMap::new();
    for line in lines {
        let Some(colon) = line.iter().position(|&b| b == b':') else { continue };
        let name = HeaderName::from_bytes(line[..colon].trim_ascii());
        let value = HeaderValue::from_bytes(line[colon + 1..].trim_ascii());
        if let (Ok(name), Ok(value)) = (name, value) {
            headers.append(name, value);
        }
    }
    request(
        method.unwrap_or(Method::POST),
        uri.unwrap_or_else(|| Uri::from_static("/")),
        headers,
        Bytes::copy_from_slice(body),
    )
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window == needle)
}

/// `path?query` as a request target, with every byte a request line cannot carry
/// percent-encoded (as a browser sends a typed URL), so that any fuzzer bytes reach the
/// query parser. Bytes that are already legal stay as they are, `%`, `&`, `=` and `+`
/// included.
pub fn target(path: &str, query: &[u8]) -> Uri {
    let mut text = format!("{path}?");
    for &byte in query {
        let legal = byte.is_ascii_graphic() && !b"\"#<>\\^`{|}".contains(&byte);
        match legal {
            true => text.push(char::from(byte)),
            false => text.push_str(&format!("%{byte:02X}")),
        }
    }
    // Every byte left is one a URI allows, so this fails only on a target longer than
    // hyper takes (64 KiB): libFuzzer's inputs stay far below it, and a silent fallback
    // would check another page than the one asked for.
    Uri::try_from(text).expect("a target of URI bytes, under 64 KiB")
}

/// A response's head and whole body (handlers answer from memory).
pub fn split(response: hyper::Response<serve::Body>) -> (hyper::http::response::Parts, Bytes) {
    use http_body_util::BodyExt;
    use std::{future::Future, task};
    let (parts, body) = response.into_parts();
    // A `Full` body is ready at once: its one frame is taken without a runtime.
    let mut collect = std::pin::pin!(body.collect());
    let bytes = match collect.as_mut().poll(&mut task::Context::from_waker(task::Waker::noop())) {
        task::Poll::Ready(Ok(collected)) => collected.to_bytes(),
        task::Poll::Ready(Err(never)) => match never {},
        task::Poll::Pending => unreachable!("a Full body is always ready"),
    };
    (parts, bytes)
}
