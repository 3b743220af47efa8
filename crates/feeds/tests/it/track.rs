//! `/track`: one stone across the snapshot history.

use datasets::{Feed, Source};
use pricing::{Clarity, Color, QuoteRequest, Shape, round_cents};
use test_support::TempDir;

use crate::support::{Server, config, write_day, write_plain_day};

const OVAL_SLIDER: &str = "\"min\": 1.25,\n        \"center\": 1.4,\n        \"max\": 1.7";
const NARROW_OVAL_SLIDER: &str = "\"min\": 1.25,\n        \"center\": 1.4,\n        \"max\": 1.5";

/// Three days; on the oldest the oval slider ends at 1.5.
async fn three_days(name: &str) -> (Server, TempDir) {
    let dir = TempDir::new(name);
    write_day(&dir.0, "2026-11-18", |feed, text| match feed {
        Feed::RatioModels => {
            assert!(text.contains(OVAL_SLIDER));
            text.replace(OVAL_SLIDER, NARROW_OVAL_SLIDER)
        }
        _ => text,
    });
    write_plain_day(&dir.0, "2026-11-19");
    write_plain_day(&dir.0, "2026-11-20");
    (Server::start(config(Source::History(dir.0.clone()))).await, dir)
}

#[tokio::test]
async fn single_snapshot_round_stone() {
    let server = Server::reference().await;
    let reply = server.get("/track?carat=1.01&color=g&clarity=vs2").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("cache-control"), Some("public, max-age=64800"));
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let body = reply.json();
    assert_eq!(
        (body["shape"].as_str(), body["color"].as_str(), body["clarity"].as_str()),
        (Some("round"), Some("G"), Some("VS2"))
    );
    let entries = body["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let quote = datasets::Snapshot::reference()
        .quote(&QuoteRequest {
            carat: 1.01,
            color: Color::G,
            clarity: Clarity::Vs2,
            shape: Shape::Round,
            ratio: None,
        })
        .unwrap();
    assert_eq!(entries[0]["ts"], "2026-11-20T00:00:00Z");
    assert_eq!(entries[0]["per_carat_usd"], round_cents(quote.per_carat_usd));
    assert_eq!(entries[0]["total_usd"], round_cents(quote.per_carat_usd * 1.01));
    assert!(entries[0].get("ratio_multiplier").is_none());
}

#[tokio::test]
async fn every_day_oldest_first_with_per_day_errors() {
    let (server, _dir) = three_days("track-days").await;
    let reply = server.get("/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.6").await;
    assert_eq!(reply.status, 200);
    let body = reply.json();
    assert_eq!(body["live_ts"], "2026-11-20T00:00:00Z");
    let entries = body["entries"].as_array().unwrap();
    let ts: Vec<&str> = entries.iter().map(|e| e["ts"].as_str().unwrap()).collect();
    assert_eq!(ts, ["2026-11-18T00:00:00Z", "2026-11-19T00:00:00Z", "2026-11-20T00:00:00Z"]);
    // 1.6 is beyond the oldest day's slider: that entry says why, the others price.
    let error = entries[0]["error"].as_str().unwrap();
    assert!(error.contains("between 1.25 and 1.5"), "{error}");
    assert!(entries[0].get("per_carat_usd").is_none());
    for entry in &entries[1..] {
        assert!(entry.get("error").is_none(), "{entry}");
        let per_carat = entry["per_carat_usd"].as_f64().unwrap();
        let total = entry["total_usd"].as_f64().unwrap();
        assert!((total - per_carat * 1.23).abs() < 0.01, "{entry}");
        assert_eq!(entry["shape_ratio"], 1.6);
        assert!(entry["ratio_multiplier"].as_f64().unwrap() > 0.0);
    }
    // Within every day's slider, every day prices.
    let ok = server.get("/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4").await.json();
    assert!(ok["entries"].as_array().unwrap().iter().all(|e| e["total_usd"].is_number()));
}

