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

fn is_loopback(origin: &str) -> bool {
    let lower = origin.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("http://").or_else(|| lower.strip_prefix("https://"))
    else {
        return false;
    };
    let host_port = rest.strip_suffix('/').unwrap_or(rest);
    let port = |tail: &str| {
        tail.is_empty()
            || tail.strip_prefix(':').is_some_and(|p| {
                !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
            })
    };
    ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .any(|host| host_port.strip_prefix(host).is_some_and(port))
}
