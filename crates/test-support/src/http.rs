//! A raw HTTP/1.1 client for socket tests: writes exactly the bytes a test gives it and
//! parses replies by hand, so tests see what the server really sent; and the bytes of a
//! 2026-07-28 MCP request.

use std::{io::Read, net::SocketAddr, time::Duration};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

/// Longest a single read may take before the test is declared stuck.
pub const STUCK: Duration = Duration::from_secs(5);

/// A parsed response.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The status line as sent, without its CRLF: `HTTP/1.1 200 OK`.
    pub status_line: String,
    /// The status code.
    pub status: u16,
    /// Header fields in the order received.
    pub headers: Vec<(String, String)>,
    /// The body as sent (still compressed if it was).
    pub body: Vec<u8>,
}

impl Reply {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body as UTF-8 text.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.body).expect("utf-8 body")
    }

    /// The body, gunzipped when `Content-Encoding: gzip`.
    pub fn decoded(&self) -> Vec<u8> {
        match self.header("content-encoding") {
            Some("gzip") => {
                let mut out = Vec::new();
                flate2::read::GzDecoder::new(&self.body[..]).read_to_end(&mut out).unwrap();
                out
            }
            _ => self.body.clone(),
        }
    }

    /// The (decoded) body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.decoded()).unwrap_or_else(|err| {
            panic!("not json ({err}): {:?}", String::from_utf8_lossy(&self.body))
        })
    }
}

/// The status line and header lines of a response head (without the blank line).
fn parse_head(head: &[u8]) -> Reply {
    let text = std::str::from_utf8(head).expect("utf-8 response head");
    let mut lines = text.split("\r\n");
    let status_line = lines.next().unwrap().to_owned();
    let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .map(|line| {
            let (name, value) = line.split_once(':').expect("a header line");
            (name.to_owned(), value.trim().to_owned())
        })
        .collect();
    Reply { status_line, status, headers, body: Vec::new() }
}

/// Sends `raw` (a whole request, which should ask for `Connection: close`) on a new
/// blocking connection and reads the response until the server closes; for tests that
/// run no async runtime of their own.
pub fn exchange_blocking(addr: SocketAddr, raw: &[u8]) -> Reply {
    exchange_on(std::net::TcpStream::connect(addr).expect("connect"), raw)
}

/// [`exchange_blocking`] from the loopback address `source` (e.g. `127.0.0.2`), so that a
/// test can play a second client address.
pub fn exchange_blocking_from(source: std::net::IpAddr, addr: SocketAddr, raw: &[u8]) -> Reply {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().build().unwrap();
    let stream = runtime
        .block_on(async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(source, 0))?;
            socket.connect(addr).await
        })
        .expect("connect from the source address");
    let stream = stream.into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    exchange_on(stream, raw)
}

/// Sends `raw` on `stream` and reads the reply until the server closes it.
fn exchange_on(mut stream: std::net::TcpStream, raw: &[u8]) -> Reply {
    use std::io::Write;
    stream.set_read_timeout(Some(STUCK * 4)).unwrap();
    stream.write_all(raw).unwrap();
    let mut received = Vec::new();
    stream.read_to_end(&mut received).unwrap();
    let end = received.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
    let mut reply = parse_head(&received[..end]);
    reply.body = received[end + 4..].to_vec();
    reply
}

