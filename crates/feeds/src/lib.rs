//! The REST feed service: the five snapshot feeds, `/health`, `/`, `/track` and `/check`, served
//! like a good CDN origin (strong ETags, `Last-Modified`, 304s, gzip, CORS, a
//! `Cache-Control` lifetime that ends at the next expected refresh).
//!
//! The moving parts:
//!
//! * [`Config`] says what to serve (a shared [`datasets::Live`]) and how; a binary builds
//!   it from its arguments and the opened data.
//! * [`Feeds::new`] builds, **once per snapshot history**, every precomputed
//!   [`serve::Representation`] (identity and gzip bytes, ETags), and again whenever a
//!   reload of the `Live` swaps a new history in ([`datasets::Live::on_swap`]). [`Feeds`]
//!   is the [`serve::Handler`]: each request takes one `Arc` of that per-history state,
//!   so a response's body, `ETag`, `Last-Modified` and `ts` always belong together,
//!   however a reload interleaves.
//! * [`run`] serves until `shutdown` completes, as `tools::run` does. Reloads are not
//!   its business: the binary starts the one reload loop of the `Live`
//!   (`launcher::spawn_reloads`), which `dcx serve` shares with the tool server.
//!
//! **Architecture invariant:** this crate never prints and never reads the clock: the
//! current time comes from [`Config::clock`], and everything worth logging is passed to
//! the caller's callback as a [`serve::Event`]. It knows nothing of the tool server.
//!
//! Unit tests sit next to their modules (`<module>/tests.rs`); socket-level tests,
//! including the replay of every curl example in `docs/api.md`, are in
//! `tests/it/main.rs`, on `127.0.0.1:0` only.
#![deny(missing_docs)]

mod cache;
mod check;
mod document;
mod handler;
mod home_page;
mod page;
mod query;
mod routes;
mod served;
mod stone;
mod track;
mod tracked;

use std::{future::Future, sync::Arc};

use tokio::net::TcpListener;

pub use crate::{
    cache::{MIN_MAX_AGE, cache_control},
    document::Document,
    handler::Feeds,
    page::{CONTENT_SECURITY_POLICY, sample_note},
    routes::Route,
};

/// Seconds after a snapshot's `ts` when the next one is expected.
pub const REFRESH_SECS: i64 = 86_400;

/// The methods every route answers, as sent in `Allow`.
pub const ALLOW: &str = "GET, HEAD, OPTIONS";

/// How to serve, and what.
#[derive(Clone)]
pub struct Config {
    /// The data served; reloads swap it atomically, each request takes one history.
    pub live: Arc<datasets::Live>,
    /// Connection, body and time limits. The default refuses any request body
    /// (`max_body_bytes = 0`, answered `413` by `serve`).
    pub limits: serve::Limits,
    /// Report every answered request as a [`serve::Event::Access`] line.
    pub access_log: bool,
    /// Report what metrics count: per request and per connection ([`serve::Reporting`]);
    /// routes are labelled by their [`Route::path`], in the order of [`Route::ALL`].
    pub metrics: bool,
    /// The server's name, reported by `/health` and `/`.
    pub name: &'static str,
    /// The server's version, reported by `/health` and `/`.
    pub version: &'static str,
    /// The current time (for `Cache-Control`); the crate never reads the clock itself.
    pub clock: serve::Clock,
}

impl Config {
    /// Defaults around `live` and `clock`: default limits without request bodies, no
    /// access log, named `feed-server` with this crate's version.
    pub fn new(live: Arc<datasets::Live>, clock: serve::Clock) -> Config {
        Config {
            live,
            limits: serve::Limits { max_body_bytes: 0, ..serve::Limits::default() },
            access_log: false,
            metrics: false,
            name: "feed-server",
            version: env!("CARGO_PKG_VERSION"),
            clock,
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("source", self.live.source())
            .field("limits", &self.limits)
            .field("access_log", &self.access_log)
            .field("metrics", &self.metrics)
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// Serves the feeds of `config.live` on `listener` until `shutdown` completes, then
/// drains within `config.limits.grace`. Every [`serve::Event`] (listening, shutdown,
/// drained, access lines) goes to `events`.
pub async fn run(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
    events: impl Fn(&serve::Event<'_>) + Send + Sync + 'static,
) {
    let limits = config.limits.clone();
    let reporting = serve::Reporting { access_log: config.access_log, metrics: config.metrics };
    let handler: Arc<dyn serve::Handler> = Arc::new(Feeds::new(config));
    serve::serve(listener, handler, limits, shutdown, events, reporting).await;
}
