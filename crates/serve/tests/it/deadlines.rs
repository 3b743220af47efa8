//! The connection's watchdog: the idle keep-alive outlives the head deadline, a head or
//! body that arrives too slowly, however steadily it trickles, ends the connection (a
//! body with `408`), and a stalled body makes room at the cap like an idle connection.

use std::time::{Duration, Instant};

use serve::Limits;

use crate::{
    GET,
    support::{Server, quick_limits},
};

/// Head and body deadlines of 200 ms, idle after 2 s.
fn short_deadlines() -> Limits {
    Limits {
        header_read_timeout: Duration::from_millis(200),
        body_read_timeout: Duration::from_millis(200),
        idle_timeout: Duration::from_secs(2),
        ..quick_limits()
    }
}

#[tokio::test]
async fn a_keep_alive_connection_waits_for_its_next_request_past_the_head_deadline() {
    let server = Server::start(short_deadlines(), false).await;
    let mut client = server.connect().await;
    client.send(GET).await;
    assert_eq!(client.reply(false).await.status, 200);
    // Well past the head deadline, within the idle limit: still open.
    tokio::time::sleep(Duration::from_millis(600)).await;
    client.send(GET).await;
    assert_eq!(client.reply(false).await.text(), "GET / 0");
}

#[tokio::test]
async fn a_head_trickling_in_is_closed_at_the_head_deadline() {
    let server = Server::start(short_deadlines(), false).await;
    let mut slow = server.connect().await;
    let started = Instant::now();
    // A byte every 50 ms keeps the connection from idling; the head never ends.
    for byte in "GET / HTTP/1.1\r\nHost: t\r\nX-Slow: abcdefghijklmnop".chars() {
        if !slow.try_send(&byte.to_string()).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    slow.closed().await;
    assert!(started.elapsed() < Duration::from_secs(2), "closed by the idle limit instead");
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_at_the_head_deadline() {
    let server = Server::start(short_deadlines(), false).await;
    let mut silent = server.connect().await;
    let started = Instant::now();
    silent.closed().await;
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_body_trickling_in_gets_408_at_the_body_deadline() {
    let limits = Limits { max_body_bytes: 1024, ..short_deadlines() };
    let server = Server::start(limits, false).await;
    let mut slow = server.connect().await;
    slow.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n0").await;
    // A byte every 40 ms (never idle) until the answer comes.
    let started = Instant::now();
    for _ in 0..50 {
        if !slow.silent_for(Duration::from_millis(40)).await || !slow.try_send("1").await {
            break;
        }
    }
    let reply = slow.reply(false).await;
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    assert_eq!(reply.status, 408);
    assert_eq!(reply.header("connection"), Some("close"));
    assert_eq!(reply.text(), r#"{"error":"request body not received in time","limit_secs":1}"#);
    slow.closed().await;
}

#[tokio::test]
async fn a_body_in_time_is_served_after_a_pause() {
    let limits = Limits { max_body_bytes: 1024, ..short_deadlines() };
    let server = Server::start(limits, false).await;
    let mut client = server.connect().await;
    client.send("POST /p HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\n01").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    client.send("23").await;
    assert_eq!(client.reply(false).await.text(), "POST /p 4");
    // The deadline was for that body only: the next request has its own.
    tokio::time::sleep(Duration::from_millis(300)).await;
    client.send("POST /q HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n01").await;
    assert_eq!(client.reply(false).await.text(), "POST /q 2");
}

#[tokio::test]
async fn at_the_cap_a_stalled_body_makes_room() {
    let limits = Limits { max_connections: 1, max_body_bytes: 1024, ..quick_limits() };
    let server = Server::start(limits, false).await;
    let mut stalled = server.connect().await;
    stalled.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n01").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut newcomer = server.connect().await;
    newcomer.send(GET).await;
    assert_eq!(newcomer.reply(false).await.text(), "GET / 0");
    stalled.closed().await;
}