#[tokio::test]
async fn bad_parameters_get_400_naming_each() {
    let server = Server::reference().await;
    let reply = server.get("/track?shape=blob&carat=9&color=Z&clarity=vs2&colour=G").await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let body = reply.json();
    assert_eq!(body["error"], "invalid parameters");
    let problems: Vec<[&str; 3]> = body["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| ["parameter", "message", "allowed"].map(|key| p[key].as_str().unwrap()))
        .collect();
    // The quote rules' words, the same as `dcx quote` and `get_diamond_price` report.
    assert_eq!(
        problems,
        [
            [
                "colour",
                r#"unknown parameter "colour""#,
                "shape, carat, color, clarity, ratio, format, days, from"
            ],
            ["carat", "carat must be between 0.3 and 6, got 9", "a number of carats from 0.3 to 6"],
            [
                "color",
                r#"unknown color "Z"; allowed: D, E, F, G, H, I, J, K, L, M"#,
                "one of D, E, F, G, H, I, J, K, L, M",
            ],
            [
                "shape",
                r#"unknown shape "blob"; allowed: round, cushion, radiant, emerald, oval, pear, marquise, heart"#,
                "one of round, cushion, radiant, emerald, oval, pear, marquise, heart (default round)",
            ],
        ]
    );
    let missing = server.get("/track").await.json();
    assert_eq!(missing["problems"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn thousands_of_bad_parameters_get_a_short_answer() {
    let server = Server::reference().await;
    let query = format!("shape=round&carat=1&color=G&clarity=VS2{}", "&a".repeat(10_000));
    let reply = server.get(&format!("/track?{query}")).await;
    assert_eq!(reply.status, 400);
    assert!(reply.body.len() <= 16 * 1024, "{} bytes", reply.body.len());
    let body = reply.json();
    assert_eq!(body["problems"].as_array().unwrap().len(), 8);
    assert_eq!(body["more_problems"], 9_992);
}

/// The window: the last days by default, `days=N`, `days=all` or `from=DATE`; a bad or
/// doubled window is a 400 naming the parameter.
#[tokio::test]
async fn the_window_is_bounded_by_default_and_wider_on_request() {
    let dir = TempDir::new("track-window");
    for date in ["2026-09-01", "2026-10-15", "2026-11-19", "2026-11-20"] {
        write_plain_day(&dir.0, date);
    }
    let server = Server::start(config(Source::History(dir.0.clone()))).await;
    let dates = |body: &serde_json::Value| -> Vec<String> {
        let entries = body["entries"].as_array().unwrap();
        entries.iter().map(|e| e["date"].as_str().unwrap().to_owned()).collect()
    };
    let stone = "/track?carat=1&color=G&clarity=VS2";
    let default = server.get(stone).await.json();
    assert_eq!(dates(&default), ["2026-11-19", "2026-11-20"]);
    assert_eq!(
        (default["from"].as_str(), default["history_days"].as_u64()),
        (Some("2026-10-21"), Some(4))
    );
    let all = server.get(&format!("{stone}&days=all")).await.json();
    assert_eq!(dates(&all), ["2026-09-01", "2026-10-15", "2026-11-19", "2026-11-20"]);
    assert!(all["entries"].as_array().unwrap().iter().all(|e| e["total_usd"].is_number()));
    let wider = server.get(&format!("{stone}&days=40")).await.json();
    assert_eq!(dates(&wider), ["2026-10-15", "2026-11-19", "2026-11-20"]);
    let from = server.get(&format!("{stone}&from=2026-09-02&format=csv")).await;
    assert_eq!(from.text().lines().count(), 4, "{}", from.text());
    // Both bounds given: the window starts at the later one.
    let both = server.get(&format!("{stone}&days=40&from=2026-11-01")).await.json();
    assert_eq!(dates(&both), ["2026-11-19", "2026-11-20"]);
    for bad in ["days=-1", "days=soon", "from=2026-13-01"] {
        let reply = server.get(&format!("{stone}&{bad}")).await;
        assert_eq!(reply.status, 400, "{bad}");
        let problem = &reply.json()["problems"][0];
        assert!(["days", "from"].contains(&problem["parameter"].as_str().unwrap()), "{bad}");
    }
}

/// `/track` and a priced `/quote` carry an `ETag`, are gzipped when asked and answer
/// `304` to a matching `If-None-Match`.
#[tokio::test]
async fn track_and_quote_answers_are_cacheable_and_gzipped() {
    let server = Server::reference().await;
    for path in ["/track?carat=1&color=G&clarity=VS2", "/quote?carat=1&color=G&clarity=VS2"] {
        let plain = server.request("GET", path, &[]).await;
        assert_eq!(plain.status, 200, "{path}");
        let etag = plain.header("etag").expect("an ETag").to_owned();
        let gzip = server.request("GET", path, &["Accept-Encoding: gzip"]).await;
        assert_eq!(gzip.header("content-encoding"), Some("gzip"), "{path}");
        assert_eq!(gzip.decoded(), plain.body, "{path}");
        let again = server.request("GET", path, &[&format!("If-None-Match: {etag}")]).await;
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
    }
}
