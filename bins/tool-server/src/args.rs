//! Command-line flags, checked and turned into settings before any I/O.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use clap::Parser;

/// The default listen address.
pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:8081";
/// The default feed server, target of `tracking_url`.
pub(crate) const DEFAULT_FEED_URL: &str = "http://127.0.0.1:8080";

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
pub(crate) struct Args {
    /// Address to listen on; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = DEFAULT_LISTEN)]
    pub(crate) listen: SocketAddr,
    /// Where the data comes from.
    #[command(flatten)]
    pub(crate) data: cli_flags::DataFlags,
    /// The MCP endpoint URL to advertise [default: http://<listen address>/].
    #[arg(long, value_parser = tools::parse_url)]
    pub(crate) public_url: Option<String>,
    /// Base URL of the feed server that `tracking_url` links point at.
    #[arg(long, default_value = DEFAULT_FEED_URL, value_parser = tools::parse_url)]
    pub(crate) feed_url: String,
    /// Where `GET /` sends browsers [default: this server's /docs page, docs/mcp.md].
    #[arg(long, value_parser = tools::parse_url)]
    pub(crate) docs_url: Option<String>,
    /// An Origin allowed besides loopback ones (repeatable), e.g. https://app.example.com.
    #[arg(long = "allowed-origin")]
    pub(crate) allowed_origins: Vec<String>,
    /// Write one stderr line per answered request.
    #[arg(long)]
    pub(crate) access_log: bool,
    /// Seconds in-flight requests may take to finish after SIGINT/SIGTERM.
    #[arg(long, default_value_t = 10)]
    pub(crate) grace_secs: u64,
    /// Connection caps.
    #[command(flatten)]
    pub(crate) connections: cli_flags::ConnectionFlags,
    /// Log format.
    #[command(flatten)]
    pub(crate) logs: cli_flags::LogFlags,
    /// Prometheus metrics.
    #[command(flatten)]
    pub(crate) metrics: cli_flags::MetricsFlags,
}

/// Validated settings.
#[derive(Debug)]
pub(crate) struct Settings {
    pub(crate) listen: SocketAddr,
    pub(crate) source: datasets::Source,
    pub(crate) poll: Option<Duration>,
    pub(crate) metrics: cli_flags::MetricsFlags,
    args: Args,
}

impl Args {
    /// The settings the flags say (clap has checked each value).
    pub(crate) fn into_settings(self) -> Settings {
        Settings {
            listen: self.listen,
            source: self.data.source(),
            poll: self.data.poll(),
            metrics: self.metrics.clone(),
            args: self,
        }
    }
}

impl Settings {
    /// The library configuration around the opened data and the real clock.
    pub(crate) fn config(&self, live: Arc<datasets::Live>, clock: tools::Clock) -> tools::Config {
        let mut config = tools::Config::new(live, clock);
        config.public_url = self.args.public_url.clone();
        config.docs_url = self.args.docs_url.clone();
        config.links.feed_url = self.args.feed_url.trim_end_matches('/').to_owned();
        config.allowed_origins = self.args.allowed_origins.clone();
        config.access_log = self.args.access_log;
        config.limits.grace = Duration::from_secs(self.args.grace_secs);
        self.args.connections.apply(&mut config.limits);
        config
    }
}
