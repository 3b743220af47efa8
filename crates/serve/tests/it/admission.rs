//! Connection caps and request hygiene over real sockets: `431` for long heads, `400`
//! without `Host`, fast refusals at the caps, and idle connections making room.

use std::{net::IpAddr, time::Duration};

use serve::Limits;
use test_support::http::Client;

use crate::{
    GET,
    support::{Server, quick_limits},
};

fn second_address() -> IpAddr {
    IpAddr::from([127, 0, 0, 2])
}

#[tokio::test]
async fn a_head_over_the_limit_gets_431_and_a_close() {
    let server = Server::start(quick_limits(), false).await;
    let mut client = server.connect().await;
    let long = "x".repeat(5_000);
    client.send(&format!("GET / HTTP/1.1\r\nHost: t\r\nX-Long: {long}\r\n\r\n")).await;
    assert_eq!(client.reply(false).await.status, 431);
    client.closed().await;
    // Just under the limit is served.
    let mut client = server.connect().await;
    let fits = "x".repeat(3_000);
    client.send(&format!("GET / HTTP/1.1\r\nHost: t\r\nX-Long: {fits}\r\n\r\n")).await;
    assert_eq!(client.reply(false).await.status, 200);
}

#[tokio::test]
async fn a_request_without_its_one_host_gets_400_and_http_1_0_needs_none() {
    let server = Server::start(quick_limits(), false).await;
    for (request, says) in [
        ("GET / HTTP/1.1\r\n\r\n", "an HTTP/1.1 request must carry a Host header"),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "one Host header, not several"),
        ("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", "one Host header, not several"),
    ] {
        let mut client = server.connect().await;
        client.send(request).await;
        let reply = client.reply(false).await;
        assert_eq!(reply.status, 400, "{request:?}");
        assert!(reply.text().contains(says), "{request:?}: {}", reply.text());
        assert_eq!(reply.header("connection"), Some("close"), "{request:?}");
        client.closed().await;
    }
    let mut client = server.connect().await;
    client.send("GET / HTTP/1.0\r\n\r\n").await;
    assert_eq!(client.reply(false).await.text(), "GET / 0");
}

#[tokio::test]
async fn an_address_over_its_share_gets_429_while_another_is_served() {
    let limits = Limits { max_connections_per_ip: 2, ..quick_limits() };
    let server = Server::start(limits, false).await;
    let mut held = vec![server.connect().await, server.connect().await];
    for client in &mut held {
        client.send(GET).await;
        assert_eq!(client.reply(false).await.status, 200);
    }
    let mut over = server.connect().await;
    let reply = over.reply(false).await;
    assert_eq!(reply.status, 429);
    assert_eq!(reply.header("retry-after"), Some("1"));
    over.closed().await;
    let mut other = Client::connect_from(server.addr, second_address()).await;
    other.send(GET).await;
    assert_eq!(other.reply(false).await.status, 200);
    assert!(server.events().iter().any(|line| line.starts_with("refused 127.0.0.1:")));
}

#[tokio::test]
async fn at_the_cap_an_idle_keep_alive_makes_room_and_a_busy_server_says_503() {
    let limits = Limits { max_connections: 1, ..quick_limits() };
    let server = Server::start(limits, false).await;
    let mut first = server.connect().await;
    first.send(GET).await;
    assert_eq!(first.reply(false).await.status, 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The first connection sits idle: it is closed and the newcomer served at once.
    let mut second = server.connect().await;
    second.send(GET).await;
    assert_eq!(second.reply(false).await.text(), "GET / 0");
    first.closed().await;
    // The second is fresh (just answered): a third client is refused at once.
    let mut third = server.connect().await;
    let reply = third.reply(false).await;
    assert_eq!(reply.status, 503);
    assert_eq!(reply.header("retry-after"), Some("1"));
    third.closed().await;
}

#[tokio::test]
async fn over_the_rate_a_metered_route_gets_429_and_others_do_not() {
    let rate = serve::RateLimit { per_second: 0.5, burst: 2 };
    let limits = Limits { rate_limit_per_ip: Some(rate), ..quick_limits() };
    let server = Server::start(limits, false).await;
    let mut client = server.connect().await;
    let metered = "GET /metered HTTP/1.1\r\nHost: t\r\n\r\n";
    for _ in 0..2 {
        client.send(metered).await;
        assert_eq!(client.reply(false).await.status, 200);
    }
    client.send(metered).await;
    let reply = client.reply(false).await;
    assert_eq!(reply.status, 429);
    assert_eq!(reply.header("retry-after"), Some("2"));
    assert!(reply.text().contains("rate limit exceeded"), "{}", reply.text());
    let limited: Vec<String> =
        server.events().into_iter().filter(|line| line.starts_with("rate limited")).collect();
    assert_eq!(limited, ["rate limited 127.0.0.1"]);
    // The connection stays open; unmetered routes and other addresses are served.
    client.send(GET).await;
    assert_eq!(client.reply(false).await.status, 200);
    let mut other = Client::connect_from(server.addr, second_address()).await;
    other.send(metered).await;
    assert_eq!(other.reply(false).await.status, 200);
}
