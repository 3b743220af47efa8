//! The connection flags: caps on what clients may hold, the rate limit, trusted proxies.

use std::net::IpAddr;

/// Caps on what clients may hold; see `serve::Limits` and docs/reliability.md.
#[derive(Debug, Clone, clap::Args)]
pub struct ConnectionFlags {
    /// Most connections served at once; at the cap the longest-idle connection makes
    /// room, or a new client gets 503 with Retry-After.
    #[arg(long, default_value_t = 1024, value_name = "N")]
    pub max_connections: usize,
    /// Most connections one client address may hold (0: no cap); over it a client gets
    /// 429 with Retry-After. Raise it (or set 0) behind a proxy that is not a
    /// --trusted-proxy.
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub max_connections_per_ip: usize,
    /// A reverse proxy in front of this server (repeatable): exempt from the per-address
    /// connection cap, and trusted to name the client in X-Forwarded-For.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<IpAddr>,
    /// Requests per second per client address on the tool server's POST / and the feed
    /// server's /track, with bursts of two seconds' worth; over it 429 with Retry-After.
    /// Off by default; set it for a public deployment. Behind a proxy, give
    /// --trusted-proxy so that the client address comes from X-Forwarded-For.
    #[arg(long, value_name = "R", value_parser = positive_rate)]
    pub rate_limit_per_ip: Option<f64>,
}

/// A rate: a finite number above 0.
fn positive_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate > 0.0 => Ok(rate),
        _ => Err(format!("{text:?} is not a rate; give requests per second above 0, e.g. 20")),
    }
}

impl ConnectionFlags {
    /// Writes the flags into `limits`.
    pub fn apply(&self, limits: &mut serve::Limits) {
        limits.max_connections = self.max_connections;
        limits.max_connections_per_ip = self.max_connections_per_ip;
        limits.trusted_proxies = self.trusted_proxies.clone();
        limits.rate_limit_per_ip = self.rate_limit_per_ip.map(serve::RateLimit::per_second);
    }
}
