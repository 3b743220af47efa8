//! `tool-server`: serves the pricing tools over MCP (streamable HTTP; protocol 2026-07-28
//! and the 2025 revisions) until SIGINT/SIGTERM; SIGHUP reloads the data, and so does
//! `--poll-secs` for a history folder, as in the feed server. The flags say where to
//! listen; [`launcher::run`] does the rest.
use std::{net::SocketAddr, process::ExitCode};

use clap::Parser;

#[cfg(test)]
mod tests;

/// The default listen address.
const DEFAULT_LISTEN: &str = "127.0.0.1:8081";

/// Serve the diamond pricing tools over MCP (streamable HTTP; protocol 2026-07-28 and the
/// 2025 revisions 2025-11-25, 2025-06-18, 2025-03-26).
#[derive(Debug, Parser)]
#[command(
    version,
    about,
    after_help = "Examples:
  tool-server                                  the embedded reference snapshot on :8081
  tool-server --history /srv/dcx/history --feed-url https://feeds.example.com
  tool-server --public-url https://mcp.example.com/ --allowed-origin https://app.example.com

SIGHUP reloads the data; SIGINT/SIGTERM drain and stop."
)]
struct Args {
    /// Address to listen on; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// Base URL of the feed server that `tracking_url` links point at.
    #[arg(long, default_value = launcher::DEFAULT_FEED_URL, value_parser = tools::parse_url)]
    feed_url: String,
    /// Public URL, docs URL, allowed origins.
    #[command(flatten)]
    tools: launcher::ToolFlags,
    /// What every server takes: data, logs, connection caps, metrics.
    #[command(flatten)]
    server: launcher::ServerFlags,
}

impl Args {
    /// The tool server the flags describe.
    fn tool_server(&self) -> launcher::ToolServer {
        let (listen, flags) = (self.listen, self.tools.clone());
        launcher::ToolServer { listen, flags, feed_url: Some(self.feed_url.clone()) }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let tools = args.tool_server();
    launcher::run(PROCESS, args.server, launcher::Services::Tools(tools))
}

/// This process in log lines and `/health`.
const PROCESS: launcher::Process =
    launcher::Process { name: "tool-server", version: env!("CARGO_PKG_VERSION") };
