//! Test harness: a tiny handler, a server on `127.0.0.1:0`, and a raw HTTP/1.1 client.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use bytes::Bytes;
use hyper::{Response, StatusCode};
use serve::{Body, Handler, Limits, Representation, Request};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::oneshot,
    task::JoinHandle,
};

/// Longest any single step of a test may take before it is declared stuck.
pub(crate) const STUCK: Duration = Duration::from_secs(2);

/// Answers `/data` from a [`Representation`]; everything else with
/// `<method> <path> <body length>` as plain text.
struct TestHandler {
    data: Representation,
}

impl Handler for TestHandler {
    fn handle(&self, request: Request) -> Response<Body> {
        if request.uri.path() == "/data" {
            return self.data.respond(&request, "no-cache");
        }
        let text = format!("{} {} {}", request.method, request.uri.path(), request.body.len());
        let mut response = Response::new(Body::new(Bytes::from(text)));
        *response.status_mut() = StatusCode::OK;
        response
    }
}

/// The identity bytes served at `/data`.
pub(crate) fn data() -> Bytes {
    Bytes::from("shape,carat,price\nround,1.00,5000\n".repeat(50))
}

/// A running `serve::serve` and the lines of every event it reported.
pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    done: JoinHandle<()>,
    events: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub(crate) async fn start(limits: Limits, access_log: bool) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let handler = Arc::new(TestHandler { data: Representation::new(data(), "text/csv", 0) });
        let (shutdown, signal) = oneshot::channel::<()>();
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        let done = tokio::spawn(serve::serve(
            listener,
            handler,
            limits,
            async move {
                let _ = signal.await;
            },
            move |event| sink.lock().unwrap().push(event.to_string()),
            access_log,
        ));
        Server { addr, shutdown: Some(shutdown), done, events }
    }

    pub(crate) async fn connect(&self) -> Client {
        Client { stream: TcpStream::connect(self.addr).await.unwrap(), buf: Vec::new() }
    }

    /// Completes the shutdown future.
    pub(crate) fn shutdown(&mut self) {
        let _ = self.shutdown.take().unwrap().send(());
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.done.is_finished()
    }

    /// Waits for `serve` to return.
    pub(crate) async fn finished(self) -> Vec<String> {
        let events = self.events;
        tokio::time::timeout(STUCK, self.done).await.expect("serve did not return").unwrap();
        events.lock().unwrap().clone()
    }

    pub(crate) fn events(&self) -> Vec<String> {
        self.events.lock().unwrap().clone()
    }
}

/// A parsed response.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub(crate) fn text(&self) -> &str {
        std::str::from_utf8(&self.body).unwrap()
    }
}

/// One raw connection.
pub(crate) struct Client {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Client {
    pub(crate) async fn send(&mut self, raw: &str) {
        self.stream.write_all(raw.as_bytes()).await.unwrap();
    }

    /// Sends a request head (without its blank line) asking `Expect: 100-continue`,
    /// and waits for the `100`: hyper sends it only once the service reads the body,
    /// so afterwards the request is certainly in flight.
    pub(crate) async fn reading_body(&mut self, head: &str) {
        self.send(&format!("{head}Expect: 100-continue\r\n\r\n")).await;
        assert_eq!(self.reply(true).await.status, 100);
    }

    /// Reads one response; `head` says it answers a HEAD request (no body follows).
    pub(crate) async fn reply(&mut self, head: bool) -> Reply {
        tokio::time::timeout(STUCK, self.read_reply(head)).await.expect("no reply in time")
    }

    async fn read_reply(&mut self, head: bool) -> Reply {
        let end = loop {
            if let Some(at) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break at;
            }
            assert!(self.fill().await > 0, "connection closed before a reply");
        };
        let text = String::from_utf8(self.buf[..end].to_vec()).unwrap();
        let mut lines = text.split("\r\n");
        let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
        let headers: Vec<(String, String)> = lines
            .map(|line| {
                let (name, value) = line.split_once(':').unwrap();
                (name.to_owned(), value.trim().to_owned())
            })
            .collect();
        self.buf.drain(..end + 4);
        let mut reply = Reply { status, headers, body: Vec::new() };
        let length = match reply.header("content-length") {
            Some(length) if !head && status != 304 => length.parse().unwrap(),
            _ => 0,
        };
        while self.buf.len() < length {
            assert!(self.fill().await > 0, "connection closed mid-body");
        }
        reply.body = self.buf.drain(..length).collect();
        reply
    }

    /// Waits at most `wait` for any bytes; true if nothing arrived (and no EOF).
    pub(crate) async fn silent_for(&mut self, wait: Duration) -> bool {
        tokio::time::timeout(wait, self.fill()).await.is_err()
    }

    /// Reads until the server closes the connection; fails if it takes [`STUCK`].
    pub(crate) async fn closed(&mut self) {
        let until_eof = async { while self.fill().await > 0 {} };
        tokio::time::timeout(STUCK, until_eof).await.expect("connection not closed");
    }

    /// Reads more bytes into the buffer; 0 on EOF or reset.
    async fn fill(&mut self) -> usize {
        let mut chunk = [0; 4096];
        let read = self.stream.read(&mut chunk).await.unwrap_or(0);
        self.buf.extend_from_slice(&chunk[..read]);
        read
    }
}

/// Limits small enough for fast tests.
pub(crate) fn quick_limits() -> Limits {
    Limits {
        max_body_bytes: 16,
        header_read_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(5),
        max_connections: 8,
        grace: Duration::from_secs(1),
    }
}

impl Server {
    /// Whether a new connection is refused (the listener is gone).
    pub(crate) async fn connect_refused(&self) -> bool {
        TcpStream::connect(self.addr).await.is_err()
    }
}
