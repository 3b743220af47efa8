//! Routes, methods, conditional GET, gzip, HEAD, CORS and error bodies.

use datasets::Feed;
use feeds::Route;

use crate::support::{Server, assert_consistent};

#[tokio::test]
async fn every_feed_is_served_as_published() {
    let server = Server::reference().await;
    for feed in Feed::ALL {
        let reply = server.get(Route::Feed(feed).path()).await;
        let published = test_support::fixture(&format!("snapshot/{}", feed.file_name()));
        assert_eq!(reply.body, published.as_bytes(), "{feed}");
        assert_eq!(assert_consistent(&reply), "2026-11-20T00:00:00Z");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(reply.header("cache-control"), Some("public, max-age=64800"));
        assert_eq!(reply.header("vary"), Some("Accept-Encoding"));
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    }
}

#[tokio::test]
async fn query_strings_on_feeds_are_ignored() {
    let server = Server::reference().await;
    let plain = server.get("/depth.json").await;
    let queried = server.get("/depth.json?cachebust=123&x").await;
    assert_eq!(plain.body, queried.body);
    assert_eq!(plain.header("etag"), queried.header("etag"));
}

#[tokio::test]
async fn if_none_match_gives_304_for_either_variant() {
    let server = Server::reference().await;
    let mut client = server.connect().await;
    let identity = client.request("GET", "/matrix.json", &[]).await;
    let gzip = client.request("GET", "/matrix.json", &["Accept-Encoding: gzip"]).await;
    for etag in [identity.header("etag").unwrap(), gzip.header("etag").unwrap()] {
        let line = format!("If-None-Match: {etag}");
        let reply = client.request("GET", "/matrix.json", &[&line]).await;
        assert_eq!(reply.status, 304);
        assert!(reply.body.is_empty());
        assert_eq!(reply.header("last-modified"), Some("Fri, 20 Nov 2026 00:00:00 GMT"));
        assert_eq!(reply.header("cache-control"), Some("public, max-age=64800"));
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    }
    let stale = client.request("GET", "/matrix.json", &["If-None-Match: \"0000\""]).await;
    assert_eq!(stale.status, 200);
}

#[tokio::test]
async fn if_modified_since_gives_304_unless_older() {
    let server = Server::reference().await;
    let mut client = server.connect().await;
    let same = "If-Modified-Since: Fri, 20 Nov 2026 00:00:00 GMT";
    assert_eq!(client.request("GET", "/index.json", &[same]).await.status, 304);
    let later = "If-Modified-Since: Sat, 21 Nov 2026 00:00:00 GMT";
    assert_eq!(client.request("HEAD", "/index.json", &[later]).await.status, 304);
    let older = "If-Modified-Since: Thu, 19 Nov 2026 00:00:00 GMT";
    assert_consistent(&client.request("GET", "/index.json", &[older]).await);
    // If-None-Match wins over If-Modified-Since.
    let both = client.request("GET", "/index.json", &[same, "If-None-Match: \"x\""]).await;
    assert_eq!(both.status, 200);
}

#[tokio::test]
async fn gzip_is_negotiated_and_decompresses_to_the_identity() {
    let server = Server::reference().await;
    for feed in Feed::ALL {
        let path = Route::Feed(feed).path();
        let identity = server.get(path).await;
        let gzip = server.request("GET", path, &["Accept-Encoding: br, gzip;q=0.9"]).await;
        assert_eq!(gzip.header("content-encoding"), Some("gzip"), "{feed}");
        assert!(gzip.body.len() < identity.body.len());
        assert_eq!(gzip.decoded(), identity.body);
        assert_consistent(&gzip);
        let refused = server.request("GET", path, &["Accept-Encoding: gzip;q=0"]).await;
        assert_eq!(refused.header("content-encoding"), None);
    }
}

#[tokio::test]
async fn head_has_the_headers_of_get_and_no_body() {
    let server = Server::reference().await;
    let mut client = server.connect().await;
    for (path, extra) in [
        ("/matrix.json", "Accept-Encoding: gzip"),
        ("/ratio_models.json", "Accept: */*"),
        ("/", "Accept: text/html"),
        ("/health", "Accept: */*"),
        ("/track?carat=1&color=G&clarity=VS2", "Accept: */*"),
        ("/nope", "Accept: */*"),
    ] {
        let get = client.request("GET", path, &[extra]).await;
        let head = client.request("HEAD", path, &[extra]).await;
        assert_eq!(head.status, get.status, "{path}");
        assert!(head.body.is_empty());
        let length = get.body.len().to_string();
        assert_eq!(head.header("content-length"), Some(length.as_str()), "{path}");
        for name in ["etag", "last-modified", "content-type", "content-encoding", "cache-control"] {
            assert_eq!(head.header(name), get.header(name), "{path} {name}");
        }
    }
}

