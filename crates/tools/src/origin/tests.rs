//! Tests of the `Origin` allow-list.

use crate::origin::origin_allowed;

#[track_caller]
fn check(origin: &str, allowed: &[&str], expect: bool) {
    let allowed: Vec<String> = allowed.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(origin_allowed(origin, &allowed), expect, "{origin}");
}

#[test]
fn loopback_origins_pass_on_any_port() {
    for origin in [
        "http://localhost",
        "http://localhost:3000",
        "https://127.0.0.1:8081",
        "http://[::1]:9",
        "http://127.0.0.2:8080",
        "HTTP://LOCALHOST:1/",
    ] {
        check(origin, &[], true);
    }
}

#[test]
fn look_alikes_are_refused() {
    for origin in [
        "http://localhost.evil.example",
        "http://127.0.0.1.evil.example",
        "http://localhost:",
        "http://localhost:80x",
        "http://localhost/app",
        "http://user@localhost",
        "http://[::2]",
        "ftp://localhost",
        "evil.example.com",
        "http://evil.example.com",
        "null",
        "",
    ] {
        check(origin, &[], false);
    }
}

#[test]
fn configured_origins_pass() {
    check("https://app.example.com", &["https://app.example.com/"], true);
    check("https://APP.example.com", &["https://app.example.com"], true);
    check("https://app.example.com:444", &["https://app.example.com"], false);
}
