//! Test harness: the feed server on `127.0.0.1:0`, a raw HTTP/1.1 client, temporary
//! history folders, and the consistency check every response must pass.

use std::{
    io::Read,
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use datasets::{Feed, Source};
use feeds::{Config, Feeds};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::oneshot,
    task::JoinHandle,
};

/// Longest any single step of a test may take before it is declared stuck.
pub(crate) const STUCK: Duration = Duration::from_secs(5);

/// The reference snapshot's `ts`, 2026-11-20T00:00:00Z, in unix seconds.
pub(crate) const REFERENCE_TS: i64 = 1_795_132_800;

/// Six hours after the reference snapshot: `max-age` is 18 h.
pub(crate) fn clock() -> i64 {
    REFERENCE_TS + 6 * 3600
}

/// A config for tests: the given source, no polling, short grace, the fixed clock.
pub(crate) fn config(source: Source) -> Config {
    let mut config = Config::new(clock);
    config.source = source;
    config.poll = None;
    config.limits.grace = Duration::from_secs(2);
    config.version = "9.9.9";
    config
}

/// A running feed server and the lines of every event it reported.
pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    pub(crate) feeds: Arc<Feeds>,
    shutdown: Option<oneshot::Sender<()>>,
    done: JoinHandle<()>,
    events: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub(crate) async fn start(config: Config) -> Server {
        let (feeds, _notes) = Feeds::open(config).unwrap();
        let feeds = Arc::new(feeds);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (shutdown, signal) = oneshot::channel::<()>();
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        let done = tokio::spawn(feeds::serve(
            Arc::clone(&feeds),
            listener,
            async move {
                let _ = signal.await;
            },
            move |event| sink.lock().unwrap().push(event.to_string()),
        ));
        Server { addr, feeds, shutdown: Some(shutdown), done, events }
    }

    /// A server on the embedded reference snapshot.
    pub(crate) async fn reference() -> Server {
        Server::start(config(Source::Embedded)).await
    }

    pub(crate) async fn connect(&self) -> Client {
        Client { stream: TcpStream::connect(self.addr).await.unwrap(), buf: Vec::new() }
    }

    /// One request on a fresh connection.
    pub(crate) async fn request(&self, method: &str, target: &str, headers: &[&str]) -> Reply {
        let mut client = self.connect().await;
        client.request(method, target, headers).await
    }

    pub(crate) async fn get(&self, target: &str) -> Reply {
        self.request("GET", target, &[]).await
    }

    /// Completes the shutdown future.
    pub(crate) fn shutdown(&mut self) {
        let _ = self.shutdown.take().unwrap().send(());
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.done.is_finished()
    }

    /// Waits for `serve` to return; the event lines.
    pub(crate) async fn finished(self) -> Vec<String> {
        tokio::time::timeout(STUCK, self.done).await.expect("serve did not return").unwrap();
        self.events.lock().unwrap().clone()
    }
}

/// A parsed response.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body, gunzipped when `Content-Encoding: gzip`.
    pub(crate) fn decoded(&self) -> Vec<u8> {
        match self.header("content-encoding") {
            Some("gzip") => {
                let mut out = Vec::new();
                flate2::read::GzDecoder::new(&self.body[..]).read_to_end(&mut out).unwrap();
                out
            }
            _ => self.body.clone(),
        }
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.decoded()).unwrap_or_else(|err| {
            panic!("not json ({err}): {:?}", String::from_utf8_lossy(&self.body))
        })
    }
}

/// One raw keep-alive connection.
pub(crate) struct Client {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Client {
    pub(crate) async fn send(&mut self, raw: &str) {
        self.stream.write_all(raw.as_bytes()).await.unwrap();
    }

    /// Sends bytes; false if the server has already closed the connection.
    pub(crate) async fn try_send(&mut self, raw: &str) -> bool {
        self.stream.write_all(raw.as_bytes()).await.is_ok()
    }

    /// Sends `method target` with the given header lines and reads the reply.
    pub(crate) async fn request(&mut self, method: &str, target: &str, headers: &[&str]) -> Reply {
        let mut head = format!("{method} {target} HTTP/1.1\r\nHost: feeds.test\r\n");
        for line in headers {
            head.push_str(line);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        self.send(&head).await;
        self.reply(method == "HEAD").await
    }

    /// Reads one response; `head` says it answers a HEAD request (no body follows).
    pub(crate) async fn reply(&mut self, head: bool) -> Reply {
        tokio::time::timeout(STUCK, self.read_reply(head)).await.expect("no reply in time")
    }

    /// Reads one response to a GET, or `None` if the connection closes before any
    /// byte of one arrives. A response cut short still fails.
    pub(crate) async fn try_reply(&mut self) -> Option<Reply> {
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
            Some(length) if !head && status != 304 && status != 100 => length.parse().unwrap(),
            _ => 0,
        };
        while self.buf.len() < length {
            assert!(self.fill().await > 0, "connection closed mid-body");
        }
        reply.body = self.buf.drain(..length).collect();
        reply
    }

    /// Reads until the server closes the connection.
    pub(crate) async fn closed(&mut self) {
        let until_eof = async { while self.fill().await > 0 {} };
        tokio::time::timeout(STUCK, until_eof).await.expect("connection not closed");
    }

    async fn fill(&mut self) -> usize {
        let mut chunk = [0; 8192];
        let read = self.stream.read(&mut chunk).await.unwrap_or(0);
        self.buf.extend_from_slice(&chunk[..read]);
        read
    }
}

/// FNV-1a 64, the content hash behind `serve`'s strong ETags.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Asserts that a `200` feed response is whole and from one snapshot: the ETag is the
/// hash of the identity body, and `Last-Modified` is the `ts` inside the body.
/// Returns that `ts`.
#[track_caller]
pub(crate) fn assert_consistent(reply: &Reply) -> String {
    assert_eq!(reply.status, 200, "{reply:?}");
    let identity = reply.decoded();
    let mut etag = format!("\"{:016x}", fnv1a64(&identity));
    if reply.header("content-encoding") == Some("gzip") {
        etag.push_str("-gz");
    }
    etag.push('"');
    assert_eq!(reply.header("etag"), Some(etag.as_str()));
    let ts = reply.json()["ts"].as_str().unwrap().to_owned();
    let unix = chrono::DateTime::parse_from_rfc3339(&ts).unwrap().timestamp();
    assert_eq!(reply.header("last-modified"), Some(serve::http_date(unix).as_str()));
    ts
}

/// A fresh, empty temporary folder for one test.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("feeds-it-{}-{name}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the reference snapshot into `dir/<date>/` with every feed's `ts` set to
/// `<date>T00:00:00Z`, and `edit` applied to each feed's text.
pub(crate) fn write_day(dir: &Path, date: &str, edit: impl Fn(Feed, String) -> String) {
    let day = dir.join(date);
    std::fs::create_dir_all(&day).unwrap();
    for feed in Feed::ALL {
        let text = test_support::fixture(&format!("snapshot/{}", feed.file_name()));
        let text = text.replace("2026-11-20T00:00:00Z", &format!("{date}T00:00:00Z"));
        std::fs::write(day.join(feed.file_name()), edit(feed, text)).unwrap();
    }
}

/// [`write_day`] without further edits.
pub(crate) fn write_plain_day(dir: &Path, date: &str) {
    write_day(dir, date, |_, text| text);
}