#[tokio::test]
async fn options_is_a_preflight_on_any_path() {
    let server = Server::reference().await;
    let preflight = [
        "Origin: https://sheet.example",
        "Access-Control-Request-Method: GET",
        "Access-Control-Request-Headers: if-none-match",
    ];
    for path in ["/matrix.json", "/track", "/", "/nope"] {
        let reply = server.request("OPTIONS", path, &preflight).await;
        assert_eq!(reply.status, 204, "{path}");
        assert!(reply.body.is_empty());
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
        assert_eq!(reply.header("access-control-allow-methods"), Some("GET, HEAD, OPTIONS"));
        let allowed = reply.header("access-control-allow-headers").unwrap().to_lowercase();
        assert!(allowed.contains("if-none-match") && allowed.contains("if-modified-since"));
        assert_eq!(reply.header("access-control-max-age"), Some("86400"));
    }
}

#[tokio::test]
async fn unknown_paths_get_a_json_404() {
    let server = Server::reference().await;
    for path in ["/nope", "/matrix", "/matrix.json/", "/fixtures/snapshot/matrix.json"] {
        let reply = server.get(path).await;
        assert_eq!(reply.status, 404, "{path}");
        assert_eq!(reply.json(), serde_json::json!({ "error": "not found", "path": path }));
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    }
}

#[tokio::test]
async fn other_methods_get_a_json_405_with_allow() {
    let server = Server::reference().await;
    for (method, path) in
        [("PUT", "/matrix.json"), ("DELETE", "/"), ("PATCH", "/health"), ("POST", "/track")]
    {
        let reply = server.request(method, path, &["Content-Length: 0"]).await;
        assert_eq!(reply.status, 405, "{method} {path}");
        assert_eq!(reply.header("allow"), Some("GET, HEAD, OPTIONS"));
        assert_eq!(reply.json()["allow"], serde_json::json!(["GET", "HEAD", "OPTIONS"]));
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    }
}

#[tokio::test]
async fn a_request_body_is_refused() {
    let server = Server::reference().await;
    let mut client = server.connect().await;
    let reply = client.request("GET", "/matrix.json", &["Content-Length: 5"]).await;
    assert_eq!(reply.status, 413);
    assert_eq!(reply.json()["error"], "payload too large");
    assert_eq!(reply.json()["limit_bytes"], 0);
    client.closed().await;
}

#[tokio::test]
async fn two_host_fields_get_400() {
    let server = Server::reference().await;
    let mut client = server.connect().await;
    let reply = client.request("GET", "/health", &["Host: other"]).await;
    assert_eq!(reply.status, 400);
    assert!(reply.text().contains("one Host header, not several"), "{}", reply.text());
    client.closed().await;
}

#[tokio::test]
async fn health_reports_the_live_snapshot_and_version() {
    let server = Server::reference().await;
    let reply = server.get("/health").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let health = reply.json();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["ts"], "2026-11-20T00:00:00Z");
    assert_eq!(health["history_days"], 1);
    assert_eq!(health["source"], "embedded");
    assert_eq!(health["sample_data"], true);
    assert_eq!(health["server"], serde_json::json!({ "name": "feed-server", "version": "9.9.9" }));
}

#[tokio::test]
async fn index_is_json_by_default_and_html_for_browsers() {
    let server = Server::reference().await;
    let json = server.get("/").await;
    assert_eq!(json.header("content-type"), Some("application/json"));
    assert_eq!(json.header("vary"), Some("Accept, Accept-Encoding"));
    let index = json.json();
    let paths: Vec<&str> =
        index["feeds"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "/matrix.json",
            "/matrix_cushion.json",
            "/ratio_models.json",
            "/index.json",
            "/depth.json",
            "/matrix_stats.json"
        ]
    );
    let matrix = server.get("/matrix.json").await;
    assert_eq!(index["feeds"][0]["etag"].as_str(), matrix.header("etag"));

    let html = server.request("GET", "/", &["Accept: text/html,application/xhtml+xml;q=0.9"]).await;
    assert_eq!(html.header("content-type"), Some("text/html; charset=utf-8"));
    let etag = format!("If-None-Match: {}", html.header("etag").unwrap());
    assert_eq!(html.header("content-security-policy"), Some(feeds::CONTENT_SECURITY_POLICY));
    assert!(html.text().contains("<a href=\"/matrix.json\"><code>/matrix.json</code></a>"));
    let again = server.request("GET", "/", &["Accept: text/html", &etag]).await;
    assert_eq!(again.status, 304);
}
