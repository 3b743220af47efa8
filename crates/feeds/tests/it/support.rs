//! Test harness: the feed server on `127.0.0.1:0`, the shared raw HTTP/1.1 client, history
//! days written for a test, and the consistency check every response must pass.

use std::{
    net::SocketAddr,
    path::Path,
    sync::{Arc, Mutex},
    time::Duration,
};

pub(crate) use test_support::http::{Client, Reply};

use datasets::{Feed, Live, Source};
use feeds::Config;
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};

/// Longest any single step of a test may take before it is declared stuck.
pub(crate) const STUCK: Duration = Duration::from_secs(5);

/// The reference snapshot's `ts`, 2026-11-20T00:00:00Z, in unix seconds.
pub(crate) const REFERENCE_TS: i64 = 1_795_132_800;

/// Six hours after the reference snapshot: `max-age` is 18 h.
pub(crate) fn clock() -> serve::Clock {
    let now = chrono::DateTime::from_timestamp(REFERENCE_TS + 6 * 3600, 0).unwrap();
    Arc::new(move || std::time::SystemTime::from(now))
}

/// A config for tests: the given source opened, short grace, the fixed clock.
pub(crate) fn config(source: Source) -> Config {
    let live = Arc::new(Live::open(source).unwrap().0);
    let mut config = Config::new(live, clock());
    config.limits.grace = Duration::from_secs(2);
    config.version = "9.9.9";
    config
}

/// A running feed server and the lines of every event it reported.
pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    /// The data served: a test reloads it as the binaries' reload loop would.
    pub(crate) live: Arc<Live>,
    shutdown: Option<oneshot::Sender<()>>,
    done: JoinHandle<()>,
    events: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub(crate) async fn start(config: Config) -> Server {
        let live = Arc::clone(&config.live);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (shutdown, signal) = oneshot::channel::<()>();
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        let done = tokio::spawn(feeds::run(
            config,
            listener,
            async move {
                let _ = signal.await;
            },
            move |event| sink.lock().unwrap().push(event.to_string()),
        ));
        Server { addr, live, shutdown: Some(shutdown), done, events }
    }

    /// A server on the embedded reference snapshot.
    pub(crate) async fn reference() -> Server {
        Server::start(config(Source::Embedded)).await
    }

    /// Reloads the data as the binaries' reload loop does (off the request path); the
    /// outcome's log line.
    pub(crate) async fn reload(&self) -> String {
        let live = Arc::clone(&self.live);
        tokio::task::spawn_blocking(move || live.reload().to_string()).await.unwrap()
    }

    /// The `ts` of the snapshot served.
    pub(crate) fn live_ts(&self) -> String {
        self.live.history().live().ts_text().to_owned()
    }

    pub(crate) async fn connect(&self) -> Client {
        Client::connect(self.addr).await
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
    let at = chrono::DateTime::parse_from_rfc3339(&ts).unwrap();
    let http_date = at.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
    assert_eq!(reply.header("last-modified"), Some(http_date.as_str()));
    ts
}

/// Writes the reference snapshot into `dir/<date>/` with every feed's `ts` set to
/// `<date>T00:00:00Z`, and `edit` applied to each feed's text (`matrix_stats.json`, not
/// a feed, is written as it is, with the day's `ts`).
pub(crate) fn write_day(dir: &Path, date: &str, edit: impl Fn(Feed, String) -> String) {
    test_support::write_day(dir, date, |name, text| match Feed::from_file_name(name) {
        Some(feed) => edit(feed, text),
        None => text,
    });
}

/// [`write_day`] without further edits.
pub(crate) fn write_plain_day(dir: &Path, date: &str) {
    write_day(dir, date, |_, text| text);
}
