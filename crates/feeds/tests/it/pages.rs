//! The pages and downloads over real sockets: `/quote`, the CSV and JSON downloads,
//! `/openapi.json`, `/track?format=csv`, and where the data comes from in `/health`.

use datasets::Source;
use test_support::TempDir;

use crate::support::{Server, config};

/// Three days of scaled reference data, so the DCX moves.
async fn three_days(name: &str) -> (Server, TempDir) {
    let dir = TempDir::new(name);
    for (date, level) in [("2026-11-18", 1.0), ("2026-11-19", 1.02), ("2026-11-20", 0.99)] {
        let files = datasets::reference::generate_variant(&format!("{date}T00:00:00Z"), level);
        datasets::fs::write_dir_atomic(&dir.0.join(date), &files, false).unwrap();
    }
    (Server::start(config(Source::History(dir.0.clone()))).await, dir)
}

#[tokio::test]
async fn the_calculator_answers_per_query_with_the_track_prices() {
    let (server, _dir) = three_days("pages-quote").await;
    let query = "shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4";
    let page = server.get(&format!("/quote?{query}")).await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(page.header("content-security-policy"), Some(feeds::CONTENT_SECURITY_POLICY));
    assert_eq!(page.header("cache-control"), Some("public, max-age=64800"));
    let html = String::from_utf8(page.body).unwrap();
    let track = server.get(&format!("/track?{query}")).await.json();
    let live = &track["entries"][2];
    assert!(html.contains(&format!("data-total-usd=\"{}\"", live["total_usd"])), "{html}");
    assert_eq!(html.matches("<circle").count(), 3, "one point per day of the stone");
    assert!(!html.contains("Sample data."));

    let bad = server.get("/quote?shape=round&carat=9&color=G&clarity=VS2").await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.header("cache-control"), Some("no-store"));
    let html = String::from_utf8(bad.body).unwrap();
    let track = server.get("/track?shape=round&carat=9&color=G&clarity=VS2").await.json();
    let message = track["problems"][0]["message"].as_str().unwrap();
    assert!(html.contains(&format!(r#"id="carat-problem">{message}"#)), "{message}: {html}");
}

#[tokio::test]
async fn downloads_are_prebuilt_and_conditional() {
    let (server, _dir) = three_days("pages-downloads").await;
    let csv = server.get("/index/history.csv").await;
    assert_eq!(csv.status, 200);
    assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8; header=present"));
    let rows: Vec<&str> = csv.text().trim_end().split("\r\n").collect();
    assert_eq!(rows.len(), 4);
    assert!(rows[1].starts_with("2026-11-18,"));
    let etag = format!("If-None-Match: {}", csv.header("etag").unwrap());
    assert_eq!(server.request("GET", "/index/history.csv", &[&etag]).await.status, 304);
    let gz = server.request("GET", "/matrix.csv", &["Accept-Encoding: gzip"]).await;
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    let matrix = String::from_utf8(gz.decoded()).unwrap();
    assert!(matrix.starts_with("band,color,clarity,usd_per_carat\r\n0.3,D,FL,"), "{matrix}");

    let history = server.get("/index/history.json").await.json();
    let days = history["days"].as_array().unwrap();
    let index = server.get("/index.json").await.json();
    assert_eq!(days.len(), 3);
    assert_eq!(days[2]["dcx"], index["dcx"]);

    let openapi = server.get("/openapi.json").await;
    assert_eq!(openapi.status, 200);
    assert_eq!(openapi.json()["openapi"], "3.1.0");
    let css = server.get("/site.css").await;
    assert_eq!(css.header("content-type"), Some("text/css; charset=utf-8"));
}

#[tokio::test]
async fn track_answers_csv_on_request_and_refuses_unknown_formats() {
    let (server, _dir) = three_days("pages-track-csv").await;
    let csv = server.get("/track?carat=1&color=G&clarity=VS2&format=csv").await;
    assert_eq!(csv.status, 200);
    assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8; header=present"));
    let text = String::from_utf8(csv.body).unwrap();
    assert_eq!(text.trim_end().split("\r\n").count(), 4, "{text}");
    let header = text.lines().next().unwrap();
    assert!(header.ends_with(",error,low_usd,high_usd,observations,basis"), "{header}");
    assert!(text.lines().all(|row| row.split(',').count() == 16), "{text}");
    let bad = server.get("/track?carat=1&color=G&clarity=VS2&format=xml").await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json()["problems"][0]["allowed"], "json, csv");

    let health = server.get("/health").await.json();
    assert_eq!(health["source"], "history");
    assert_eq!(health["sample_data"], false);
}
