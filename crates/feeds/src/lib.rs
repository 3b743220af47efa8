//! The REST feed service: the five snapshot feeds, `/health`, `/`, and `/track`, served
//! like a good CDN origin (strong ETags, `Last-Modified`, 304s, gzip, CORS, a
//! `Cache-Control` lifetime that ends at the next expected refresh).
//!
//! The moving parts:
//!
//! * [`Config`] says where the data comes from and how to serve it; it is plain data, so
//!   a binary builds it from its arguments before any I/O.
//! * [`Feeds::open`] loads and validates the data and builds, **once per snapshot
//!   history**, every precomputed [`serve::Representation`] (identity and gzip bytes,
//!   ETags). [`Feeds`] is the [`serve::Handler`]: each request takes one `Arc` of that
//!   per-history state, so a response's body, `ETag`, `Last-Modified` and `ts` always
//!   belong together, however a reload interleaves.
//! * [`Feeds::reload`] reads the source again off the request path and swaps the new
//!   history in together with its representations, or refuses it and keeps serving.
//! * [`serve`] runs the server (SIGHUP and polling reloads included) until `shutdown`
//!   completes; [`run`] is `open` plus `serve` in one call, for binaries that compose
//!   several services (`dcx serve`).
//!
//! **Architecture invariant:** this crate never prints and never reads the clock: the
//! current time comes from [`Config::clock`], and everything worth logging is passed to
//! the caller's callback as an [`Event`]. It knows nothing of the tool server.
//!
//! Unit tests sit next to their modules (`<module>/tests.rs`); socket-level tests,
//! including the replay of every curl example in `docs/api.md`, are in
//! `tests/it/main.rs`, on `127.0.0.1:0` only.
#![deny(missing_docs)]

mod cache;
mod event;
mod handler;
mod index_page;
mod query;
mod routes;
mod served;
mod track;

use std::{future::Future, sync::Arc, time::Duration};

use tokio::net::TcpListener;

pub use crate::{
    cache::{MIN_MAX_AGE, cache_control},
    event::Event,
    handler::Feeds,
    routes::Route,
};

/// Seconds after a snapshot's `ts` when the next one is expected.
pub const REFRESH_SECS: i64 = 86_400;

/// The methods every route answers, as sent in `Allow`.
pub const ALLOW: &str = "GET, HEAD, OPTIONS";

/// How to serve, and where the data comes from.
#[derive(Debug, Clone)]
pub struct Config {
    /// The snapshot(s) to serve, read by [`Feeds::open`] ([`Feeds::with_live`] takes
    /// data already opened instead).
    pub source: datasets::Source,
    /// Connection, body and time limits. The default refuses any request body
    /// (`max_body_bytes = 0`, answered `413` by `serve`).
    pub limits: serve::Limits,
    /// How often a history folder is read again for a new day; `None` or zero disables
    /// polling. SIGHUP always triggers a reload. Only a [`datasets::Source::History`] is
    /// polled ([`datasets::Source::poll_period`]).
    pub poll: Option<Duration>,
    /// Report every answered request as an [`Event::Server`] access line.
    pub access_log: bool,
    /// The server's name, reported by `/health` and `/`.
    pub name: &'static str,
    /// The server's version, reported by `/health` and `/`.
    pub version: &'static str,
    /// The current time in unix seconds; the crate never reads the clock itself.
    pub clock: fn() -> i64,
}

impl Config {
    /// The embedded reference snapshot, default limits without request bodies, a 60 s
    /// history poll, no access log, named `feed-server` with this crate's version.
    pub fn new(clock: fn() -> i64) -> Config {
        Config {
            source: datasets::Source::Embedded,
            limits: serve::Limits { max_body_bytes: 0, ..serve::Limits::default() },
            poll: Some(Duration::from_secs(60)),
            access_log: false,
            name: "feed-server",
            version: env!("CARGO_PKG_VERSION"),
            clock,
        }
    }
}

/// Loads `config.source` and serves it on `listener` until `shutdown` completes, then
/// drains within `config.limits.grace`.
///
/// This is the one call another binary needs to embed the feed server: startup notes
/// (e.g. skipped history days), reloads, and the `serve` events (listening, shutdown,
/// drained, access lines) all arrive through `events`, one line each.
///
/// Fails only when the source holds no valid snapshot at startup; nothing is bound
/// or served then.
pub async fn run(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
    events: impl Fn(&Event<'_>) + Send + Sync + 'static,
) -> Result<(), datasets::Error> {
    let (feeds, notes) = Feeds::open(config)?;
    for note in &notes {
        events(&Event::Data(note));
    }
    serve(Arc::new(feeds), listener, shutdown, events).await;
    Ok(())
}

/// Serves already opened `feeds` on `listener` until `shutdown` completes.
///
/// A reload loop runs alongside: on SIGHUP, and every [`Config::poll`] for a history
/// source, [`Feeds::reload`] runs on a blocking thread and its outcome (if anything
/// changed or was refused) is reported as [`Event::Data`]. Returns once draining is over.
pub async fn serve(
    feeds: Arc<Feeds>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
    events: impl Fn(&Event<'_>) + Send + Sync + 'static,
) {
    let events = Arc::new(events);
    let config = feeds.config().clone();
    let poll = feeds.live().source().poll_period(config.poll);
    let reloader = {
        let (feeds, events) = (Arc::clone(&feeds), Arc::clone(&events));
        tokio::spawn(serve::reload_loop(
            move || feeds.reload().unwrap_or_default(),
            poll,
            move |line| {
                if !line.is_empty() {
                    events(&Event::Data(&line));
                }
            },
        ))
    };
    let handler: Arc<dyn serve::Handler> = feeds;
    serve::serve(
        listener,
        handler,
        config.limits,
        shutdown,
        move |event| events(&Event::Server(event)),
        config.access_log,
    )
    .await;
    reloader.abort();
}
