//! `/matrix_stats.json` and `/matrix_stats.csv`: the day's spread file byte for byte with
//! the feeds' caching rules, its CSV twin, and 404 for a day published without it.

use datasets::Source;
use test_support::TempDir;

use crate::support::{Server, config, write_plain_day};

#[tokio::test]
async fn the_spread_file_is_served_as_published_and_cached_like_a_feed() {
    let server = Server::reference().await;
    let mut client = server.connect().await;
    let reply = client.request("GET", "/matrix_stats.json", &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, datasets::reference::embedded_stats());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let etag = reply.header("etag").expect("an etag").to_owned();
    let line = format!("If-None-Match: {etag}");
    let again = client.request("GET", "/matrix_stats.json", &[&line]).await;
    assert_eq!(again.status, 304);
    assert_eq!(again.header("cache-control"), Some("public, max-age=64800"));
    let feed = client.request("GET", "/matrix.json", &[]).await;
    assert_eq!(reply.header("cache-control"), feed.header("cache-control"));
    assert_eq!(reply.header("last-modified"), feed.header("last-modified"));
}

#[tokio::test]
async fn the_csv_twin_has_a_row_per_cell_of_both_matrices() {
    let server = Server::reference().await;
    let reply = server.get("/matrix_stats.csv").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/csv; charset=utf-8; header=present"));
    let text = String::from_utf8(reply.body).unwrap();
    let lines: Vec<&str> = text.split("\r\n").filter(|line| !line.is_empty()).collect();
    assert_eq!(lines[0], "matrix,band,color,clarity,asks,basis,p10,p25,p50,p75,p90");
    assert_eq!(lines.len(), 1 + 2 * 12 * 80);
    assert!(lines[1].starts_with("matrix,0.3,D,FL,0,modelled,"), "{}", lines[1]);
    assert!(lines.last().unwrap().starts_with("matrix_cushion,6.0,M,SI2,0,modelled,"));
}

#[tokio::test]
async fn a_day_without_the_spread_file_is_served_without_it() {
    let dir = TempDir::new("stats-absent");
    write_plain_day(&dir.0, "2026-11-20");
    std::fs::remove_file(dir.0.join("2026-11-20").join(datasets::MATRIX_STATS_FILE)).unwrap();
    let server = Server::start(config(Source::History(dir.0.clone()))).await;
    assert_eq!(server.get("/matrix.json").await.status, 200);
    assert_eq!(server.get("/matrix_stats.json").await.status, 404);
    assert_eq!(server.get("/matrix_stats.csv").await.status, 404);
    let index = server.get("/").await.json();
    let feeds = index["feeds"].as_array().unwrap();
    assert_eq!(feeds.len(), 5);
    let html = server.request("GET", "/", &["Accept: text/html"]).await;
    assert!(!html.text().contains("/matrix_stats."));
    let with = Server::reference().await;
    let html = with.request("GET", "/", &["Accept: text/html"]).await.text().to_owned();
    assert!(html.contains("/matrix_stats.json") && html.contains("/matrix_stats.csv"));
}