/// `GET path` with `Connection: close` on a new blocking connection to `addr`
/// (`host:port`).
pub fn get_blocking(addr: &str, path: &str) -> Reply {
    let addr = addr.parse().unwrap_or_else(|err| panic!("bad address {addr:?}: {err}"));
    exchange_blocking(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// The `_meta` object a 2026-07-28 client puts in every request's `params`, as JSON text.
pub const MODERN_META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The header fields a 2026-07-28 client sends with a JSON-RPC request for `method` (and
/// `name`, the tool or prompt, when it names one), as `(name, value)` pairs: JSON content
/// accepted as JSON or an event stream, and the MCP routing headers.
pub fn mcp_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
    ];
    headers.extend(name.map(|name| ("mcp-name", name)));
    headers
}

/// The raw `POST /` of the JSON-RPC `body` as a 2026-07-28 client sends it, asking for
/// `Connection: close`: `Host: host`, the `extra` header lines, and [`mcp_headers`] for the
/// body's `method` and `params.name`.
pub fn mcp_post(host: &str, extra: &[&str], body: &str) -> String {
    let request: serde_json::Value = serde_json::from_str(body).expect("a JSON-RPC body");
    let method = request["method"].as_str().expect("a JSON-RPC method");
    let fields = mcp_headers(method, request["params"]["name"].as_str());
    let mut head = format!("POST / HTTP/1.1\r\nHost: {host}\r\n");
    for line in extra {
        head.push_str(&format!("{line}\r\n"));
    }
    for (name, value) in fields {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    format!("{head}Content-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
}

/// One raw keep-alive connection.
pub struct Client {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Client {
    /// Connects to `addr`.
    pub async fn connect(addr: SocketAddr) -> Client {
        Client { stream: TcpStream::connect(addr).await.expect("connect"), buf: Vec::new() }
    }

    /// Connects to `addr` from the loopback address `source` (e.g. `127.0.0.2`), so
    /// that a test can play a second client address.
    pub async fn connect_from(addr: SocketAddr, source: std::net::IpAddr) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.bind(SocketAddr::new(source, 0)).expect("bind the source address");
        Client { stream: socket.connect(addr).await.expect("connect"), buf: Vec::new() }
    }

    /// Sends raw bytes.
    pub async fn send(&mut self, raw: &str) {
        self.stream.write_all(raw.as_bytes()).await.unwrap();
    }

    /// Sends bytes; false if the server has already closed the connection.
    pub async fn try_send(&mut self, raw: &str) -> bool {
        self.stream.write_all(raw.as_bytes()).await.is_ok()
    }

    /// Sends `method target` with the given header lines and reads the reply.
    pub async fn request(&mut self, method: &str, target: &str, headers: &[&str]) -> Reply {
        let mut head = format!("{method} {target} HTTP/1.1\r\nHost: test\r\n");
        for line in headers {
            head.push_str(line);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        self.send(&head).await;
        self.reply(method == "HEAD").await
    }

    /// Sends a request head (without its blank line) asking `Expect: 100-continue`,
    /// and waits for the `100`: hyper sends it only once the service reads the body,
    /// so afterwards the request is certainly in flight.
    pub async fn reading_body(&mut self, head: &str) {
        self.send(&format!("{head}Expect: 100-continue\r\n\r\n")).await;
        assert_eq!(self.reply(true).await.status, 100);
    }

    /// Reads one response; `head` says it answers a HEAD request (no body follows).
    pub async fn reply(&mut self, head: bool) -> Reply {
        tokio::time::timeout(STUCK, self.read_reply(head)).await.expect("no reply in time")
    }

    /// Reads one response to a GET, or `None` if the connection closes before any byte
    /// of one arrives. A response cut short still fails.
    pub async fn try_reply(&mut self) -> Option<Reply> {
        while self.buf.is_empty() {
            if self.fill().await == 0 {
                return None;
            }
        }
        Some(self.read_reply(false).await)
    }

    async fn read_reply(&mut self, head: bool) -> Reply {
        let end = loop {
            if let Some(at) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break at;
            }
            assert!(self.fill().await > 0, "connection closed before a reply");
        };
        let mut reply = parse_head(&self.buf[..end]);
        self.buf.drain(..end + 4);
        let length = match reply.header("content-length") {
            Some(length) if !head && reply.status != 304 && reply.status != 100 => {
                length.parse().unwrap()
            }
            _ => 0,
        };
        while self.buf.len() < length {
            assert!(self.fill().await > 0, "connection closed mid-body");
        }
        reply.body = self.buf.drain(..length).collect();
        reply
    }

    /// Waits at most `wait` for any bytes; true if nothing arrived (and no EOF).
    pub async fn silent_for(&mut self, wait: Duration) -> bool {
        tokio::time::timeout(wait, self.fill()).await.is_err()
    }

    /// Reads until the server closes the connection; fails if it takes [`STUCK`].
    pub async fn closed(&mut self) {
        let until_eof = async { while self.fill().await > 0 {} };
        tokio::time::timeout(STUCK, until_eof).await.expect("connection not closed");
    }

    /// Reads more bytes into the buffer; 0 on EOF or reset.
    async fn fill(&mut self) -> usize {
        let mut chunk = [0; 8192];
        let read = self.stream.read(&mut chunk).await.unwrap_or(0);
        self.buf.extend_from_slice(&chunk[..read]);
        read
    }
}
