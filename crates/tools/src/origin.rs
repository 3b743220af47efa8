//! The `Origin` rule (DNS-rebinding protection): loopback origins on any port and the
//! configured ones pass; requests without `Origin` pass; anything else is refused.

#[cfg(test)]
mod tests;

/// Whether a request carrying `Origin: origin` may use the MCP endpoint.
///
/// `http(s)://localhost`, `http(s)://127.0.0.1` and `http(s)://[::1]`, with or without a
/// port, are always allowed; otherwise `origin` must equal one of `allowed` (compared
/// case-insensitively, ignoring a trailing `/`).
pub fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    let origin = origin.trim();
    if is_loopback(origin) {
        return true;
    }
    let bare = origin.trim_end_matches('/');
    allowed.iter().any(|a| a.trim().trim_end_matches('/').eq_ignore_ascii_case(bare))
}

/// `http(s)://` a loopback host (`localhost`, any `127.x.x.x`, `[::1]`), an optional port
/// and nothing else (an optional `/`).
fn is_loopback(origin: &str) -> bool {
    let Ok(uri) = origin.parse::<hyper::Uri>() else { return false };
    let web = uri
        .scheme_str()
        .is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"));
    let Some(authority) = uri.authority() else { return false };
    // The authority is the host and at most a valid port: no user info, no empty port.
    let port = authority.as_str().strip_prefix(authority.host()).is_some_and(|rest| {
        rest.is_empty() || rest.strip_prefix(':').is_some_and(|p| p.parse::<u16>().is_ok())
    });
    let bare = port && uri.path() == "/" && uri.query().is_none();
    let host = authority.host().trim_start_matches('[').trim_end_matches(']');
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    web && bare && loopback
}
