//! `dcx serve`: the whole service in one process: the REST feed server and the MCP tool
//! server, each on its own address, both on the same data, both reloaded on SIGHUP.

use std::{net::SocketAddr, path::PathBuf, process::ExitCode, sync::Arc, time::Duration};

use crate::Outcome;

/// Arguments of `dcx serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Address of the REST feed server; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8080")]
    feed_listen: SocketAddr,
    /// Address of the MCP tool server; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8081")]
    tool_listen: SocketAddr,
    /// Serve one snapshot folder instead of the embedded reference snapshot.
    #[arg(long, conflicts_with = "history")]
    snapshot: Option<PathBuf>,
    /// Serve a folder of dated (`YYYY-MM-DD`) snapshots; the newest valid one is live.
    #[arg(long)]
    history: Option<PathBuf>,
    /// Seconds between checks of the history folder for a new day; 0 disables polling.
    #[arg(long, default_value_t = 60)]
    poll_secs: u64,
    /// Public base URL of the feed server, used in `tracking_url` links
    /// [default: http://<feed listen address>].
    #[arg(long)]
    feed_url: Option<String>,
    /// Public URL of the MCP endpoint [default: http://<tool listen address>/].
    #[arg(long)]
    public_url: Option<String>,
    /// Log every request, one line each, on stderr.
    #[arg(long)]
    access_log: bool,
}

pub(crate) fn run(args: Args) -> Outcome {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(serve_both(args))?;
    Ok(ExitCode::SUCCESS)
}

async fn serve_both(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let source = match (args.snapshot, args.history) {
        (Some(dir), _) => datasets::Source::Snapshot(dir),
        (None, Some(dir)) => datasets::Source::History(dir),
        (None, None) => datasets::Source::Embedded,
    };
    let poll = Some(Duration::from_secs(args.poll_secs)).filter(|poll| !poll.is_zero());
    let feed_listener = tokio::net::TcpListener::bind(args.feed_listen).await?;
    let tool_listener = tokio::net::TcpListener::bind(args.tool_listen).await?;
    let feed_url = args.feed_url.unwrap_or(format!("http://{}", feed_listener.local_addr()?));

    let mut feed_config = feeds::Config::new(unix_now);
    feed_config.source = source.clone();
    feed_config.poll = poll;
    feed_config.access_log = args.access_log;
    feed_config.version = env!("CARGO_PKG_VERSION");
    let (feeds, notes) = feeds::Feeds::open(feed_config)?;
    notes.iter().for_each(|note| log("feeds", note));

    let (live, _) = datasets::Live::open(source)?;
    let live = Arc::new(live);
    let reloads = tools::spawn_reloads(Arc::clone(&live), poll, |line| log("tools", line));
    let mut tool_config = tools::Config::new(live, Arc::new(chrono::Utc::now));
    tool_config.links = tools::price::Links { feed_url };
    tool_config.public_url = args.public_url;
    tool_config.access_log = args.access_log;

    let feed_server =
        feeds::serve(Arc::new(feeds), feed_listener, serve::shutdown_signal(), |event| {
            log("feeds", &event.to_string())
        });
    let tool_server = tools::run(tool_config, tool_listener, serve::shutdown_signal(), |event| {
        log("tools", &event.to_string())
    });
    let ((), tools) = tokio::join!(feed_server, tool_server);
    reloads.abort();
    Ok(tools?)
}

/// One event line on stderr, tagged with the server it concerns.
fn log(server: &str, line: &str) {
    eprintln!("dcx serve: {server}: {line}");
}

/// The wall clock in unix seconds.
fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}
