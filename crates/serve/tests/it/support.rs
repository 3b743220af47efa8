//! Test harness: a tiny handler, a server on `127.0.0.1:0`; the raw HTTP/1.1
//! client is `test_support::http`.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use bytes::Bytes;
use hyper::{Response, StatusCode, header::HeaderValue};
use serve::{Body, Handler, Limits, Reporting, Representation, Request};
pub(crate) use test_support::http::Client;
use tokio::{
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
            return self.data.respond(&request, &HeaderValue::from_static("no-cache"));
        }
        let text = format!("{} {} {}", request.method, request.uri.path(), request.body.len());
        let mut response = Response::new(Body::new(Bytes::from(text)));
        *response.status_mut() = StatusCode::OK;
        response
    }

    /// Two routes of its own: `/data` and `/metered`.
    fn route(&self, path: &str) -> Option<usize> {
        ["/data", "/metered"].iter().position(|route| *route == path)
    }

    fn is_metered(&self, request: &Request) -> bool {
        request.uri.path() == "/metered"
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
        Server::start_reporting(limits, Reporting { access_log, metrics: false }).await
    }

    pub(crate) async fn start_reporting(limits: Limits, reporting: Reporting) -> Server {
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
            reporting,
        ));
        Server { addr, shutdown: Some(shutdown), done, events }
    }

    pub(crate) async fn connect(&self) -> Client {
        Client::connect(self.addr).await
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

    /// Whether a new connection is refused (the listener is gone).
    pub(crate) async fn connect_refused(&self) -> bool {
        TcpStream::connect(self.addr).await.is_err()
    }
}

/// Limits small enough for fast tests.
pub(crate) fn quick_limits() -> Limits {
    Limits {
        max_body_bytes: 16,
        max_header_bytes: 4096,
        max_connections_per_ip: 0,
        header_read_timeout: Duration::from_secs(5),
        body_read_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(5),
        max_connections: 8,
        grace: Duration::from_secs(1),
        ..Limits::default()
    }
}
