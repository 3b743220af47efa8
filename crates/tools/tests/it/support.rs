//! A tool server on `127.0.0.1:0` shared by the socket tests, a raw HTTP/1.1 client, and
//! the in-process service.

use std::{
    net::SocketAddr,
    sync::{Arc, OnceLock},
};

use chrono::TimeZone;
pub(crate) use test_support::http::Reply;

/// The fixed instant every test result is stamped with.
pub(crate) const NOW_MILLIS: i64 = 1_795_255_200_123; // 2026-11-21T10:00:00.123Z

/// The endpoint the test server advertises, fixed so goldens do not depend on the port.
pub(crate) const PUBLIC_URL: &str = "http://127.0.0.1:8081/";

/// A configuration over the reference snapshot with a fixed clock.
pub(crate) fn config() -> tools::Config {
    let history = datasets::History::single(datasets::Snapshot::reference());
    let live = Arc::new(datasets::Live::fixed(history));
    let now = chrono::Utc.timestamp_millis_opt(NOW_MILLIS).unwrap();
    let mut config = tools::Config::new(live, Arc::new(move || std::time::SystemTime::from(now)));
    config.public_url = Some(PUBLIC_URL.to_owned());
    config.allowed_origins = vec!["https://app.example.com".to_owned()];
    config
}

/// The `_meta` a 2026-07-28 client puts in every request's `params`.
pub(crate) fn meta() -> serde_json::Value {
    serde_json::from_str(test_support::http::MODERN_META).unwrap()
}

/// The in-process service (no socket).
pub(crate) fn service() -> tools::ToolService {
    tools::handler(&config(), ([127, 0, 0, 1], 8081).into())
}

/// The address of the shared test server, started on first use.
pub(crate) fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| serve(config()))
}

/// A tool server on `127.0.0.1:0` with `config`, on a thread of its own.
pub(crate) fn serve(config: tools::Config) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build();
        runtime.unwrap().block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            tools::run(config, listener, std::future::pending(), |_| {}).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

/// Sends `head` (request line and header lines, without `Host`, `Content-Length` and
/// `Connection`) and `body`, and reads the whole response (the server closes).
pub(crate) fn exchange(head: &str, body: &[u8]) -> Reply {
    let addr = server();
    let mut request = head.trim_end().replace('\n', "\r\n");
    request.push_str(&format!(
        "\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut raw = request.into_bytes();
    raw.extend_from_slice(body);
    test_support::http::exchange_blocking(addr, &raw)
}
