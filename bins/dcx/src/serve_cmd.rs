//! `dcx serve`: the whole service in one process: the REST feed server and the MCP tool
//! server, each on its own address, both on one shared copy of the data, reloaded once
//! on SIGHUP (and by the history poll) for both.

use std::{net::SocketAddr, process::ExitCode, sync::Arc, time::Duration};

use crate::Outcome;

/// Arguments of `dcx serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  dcx serve                                   the embedded snapshot on :8080 and :8081
  dcx serve --history /srv/dcx/history        the newest valid day live, polled every 60 s
  dcx serve --feed-url https://feeds.example.com --public-url https://mcp.example.com/

SIGHUP reloads the data for both servers; SIGINT/SIGTERM drain and stop.")]
pub(crate) struct Args {
    /// Address of the REST feed server; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8080")]
    feed_listen: SocketAddr,
    /// Address of the MCP tool server; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8081")]
    tool_listen: SocketAddr,
    #[command(flatten)]
    data: cli_flags::DataFlags,
    /// Public base URL of the feed server, used in `tracking_url` links
    /// [default: http://<feed listen address>].
    #[arg(long, value_parser = tools::parse_url)]
    feed_url: Option<String>,
    /// Public URL of the MCP endpoint [default: http://<tool listen address>/].
    #[arg(long, value_parser = tools::parse_url)]
    public_url: Option<String>,
    /// Where the tool server's `GET /` sends browsers [default: its own /docs page].
    #[arg(long, value_parser = tools::parse_url)]
    docs_url: Option<String>,
    /// An Origin the tool server allows besides loopback ones (repeatable), e.g.
    /// https://app.example.com.
    #[arg(long = "allowed-origin")]
    allowed_origins: Vec<String>,
    /// Log every request, one line each, on stderr.
    #[arg(long)]
    access_log: bool,
    /// Seconds in-flight requests may take to finish after SIGINT/SIGTERM.
    #[arg(long, default_value_t = 10)]
    grace_secs: u64,
    /// Connection caps, applied to each server.
    #[command(flatten)]
    connections: cli_flags::ConnectionFlags,
    /// Log format.
    #[command(flatten)]
    logs: cli_flags::LogFlags,
    /// Prometheus metrics of both servers, on one listener.
    #[command(flatten)]
    metrics: cli_flags::MetricsFlags,
}

pub(crate) fn run(args: Args) -> Outcome {
    args.logs.init()?;
    if let Err(err) = allocator::block_on_workers(serve_both(args))? {
        telemetry::fatal("dcx serve", &*err);
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

async fn serve_both(mut args: Args) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // First of all: a SIGHUP while the data loads reloads once serving, never ends us.
    let hangups = serve::Hangups::install();
    // Two servers, each at the cap, share the open-file limit.
    if let Some(lowered) = args.connections.fit_open_files(2) {
        telemetry::note("dcx serve", &lowered);
    }
    let grace = Duration::from_secs(args.grace_secs);
    let source = args.data.source();
    // One copy of the data for both servers, reloaded by one loop (SIGHUP, and the poll
    // of a history folder) for both.
    let (live, skipped) =
        datasets::Live::open_with_clock(source, Arc::new(std::time::SystemTime::now))?;
    skipped.iter().for_each(|day| telemetry::skipped("dcx serve", day));
    telemetry::started("dcx serve", env!("CARGO_PKG_VERSION"), &live);
    if let Some(note) = feeds::sample_note(&live.history()) {
        telemetry::note("dcx serve", note);
    }
    let live = Arc::new(live);
    let feed_listener = serve::bind(args.feed_listen).await?;
    let tool_listener = serve::bind(args.tool_listen).await?;
    let feed_url = args.feed_url.unwrap_or(format!("http://{}", feed_listener.local_addr()?));
    let clock: serve::Clock = Arc::new(std::time::SystemTime::now);
    let metrics = args.metrics.start(env!("CARGO_PKG_VERSION"), &live, &clock).await?;
    // Zero turns polling off: `Source::poll_period` decides.
    let poll = args.data.poll();
    let report = telemetry::on_reload("dcx serve", metrics.clone());
    let _reloads = serve::spawn_reloads(Arc::clone(&live), poll, hangups, report);

    let mut feed_config = feeds::Config::new(Arc::clone(&live), Arc::clone(&clock));
    feed_config.access_log = args.access_log;
    feed_config.metrics = metrics.is_some();
    feed_config.limits.grace = grace;
    args.connections.apply(&mut feed_config.limits);
    feed_config.version = env!("CARGO_PKG_VERSION");

    let mut tool_config = tools::Config::new(live, clock);
    tool_config.links = tools::price::Links { feed_url };
    tool_config.public_url = args.public_url;
    tool_config.docs_url = args.docs_url;
    tool_config.allowed_origins = args.allowed_origins;
    tool_config.access_log = args.access_log;
    tool_config.metrics = metrics.is_some();
    tool_config.on_tool_call = metrics.as_ref().map(telemetry::Metrics::tool_call_hook);
    tool_config.limits.grace = grace;
    args.connections.apply(&mut tool_config.limits);

    let routes = feeds::Route::ALL.map(feeds::Route::path);
    let counted = |server, routes: &[&'static str]| {
        metrics.as_ref().map(|metrics| metrics.server(server, routes))
    };
    let feed_events = telemetry::on_event("feeds", counted("feeds", &routes));
    let tool_events = telemetry::on_event("tools", counted("tools", &tools::ROUTES));
    let feed_server = feeds::run(feed_config, feed_listener, serve::shutdown_signal(), feed_events);
    let tool_server = tools::run(tool_config, tool_listener, serve::shutdown_signal(), tool_events);
    let ((), tools) = tokio::join!(feed_server, tool_server);
    Ok(tools?)
}
