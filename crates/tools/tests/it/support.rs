//! A tool server on `127.0.0.1:0` shared by the socket tests, a raw HTTP/1.1 client, and
//! the in-process service.

use std::{
    io::{Read, Write},
    net::{SocketAddr, TcpStream},
    sync::{Arc, OnceLock},
    time::Duration,
};

use chrono::TimeZone;

/// The fixed instant every test result is stamped with.
pub(crate) const NOW_MILLIS: i64 = 1_795_255_200_123; // 2026-11-21T10:00:00.123Z

/// The endpoint the test server advertises, fixed so goldens do not depend on the port.
pub(crate) const PUBLIC_URL: &str = "http://127.0.0.1:8081/";

/// A configuration over the reference snapshot with a fixed clock.
pub(crate) fn config() -> tools::Config {
    let history = datasets::History::single(datasets::Snapshot::reference());
    let live = Arc::new(datasets::Live::fixed(history));
    let now = chrono::Utc.timestamp_millis_opt(NOW_MILLIS).unwrap();
    let mut config = tools::Config::new(live, Arc::new(move || now));
    config.public_url = Some(PUBLIC_URL.to_owned());
    config.allowed_origins = vec!["https://app.example.com".to_owned()];
    config
}

/// The in-process service (no socket).
pub(crate) fn service() -> tools::ToolService {
    tools::handler(&config(), ([127, 0, 0, 1], 8081).into())
}

/// The address of the shared test server, started on first use.
pub(crate) fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                tools::run(config(), listener, std::future::pending(), |_| {}).await.unwrap();
            });
        });
        rx.recv().unwrap()
    })
}

/// A raw HTTP response.
pub(crate) struct Reply {
    pub(crate) status: u16,
    /// Header lines as `(lower-case name, value)`, in the order received.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

/// Sends `head` (request line and header lines, without `Host`, `Content-Length` and
/// `Connection`) and `body`, and reads the whole response (the server closes).
pub(crate) fn exchange(head: &str, body: &[u8]) -> Reply {
    let addr = server();
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut request = head.trim_end().replace('\n', "\r\n");
    request.push_str(&format!(
        "\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    stream.write_all(request.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    parse(&raw)
}

fn parse(raw: &[u8]) -> Reply {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("response head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Reply { status, headers, body: raw[split + 4..].to_vec() }
}
