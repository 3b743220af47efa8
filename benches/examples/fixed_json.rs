//! The load-bench baseline: a bare hyper HTTP/1.1 server answering every request with the
//! same bytes, so the bench scripts can show what a service costs on top of the socket and
//! HTTP work. Prints `listening on http://ADDR` on stderr.
//!
//! `fixed_json [ADDR] [BODY_FILE] [CONTENT_ENCODING]`: without `BODY_FILE` the body is a
//! small JSON-RPC result; with it, that file's bytes (for example the tool server's own
//! answer to the benched request, or a gzip feed), sent with `Content-Encoding` when given.
//!
//! With `BUSY_NANOS=N` in the environment, every answer first does about `N` ns of
//! pointless arithmetic (calibrated once at start, so it is a fixed amount of CPU work,
//! not of wall time): a calibration server that shows what a handler of that cost does to
//! throughput on this machine, next to the load generator.
use std::{
    convert::Infallible,
    hint::black_box,
    net::SocketAddr,
    time::{Duration, Instant},
};

use bytes::Bytes;
use http_body_util::Full;
use hyper::{
    Request, Response,
    body::Incoming,
    header::{self, HeaderValue},
    server::conn::http1,
    service::service_fn,
};
use hyper_util::rt::TokioIo;

const BODY: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"fixed"}]}}"#;

/// Iterations of [`busy_work`] timed at start to learn its speed.
const CALIBRATION_ROUNDS: u64 = 20_000_000;

/// A fixed amount of CPU work that the optimizer cannot remove.
fn busy_work(rounds: u64) -> u64 {
    (0..rounds).fold(0u64, |sum, i| black_box(sum.wrapping_add(i)))
}

/// How many rounds of [`busy_work`] take about `nanos` ns on this machine.
fn rounds_for(nanos: u64) -> u64 {
    let started = Instant::now();
    black_box(busy_work(CALIBRATION_ROUNDS));
    let per_round =
        started.elapsed().max(Duration::from_nanos(1)).as_secs_f64() / CALIBRATION_ROUNDS as f64;
    (nanos as f64 * 1e-9 / per_round) as u64
}

fn invalid(what: &str, err: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{what}: {err}"))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr: SocketAddr = args
        .next()
        .unwrap_or_else(|| "127.0.0.1:0".to_owned())
        .parse()
        .map_err(|err| invalid("address", err))?;
    let body = match args.next() {
        Some(path) => Bytes::from(std::fs::read(&path).map_err(|err| invalid(&path, err))?),
        None => Bytes::from_static(BODY),
    };
    let encoding = match args.next() {
        Some(name) => Some(HeaderValue::try_from(name).map_err(|err| invalid("encoding", err))?),
        None => None,
    };
    let busy_rounds = match std::env::var("BUSY_NANOS") {
        Ok(text) => rounds_for(text.parse().map_err(|err| invalid("BUSY_NANOS", err))?),
        Err(_) => 0,
    };
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let (body, encoding) = (body.clone(), encoding.clone());
        let answer = move |_request: Request<Incoming>| {
            black_box(busy_work(busy_rounds));
            let mut response = Response::new(Full::new(body.clone()));
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            if let Some(encoding) = &encoding {
                headers.insert(header::CONTENT_ENCODING, encoding.clone());
            }
            async move { Ok::<_, Infallible>(response) }
        };
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(answer))
                .await;
        });
    }
}
