//! Integration tests: `serve::serve` over real sockets on `127.0.0.1:0`, driven with
//! raw HTTP/1.1 bytes.

mod admission;
mod deadlines;
#[cfg(unix)]
mod support;

use std::{io::Read, time::Duration};

use serve::Limits;

use crate::support::{STUCK, Server, data, quick_limits};

pub(crate) const GET: &str = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";

#[tokio::test]
async fn keep_alive_serves_several_requests_on_one_connection() {
    let mut server = Server::start(quick_limits(), true).await;
    let mut client = server.connect().await;
    client.send(GET).await;
    assert_eq!(client.reply(false).await.text(), "GET / 0");
    client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello").await;
    assert_eq!(client.reply(false).await.text(), "POST /echo 5");
    let chunked = "PUT /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
    client.send(&format!("{chunked}3\r\nabc\r\nd\r\n0123456789abc\r\n0\r\n\r\n")).await;
    assert_eq!(client.reply(false).await.text(), "PUT /c 16");

    server.shutdown();
    let addr = server.addr;
    let events = server.finished().await;
    assert_eq!(events[0], format!("listening on http://{addr}"));
    let access: Vec<_> = events.iter().filter(|line| line.contains(" 200 ")).collect();
    assert_eq!(access.len(), 3, "{events:?}");
    assert!(access[1].contains(" POST /echo 200 "), "{events:?}");
}

/// A client may shut its sending side once its request is out (`nc -N`, a script's
/// `shutdown(SHUT_WR)`): it is still answered, a request with a body as one without.
/// The server has taken the connection and waits on it when the request and the end of
/// stream are sent, both before it runs again (the test's runtime has one thread), so
/// it learns of both at once; without `half_close(true)` hyper reads the end of stream
/// while the request with a body is being answered and drops the connection unanswered.
#[tokio::test]
async fn a_client_that_half_closes_after_its_request_is_answered() {
    use std::io::Write;
    use tokio::io::AsyncReadExt;
    let server = Server::start(quick_limits(), false).await;
    for (raw, answer) in [
        ("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello", "POST /echo 5"),
        (GET, "GET / 0"),
    ] {
        let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
        // The server accepts the connection and waits for its request.
        tokio::time::sleep(Duration::from_millis(50)).await;
        stream.write_all(raw.as_bytes()).unwrap();
        stream.shutdown(std::net::Shutdown::Write).unwrap();
        stream.set_nonblocking(true).unwrap();
        let mut stream = tokio::net::TcpStream::from_std(stream).unwrap();
        let mut received = String::new();
        let read = tokio::time::timeout(STUCK, stream.read_to_string(&mut received)).await;
        assert!(read.is_ok(), "no end of the answer to {raw:?}: {received:?}");
        assert!(
            received.starts_with("HTTP/1.1 200 ") && received.ends_with(answer),
            "{raw:?} answered {received:?}"
        );
    }
}

#[tokio::test]
async fn access_log_off_reports_no_requests() {
    let mut server = Server::start(quick_limits(), false).await;
    let mut client = server.connect().await;
    client.send(GET).await;
    assert_eq!(client.reply(false).await.status, 200);
    server.shutdown();
    let events = server.finished().await;
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(events[1].starts_with("shutdown begun"));
    assert!(events[2].starts_with("drained"));
}

/// With metrics on, every answer is reported with its route (the handler's index, or
/// none for a path outside its routes) and status, and every connection opens and closes.
#[tokio::test]
async fn metrics_reporting_names_the_route_status_and_connections() {
    let reporting = serve::Reporting { access_log: false, metrics: true };
    let mut server = Server::start_reporting(quick_limits(), reporting).await;
    let mut client = server.connect().await;
    client.send("GET /data HTTP/1.1\r\nHost: t\r\n\r\n").await;
    assert_eq!(client.reply(false).await.status, 200);
    client.send("GET /elsewhere?x=1 HTTP/1.1\r\nHost: t\r\n\r\n").await;
    assert_eq!(client.reply(false).await.status, 200);
    client.send("POST /data HTTP/1.1\r\nHost: t\r\nContent-Length: 99\r\n\r\n").await;
    assert_eq!(client.reply(false).await.status, 413);
    server.shutdown();
    let events = server.finished().await;
    let answered: Vec<&str> = events
        .iter()
        .filter(|line| line.starts_with("answered "))
        .map(|line| line.split(" in ").next().unwrap())
        .collect();
    assert_eq!(answered, ["answered route 0 200", "answered other 200", "answered route 0 413"]);
    let count = |what: &str| events.iter().filter(|line| *line == what).count();
    assert_eq!((count("connection opened"), count("connection closed")), (1, 1), "{events:?}");
    assert!(!events.iter().any(|line| line.contains(" GET /data ")), "no access log: {events:?}");
}

