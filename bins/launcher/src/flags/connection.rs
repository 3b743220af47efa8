//! The connection flags: caps on what clients may hold, the rate limit, trusted proxies;
//! and the connection cap fitted to the process's open-file limit.

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

/// File descriptors kept for everything but the servers' connections: standard streams,
/// the runtime, the metrics endpoint and its connections (at most 64), and the files a
/// reload reads.
const SPARE_FILES: u64 = 128;

impl ConnectionFlags {
    /// Fits `--max-connections` to the open-file limit, so that a full server answers
    /// `503` instead of failing to accept: the soft limit (`RLIMIT_NOFILE`) is first
    /// raised to the hard one; if `servers` servers at the cap could still open more
    /// files than that (`serve::Limits::open_files` each, plus spare for the rest), the
    /// cap is lowered to fit. Returns the line to log when it was lowered.
    pub fn fit_open_files(&mut self, servers: u64) -> Option<String> {
        let limit = raise_open_files()?;
        let fitted = fit(self.max_connections, servers, limit)?;
        let line = format!(
            "--max-connections lowered from {} to {fitted}: the open-file limit is {limit} and \
             the hard limit allows no more (raise it with LimitNOFILE= or ulimit -n)",
            self.max_connections
        );
        self.max_connections = fitted;
        Some(line)
    }

    /// Writes the flags into `limits`.
    pub fn apply(&self, limits: &mut serve::Limits) {
        limits.max_connections = self.max_connections;
        limits.max_connections_per_ip = self.max_connections_per_ip;
        limits.trusted_proxies = self.trusted_proxies.clone();
        limits.rate_limit_per_ip = self.rate_limit_per_ip.map(serve::RateLimit::per_second);
    }
}

/// The cap that fits `servers` servers in `limit` open files, when `max_connections`
/// does not: at least 1.
fn fit(max_connections: usize, servers: u64, limit: u64) -> Option<usize> {
    let files = |max_connections| serve::Limits { max_connections, ..serve::Limits::default() };
    let needed = files(max_connections).open_files().saturating_mul(servers.max(1));
    if needed.saturating_add(SPARE_FILES) <= limit {
        return None;
    }
    let overhead = files(1).open_files() - 1;
    let per_server = limit.saturating_sub(SPARE_FILES) / servers.max(1);
    let fitted = per_server.saturating_sub(overhead).max(1);
    Some(usize::try_from(fitted).unwrap_or(usize::MAX).min(max_connections))
}

/// Raises the soft open-file limit to the hard one and returns the limit now in force;
/// `None` when there is none (unlimited) or it cannot be read.
#[cfg(unix)]
fn raise_open_files() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = rustix::process::Rlimit { current: limit.maximum, maximum: limit.maximum };
        // Refused (a hard limit the kernel caps lower, say): the soft one stays.
        let _ = setrlimit(Resource::Nofile, raised);
    }
    getrlimit(Resource::Nofile).current
}

/// Elsewhere the limit is not known: the caps stay as given.
#[cfg(not(unix))]
fn raise_open_files() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_that_fits_stays() {
        assert_eq!(fit(1024, 1, 1_048_576), None);
        assert_eq!(fit(1024, 2, 4096), None);
    }

    #[test]
    fn a_cap_over_the_limit_is_lowered_to_what_the_files_allow() {
        // 1024 files: 128 spare, 256 lingering refusals, the listener, one accepted.
        let fitted = fit(1024, 1, 1024).unwrap();
        assert_eq!(fitted, 1024 - 128 - 258);
        let limits = serve::Limits { max_connections: fitted, ..serve::Limits::default() };
        assert!(limits.open_files() + SPARE_FILES <= 1024);
        // Two servers share the limit.
        assert_eq!(fit(1024, 2, 1024), Some((1024 - 128) / 2 - 258));
        // Never below one connection.
        assert_eq!(fit(1024, 1, 100), Some(1));
        assert_eq!(fit(10, 1, 300), Some(1));
    }
}
