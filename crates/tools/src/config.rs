//! [`Config`]: everything the tool service needs, built by a binary before any I/O.

use std::{fmt, sync::Arc};

use crate::{Clock, ToolCallHook, price::Links};

/// `serverInfo.name` of every result.
pub const SERVER_NAME: &str = "dcx-diamond-pricing";
/// `serverInfo.version` of every result.
pub const SERVER_VERSION: &str = "2.0.0";

/// How the tool service runs.
#[derive(Clone)]
pub struct Config {
    /// The data served; reloads swap it atomically, each request takes one snapshot.
    pub live: Arc<datasets::Live>,
    /// The MCP endpoint URL advertised in the manifest and whose host is `_meta.source`;
    /// `None` means `http://<listen address>/`.
    pub public_url: Option<String>,
    /// Where `GET /` sends browsers; `None` means the server's own `/docs` page (the
    /// embedded `docs/mcp.md`).
    pub docs_url: Option<String>,
    /// Where result links point (the feed server, for `tracking_url`).
    pub links: Links,
    /// Origins allowed besides the loopback ones, e.g. `https://example.com`.
    pub allowed_origins: Vec<String>,
    /// Connection, body and shutdown limits.
    pub limits: serve::Limits,
    /// Report every answered request as an event.
    pub access_log: bool,
    /// Report what metrics count: per request and per connection ([`serve::Reporting`]).
    pub metrics: bool,
    /// Called with every `tools/call` answered (metrics count them by tool and outcome).
    pub on_tool_call: Option<ToolCallHook>,
    /// The time source of `_meta.timestamp`.
    pub clock: Clock,
}

impl Config {
    /// Defaults around `live` and `clock`: endpoint from the listen address, the built-in
    /// docs page, the feed server at `http://127.0.0.1:8080`, loopback origins only,
    /// default limits, no access log.
    pub fn new(live: Arc<datasets::Live>, clock: Clock) -> Config {
        Config {
            live,
            public_url: None,
            docs_url: None,
            links: Links::default(),
            allowed_origins: Vec::new(),
            limits: serve::Limits::default(),
            access_log: false,
            metrics: false,
            on_tool_call: None,
            clock,
        }
    }
}

/// Parses the value of a URL flag (`--public-url`, `--docs-url`, `--feed-url`), the same in
/// every binary (a clap `value_parser`, so that clap names the flag and the value): an
/// absolute `http` or `https` URL (scheme in any case) with a host.
pub fn parse_url(url: &str) -> Result<String, String> {
    let rest = url.split_once("://").and_then(|(scheme, rest)| {
        (scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
            .then_some(rest)
    });
    match rest {
        None => Err("not an http(s) URL, e.g. https://feeds.example.com".to_owned()),
        Some(rest) if rest.is_empty() || rest.starts_with(['/', '?', '#']) => {
            Err("an http(s) URL needs a host, e.g. https://feeds.example.com".to_owned())
        }
        Some(_) => Ok(url.to_owned()),
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("source", self.live.source())
            .field("public_url", &self.public_url)
            .field("docs_url", &self.docs_url)
            .field("links", &self.links)
            .field("allowed_origins", &self.allowed_origins)
            .field("limits", &self.limits)
            .field("access_log", &self.access_log)
            .field("metrics", &self.metrics)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
