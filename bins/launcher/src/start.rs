//! The one start-up of a server process, for the feed server, the tool server or both
//! (`dcx serve`): logs, runtime, SIGHUP handler, open-file limit, data, start-up lines,
//! bind, metrics, reload loop, then the services until SIGINT/SIGTERM.

use std::{net::SocketAddr, process::ExitCode, sync::Arc, time::Duration};

use crate::{ServerFlags, ToolFlags, runtime, signals};

/// The default feed server, target of the tool server's `tracking_url` links.
pub const DEFAULT_FEED_URL: &str = "http://127.0.0.1:8080";

/// The feed server of a process: where it listens.
#[derive(Debug, Clone)]
pub struct FeedServer {
    /// Its listen address.
    pub listen: SocketAddr,
}

/// The tool server of a process: where it listens, and its own flags.
#[derive(Debug, Clone)]
pub struct ToolServer {
    /// Its listen address.
    pub listen: SocketAddr,
    /// Public URL, docs URL and allowed origins.
    pub flags: ToolFlags,
    /// Base URL of the feed server its `tracking_url` links point at; `None`: the feed
    /// server of the same process, else [`DEFAULT_FEED_URL`].
    pub feed_url: Option<String>,
}

/// What a process serves.
#[derive(Debug, Clone)]
pub enum Services {
    /// The REST feed server (`feed-server`).
    Feeds(FeedServer),
    /// The MCP tool server (`tool-server`).
    Tools(ToolServer),
    /// Both on one copy of the data, reloaded once for both (`dcx serve`).
    Both(FeedServer, ToolServer),
}

/// The process that serves: its name in every log line, its version (the binary's, the
/// release's) in the start-up line, `/health` and the metrics.
#[derive(Debug, Clone, Copy)]
pub struct Process {
    /// `feed-server`, `tool-server`, `dcx serve`.
    pub name: &'static str,
    /// The binary's `CARGO_PKG_VERSION`.
    pub version: &'static str,
}

/// A boxed error of the start-up.
type Error = Box<dyn std::error::Error + Send + Sync>;

/// Serves `services` as the flags say until SIGINT/SIGTERM, as `process`: exit code 0 after a drain, 1 after a fatal error (logged), 2 for a
/// bad `RUST_LOG` or log format (printed before anything starts).
pub fn run(process: Process, flags: ServerFlags, services: Services) -> ExitCode {
    // Kept to the end: dropping it writes the lines still queued, the fatal one too.
    let _logs = match flags.logs.init() {
        Ok(logs) => logs,
        Err(err) => {
            eprintln!("{}: {err}", process.name);
            return ExitCode::from(2);
        }
    };
    let served = runtime::block_on_workers(serve(process, flags, services));
    match served.map_err(Into::into).and_then(|served| served) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            telemetry::fatal(process.name, &*err);
            ExitCode::FAILURE
        }
    }
}

async fn serve(process: Process, mut flags: ServerFlags, services: Services) -> Result<(), Error> {
    let Process { name: process, version } = process;
    // First of all: a SIGHUP while the data loads reloads once serving, never ends us.
    let hangups = signals::Hangups::install();
    let (feeds, tools) = match services {
        Services::Feeds(feeds) => (Some(feeds), None),
        Services::Tools(tools) => (None, Some(tools)),
        Services::Both(feeds, tools) => (Some(feeds), Some(tools)),
    };
    // Servers at the cap share the open-file limit.
    let servers = u64::from(feeds.is_some()) + u64::from(tools.is_some());
    if let Some(lowered) = flags.connections.fit_open_files(servers) {
        telemetry::note(process, &lowered);
    }
    // One copy of the data for every server, reloaded by one loop (SIGHUP, and the poll
    // of a history folder) for all.
    let (live, skipped) =
        datasets::Live::open_with_clock(flags.data.source(), Arc::new(std::time::SystemTime::now))?;
    skipped.iter().for_each(|day| telemetry::skipped(process, day));
    telemetry::started(process, version, &live);
    if feeds.is_some()
        && let Some(note) = feeds::sample_note(&live.history())
    {
        telemetry::note(process, note);
    }
    let live = Arc::new(live);
    let feed_listener = match &feeds {
        Some(feeds) => Some(serve::bind(feeds.listen).await?),
        None => None,
    };
    let tool_listener = match &tools {
        Some(tools) => Some(serve::bind(tools.listen).await?),
        None => None,
    };
    let clock: serve::Clock = Arc::new(std::time::SystemTime::now);
    let metrics = flags.metrics.start(version, &live, &clock).await?;
    let report = telemetry::on_reload(process, metrics.clone());
    let _reloads = signals::spawn_reloads(Arc::clone(&live), flags.data.poll(), hangups, report);

    // One server alone logs under the process's name; two under their own.
    let both = feed_listener.is_some() && tool_listener.is_some();
    let events = |server: &'static str, routes: &[&'static str]| {
        let counted = metrics.as_ref().map(|metrics| metrics.server(server, routes));
        telemetry::on_event(if both { server } else { process }, counted)
    };
    let grace = Duration::from_secs(flags.grace_secs);
    // The tool server links to the feed server given, else to the one beside it.
    let feed_url = match (tools.as_ref().and_then(|tools| tools.feed_url.clone()), &feed_listener) {
        (Some(url), _) => url,
        (None, Some(listener)) => format!("http://{}", listener.local_addr()?),
        (None, None) => DEFAULT_FEED_URL.to_owned(),
    };
    let feed_server = async {
        let Some(listener) = feed_listener else { return };
        let mut config = feeds::Config::new(Arc::clone(&live), Arc::clone(&clock));
        config.access_log = flags.access_log;
        config.metrics = metrics.is_some();
        config.limits.grace = grace;
        flags.connections.apply(&mut config.limits);
        config.version = version;
        let routes = feeds::Route::ALL.map(feeds::Route::path);
        feeds::run(config, listener, signals::shutdown_signal(), events("feeds", &routes)).await
    };
    let tool_server = async {
        let (Some(listener), Some(tools)) = (tool_listener, tools) else { return Ok(()) };
        let (live, clock) = (Arc::clone(&live), Arc::clone(&clock));
        let mut config = tool_config(&flags, &tools.flags, feed_url, live, clock);
        config.metrics = metrics.is_some();
        config.on_tool_call = metrics.as_ref().map(telemetry::Metrics::tool_call_hook);
        let events = events("tools", &tools::ROUTES);
        tools::run(config, listener, signals::shutdown_signal(), events).await
    };
    let ((), tools) = tokio::join!(feed_server, tool_server);
    Ok(tools?)
}

/// The tool server's configuration from the flags, around the opened data and the
/// clock; the feed server's URL without a trailing `/`, however it was given.
pub fn tool_config(
    flags: &ServerFlags,
    tool_flags: &ToolFlags,
    feed_url: String,
    live: Arc<datasets::Live>,
    clock: serve::Clock,
) -> tools::Config {
    let mut config = tools::Config::new(live, clock);
    config.public_url = tool_flags.public_url.clone();
    config.docs_url = tool_flags.docs_url.clone();
    config.links = tools::price::Links::new(&feed_url);
    config.allowed_origins = tool_flags.allowed_origins.clone();
    config.access_log = flags.access_log;
    config.limits.grace = Duration::from_secs(flags.grace_secs);
    flags.connections.apply(&mut config.limits);
    config
}
