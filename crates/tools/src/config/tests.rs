//! URL flag checks.

use super::parse_url;

#[test]
fn only_absolute_http_urls_with_a_host_pass() {
    for url in [
        "http://127.0.0.1:8080",
        "https://mcp.example.com/",
        "http://[::1]:9/mcp?x=1",
        "HTTPS://X.org",
    ] {
        assert_eq!(parse_url(url).as_deref(), Ok(url), "{url}");
    }
    let not_http = "not an http(s) URL, e.g. https://feeds.example.com";
    let no_host = "an http(s) URL needs a host, e.g. https://feeds.example.com";
    for (url, problem) in [
        ("ftp://x", not_http),
        ("example.com", not_http),
        ("notaurl", not_http),
        ("httpx://x", not_http),
        ("http://", no_host),
        ("https:///path", no_host),
    ] {
        assert_eq!(parse_url(url), Err(problem.to_owned()), "{url}");
    }
}
