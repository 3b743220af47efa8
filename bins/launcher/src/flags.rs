//! The flags every serving command takes, defined once: what every server process
//! takes ([`ServerFlags`]: data, access log, grace, connection caps, logs, metrics) and
//! what the tool server takes besides ([`ToolFlags`]).

mod connection;
mod data;
mod log;

pub use self::{connection::ConnectionFlags, data::DataFlags, log::LogFlags};
use crate::MetricsFlags;

/// The flags of every server process (`feed-server`, `tool-server`, `dcx serve`).
#[derive(Debug, Clone, clap::Args)]
pub struct ServerFlags {
    /// Where the data comes from.
    #[command(flatten)]
    pub data: DataFlags,
    /// Log every request, one line each, on stderr.
    #[arg(long)]
    pub access_log: bool,
    /// Seconds in-flight requests may take to finish after SIGINT/SIGTERM.
    #[arg(long, default_value_t = 10)]
    pub grace_secs: u64,
    /// Connection caps, applied to each server.
    #[command(flatten)]
    pub connections: ConnectionFlags,
    /// Log format.
    #[command(flatten)]
    pub logs: LogFlags,
    /// Prometheus metrics, of every server of the process on one listener.
    #[command(flatten)]
    pub metrics: MetricsFlags,
}

/// What the tool server takes besides (`tool-server`, `dcx serve`). The feed server's
/// URL is not here: its default differs (`tool-server` names the usual feed server,
/// `dcx serve` its own).
#[derive(Debug, Clone, clap::Args)]
pub struct ToolFlags {
    /// The MCP endpoint URL to advertise [default: http://<tool listen address>/].
    // Help text, which clap prints as written: not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, value_parser = tools::parse_url)]
    pub public_url: Option<String>,
    /// Where the tool server's `GET /` sends browsers [default: its own /docs page,
    /// docs/mcp.md].
    #[arg(long, value_parser = tools::parse_url)]
    pub docs_url: Option<String>,
    /// An Origin the tool server allows besides loopback ones (repeatable), e.g.
    /// https://app.example.com.
    // Help text, which clap prints as written: not a link.
    #[allow(rustdoc::bare_urls)]
    #[arg(long = "allowed-origin")]
    pub allowed_origins: Vec<String>,
}
