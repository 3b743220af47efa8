//! `dcx serve`: the whole service in one process: the REST feed server and the MCP tool
//! server, each on its own address, both on one shared copy of the data, reloaded once
//! on SIGHUP (and by the history poll) for both ([`launcher::Services::Both`]).

use std::net::SocketAddr;

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
    /// Public base URL of the feed server, used in `tracking_url` links
    /// [default: http://<feed listen address>].
    // Help text, which clap prints as written: not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, value_parser = tools::parse_url)]
    feed_url: Option<String>,
    /// Public URL, docs URL, allowed origins of the tool server.
    #[command(flatten)]
    tools: launcher::ToolFlags,
    /// What every server takes: data, logs, connection caps, metrics.
    #[command(flatten)]
    server: launcher::ServerFlags,
}

pub(crate) fn run(args: Args) -> Outcome {
    let feeds = launcher::FeedServer { listen: args.feed_listen };
    let tools = launcher::ToolServer {
        listen: args.tool_listen,
        flags: args.tools,
        feed_url: args.feed_url,
    };
    Ok(launcher::run(PROCESS, args.server, launcher::Services::Both(feeds, tools)))
}

/// This process in log lines and `/health`.
const PROCESS: launcher::Process =
    launcher::Process { name: "dcx serve", version: env!("CARGO_PKG_VERSION") };
