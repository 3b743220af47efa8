//! Unit tests for `crate::rate`: the bucket and the client address.

use std::net::IpAddr;

use hyper::{HeaderMap, header::HeaderValue};

use super::{Limiter, RateLimit, client_address};

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

#[test]
fn a_burst_then_the_rate_and_other_clients_untouched() {
    let limiter = Limiter::new(RateLimit { per_second: 10.0, burst: 3 });
    for _ in 0..3 {
        assert_eq!(limiter.take(ip("10.0.0.1")), Ok(()));
    }
    let wait = limiter.take(ip("10.0.0.1")).unwrap_err();
    assert!(wait.as_secs_f64() > 0.0 && wait.as_secs_f64() <= 0.1, "{wait:?}");
    assert_eq!(limiter.take(ip("10.0.0.2")), Ok(()));
    std::thread::sleep(wait);
    assert_eq!(limiter.take(ip("10.0.0.1")), Ok(()));
}

#[test]
fn the_default_burst_is_two_seconds_worth() {
    assert_eq!(RateLimit::per_second(5.0).burst, 10);
    assert_eq!(RateLimit::per_second(0.1).burst, 1);
}

#[test]
fn forwarded_for_counts_only_from_a_trusted_proxy() {
    let mut headers = HeaderMap::new();
    headers.insert("x-forwarded-for", HeaderValue::from_static("1.2.3.4, 10.0.0.9"));
    let trusted = [ip("10.0.0.8"), ip("10.0.0.9")];
    // From the proxy: the right-most untrusted entry.
    assert_eq!(client_address(ip("10.0.0.8"), &headers, &trusted), ip("1.2.3.4"));
    // From anyone else: the header is ignored.
    assert_eq!(client_address(ip("5.6.7.8"), &headers, &trusted), ip("5.6.7.8"));
    // A spoofed left-most entry does not win over what the proxy saw.
    headers.insert("x-forwarded-for", HeaderValue::from_static("9.9.9.9, 1.2.3.4"));
    assert_eq!(client_address(ip("10.0.0.8"), &headers, &trusted), ip("1.2.3.4"));
    // No usable header: the proxy itself.
    assert_eq!(client_address(ip("10.0.0.8"), &HeaderMap::new(), &trusted), ip("10.0.0.8"));
}
