//! URL flag checks.

use super::check_url;

#[test]
fn only_absolute_http_urls_with_a_host_pass() {
    for url in [
        "http://127.0.0.1:8080",
        "https://mcp.example.com/",
        "http://[::1]:9/mcp?x=1",
        "HTTPS://X.org",
    ] {
        assert_eq!(check_url("--public-url", url), Ok(()), "{url}");
    }
    let refused = |url: &str| check_url("--feed-url", url).unwrap_err();
    assert_eq!(refused("ftp://x"), r#"--feed-url "ftp://x" is not an http(s) URL"#);
    assert_eq!(refused("example.com"), r#"--feed-url "example.com" is not an http(s) URL"#);
    assert_eq!(refused("httpx://x"), r#"--feed-url "httpx://x" is not an http(s) URL"#);
    assert_eq!(refused("http://"), r#"--feed-url "http://" has no host"#);
    assert_eq!(refused("https:///path"), r#"--feed-url "https:///path" has no host"#);
}