/// A body over the limit (declared, so never sent, or chunked) gets `413`, a malformed
/// chunked one `400`; either way the connection closes.
#[tokio::test]
async fn refused_bodies_are_answered_and_the_connection_closes() {
    let server = Server::start(quick_limits(), false).await;
    let chunked = "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
    let too_large = r#"{"error":"payload too large","limit_bytes":16}"#;
    for (request, status, text) in [
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n".to_owned(), 413, too_large),
        (format!("{chunked}a\r\n0123456789\r\na\r\n0123456789\r\n"), 413, too_large),
        (
            format!("{chunked}zz\r\n0123\r\n0\r\n\r\n"),
            400,
            r#"{"error":"unreadable request body"}"#,
        ),
    ] {
        let mut client = server.connect().await;
        client.send(&request).await;
        let reply = client.reply(false).await;
        assert_eq!(reply.status, status, "{request:?}");
        assert_eq!(reply.header("content-type"), Some("application/json"), "{request:?}");
        assert_eq!(reply.header("connection"), Some("close"), "{request:?}");
        assert_eq!(reply.text(), text, "{request:?}");
        client.closed().await;
    }
}

#[tokio::test]
async fn body_at_the_limit_is_accepted() {
    let server = Server::start(quick_limits(), false).await;
    let mut client = server.connect().await;
    client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 16\r\n\r\n0123456789abcdef").await;
    assert_eq!(client.reply(false).await.text(), "POST / 16");
}

#[tokio::test]
async fn representation_over_the_wire() {
    let server = Server::start(quick_limits(), false).await;
    let mut client = server.connect().await;
    client.send("GET /data HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n").await;
    let gzip = client.reply(false).await;
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));
    let mut identity = Vec::new();
    flate2::read::GzDecoder::new(&gzip.body[..]).read_to_end(&mut identity).unwrap();
    assert_eq!(identity, data());

    client.send("HEAD /data HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n").await;
    let head = client.reply(true).await;
    assert_eq!(head.header("content-length"), Some(gzip.body.len().to_string().as_str()));
    assert_eq!(head.header("etag"), gzip.header("etag"));

    let etag = gzip.header("etag").unwrap();
    client.send(&format!("GET /data HTTP/1.1\r\nHost: t\r\nIf-None-Match: {etag}\r\n\r\n")).await;
    let not_modified = client.reply(false).await;
    assert_eq!(not_modified.status, 304);
    assert!(not_modified.body.is_empty());
    // The connection is still usable after the bodiless replies.
    client.send(GET).await;
    assert_eq!(client.reply(false).await.text(), "GET / 0");
}

#[tokio::test]
async fn shutdown_lets_an_in_flight_request_finish() {
    let mut server = Server::start(quick_limits(), false).await;
    let mut idle = server.connect().await;
    idle.send(GET).await;
    assert_eq!(idle.reply(false).await.status, 200);

    let mut busy = server.connect().await;
    busy.reading_body("POST /slow HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n").await;
    busy.send("01234").await;
    server.shutdown();

    // The idle keep-alive connection is closed at once, the busy one is not.
    idle.closed().await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!server.is_finished(), "serve returned with a request in flight");
    assert!(server.connect_refused().await, "still accepting after shutdown");

    busy.send("56789").await;
    let reply = busy.reply(false).await;
    assert_eq!(reply.text(), "POST /slow 10");
    assert_eq!(reply.header("connection"), Some("close"));
    busy.closed().await;
    let events = server.finished().await;
    assert_eq!(events.last().map(String::as_str), Some("drained: all connections closed"));
}

#[tokio::test]
async fn drain_gives_up_after_grace() {
    let limits = Limits { grace: Duration::from_millis(100), ..quick_limits() };
    let mut server = Server::start(limits, false).await;
    let mut stuck = server.connect().await;
    stuck.reading_body("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n").await;
    stuck.send("01").await;
    server.shutdown();
    let events = server.finished().await;
    assert!(events.iter().any(|line| line.starts_with("drain timed out")), "{events:?}");
    stuck.closed().await;
}

#[tokio::test]
async fn header_read_timeout_closes_a_slow_client() {
    let limits = Limits { header_read_timeout: Duration::from_millis(100), ..quick_limits() };
    let server = Server::start(limits, false).await;
    let mut slow = server.connect().await;
    slow.send("GET / HTTP/1.1\r\nHost: t\r\n").await;
    slow.closed().await;
}

#[tokio::test]
async fn idle_timeout_closes_a_stalled_body() {
    let limits = Limits { idle_timeout: Duration::from_millis(100), ..quick_limits() };
    let server = Server::start(limits, false).await;
    let mut stalled = server.connect().await;
    stalled.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n01").await;
    stalled.closed().await;
}
