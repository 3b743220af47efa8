//! The MCP tool service: the four pricing tools (`get_diamond_price`, `get_dcx_index`,
//! `get_market_depth`, `check_asking_price`), their schemas, the resources (the live
//! feeds, two documents, a template for a day of the history), two prompts and argument
//! completion, and the JSON-RPC dispatch over HTTP and stdio, in both protocol eras
//! (2026-07-28, stateless; and 2025-11-25 / 2025-06-18 / 2025-03-26, the `initialize`
//! handshake). [`Mcp`] answers one message without a transport; [`serve_stdio`] runs it
//! over newline-delimited pipes.
//!
//! [`run`] serves a [`Config`] on a listener until a shutdown future completes; the
//! binaries (`tool-server`, `dcx serve`) call it once. [`handler`] builds the same
//! [`ToolService`] for in-process use: it is a [`serve::Handler`], a synchronous function
//! from one fully read request to one response.
//!
//! **Architecture invariant:** tool results are built from one [`datasets::Snapshot`]
//! taken once per request; no tool reads the clock (the caller injects a [`Clock`]) or the
//! file system, and nothing here prints: events go to the caller's callback.
//! `dcx quote --json` and the MCP tool share [`price::price`].
//!
//! Unit tests sit next to each module (`<module>/tests.rs`); the socket-level golden
//! replays, the schema checks and the no-panic properties are in `tests/it/main.rs`.
#![deny(missing_docs)]

mod apps;
pub mod args;
mod catalog;
mod check;
mod completion;
mod config;
mod depth;
mod docs_page;
mod evidence;
mod http;
mod index;
mod manifest;
mod mcp;
mod memo;
mod origin;
pub mod price;
mod prompts;
mod resources;
mod schemas;
mod service;
mod stdio;
mod text;
mod twin;

use std::{future::Future, sync::Arc};

use tokio::net::TcpListener;

/// A JSON object read from a request (tool arguments are one), as `jsonrpc` reads it.
pub use jsonrpc::Object;
/// The transport a message came over, and the header view [`Mcp::answer`] takes.
pub use jsonrpc::{HeaderView, Transport};
/// The injected clock, the same type as the feed server's.
pub use serve::Clock;

pub use crate::{
    catalog::{Tool, tool_definitions},
    config::{Config, SERVER_NAME, SERVER_VERSION, parse_url},
    manifest::{health, manifest},
    mcp::{CallOutcome, Mcp, Message, Reply, ToolCallHook, ToolCalled},
    origin::origin_allowed,
    service::{ROUTES, ToolService, handler},
    stdio::{LineEvent, MAX_LINE_BYTES, serve_stdio},
};

/// Serves the tools over `config.live` on `listener` until `shutdown` completes, then
/// drains within `config.limits.grace`. Every [`serve::Event`] goes to `events`.
///
/// The one call a binary needs, the same as `feeds::run` for the feed server. Reloads
/// are the binary's: it starts the one reload loop of the `Live`
/// (`launcher::spawn_reloads`), which `dcx serve` shares with the feed server.
///
/// When `config.public_url` is `None` the advertised endpoint is
/// `http://<listener address>/`, so port 0 works.
pub async fn run(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
    events: impl Fn(&serve::Event<'_>) + Send + Sync + 'static,
) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    let service: Arc<dyn serve::Handler> = Arc::new(handler(&config, local));
    let reporting = serve::Reporting { access_log: config.access_log, metrics: config.metrics };
    serve::serve(listener, service, config.limits.clone(), shutdown, events, reporting).await;
    Ok(())
}
