//! `/check`: an asking price against the live quote of a stone, over a real socket: the
//! JSON answer (the verdict and percentile of `Evidence::assess`), caching like `/track`,
//! `400` in `/track`'s words, `503` for a day without spreads; `/track` entries and the
//! calculator carry the same evidence.

use datasets::{Snapshot, Source};
use pricing::{Clarity, Color, QuoteRequest, Shape, round_cents};
use test_support::TempDir;

use crate::support::{Server, config, write_plain_day};

const STONE: &str = "shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4";

#[tokio::test]
async fn an_ask_is_weighed_against_the_live_quote() {
    let server = Server::reference().await;
    let snapshot = Snapshot::reference();
    let oval = QuoteRequest {
        carat: 1.23,
        color: Color::G,
        clarity: Clarity::Vs2,
        shape: Shape::Oval,
        ratio: Some(1.4),
    };
    let quote = snapshot.quote(&oval).unwrap();
    let evidence = snapshot.evidence(&quote).unwrap();
    for ask in [3000.0, 6500.0, 7217.06, 20000.0] {
        let reply = server.get(&format!("/check?{STONE}&asking_price_usd={ask}")).await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(reply.header("cache-control"), Some("public, max-age=64800"));
        let body = reply.json();
        let assessed = evidence.assess(ask);
        assert_eq!(body["verdict"], assessed.verdict.as_str(), "{body}");
        assert_eq!(body["percentile"], (assessed.percentile * 10.0).round() / 10.0 + 0.0);
        assert_eq!(body["benchmark_usd"], round_cents(quote.total_usd));
        assert_eq!(body["benchmark_per_carat_usd"], round_cents(quote.per_carat_usd));
        assert_eq!(body["range"]["low_usd"], round_cents(evidence.range.low_usd));
        assert_eq!(body["observations"], evidence.observations);
        assert_eq!(body["basis"], evidence.basis.as_str());
        assert_eq!(body["as_of"], "2026-11-20T00:00:00Z");
        assert_eq!(body["asking_price_usd"], ask);
    }
    // Conditional requests, as `/track`.
    let mut client = server.connect().await;
    let target = format!("/check?{STONE}&asking_price_usd=6500");
    let reply = client.request("GET", &target, &[]).await;
    let line = format!("If-None-Match: {}", reply.header("etag").expect("an etag"));
    assert_eq!(client.request("GET", &target, &[&line]).await.status, 304);
}

#[tokio::test]
async fn bad_parameters_get_400_in_the_words_of_track() {
    let server = Server::reference().await;
    let reply =
        server.get("/check?shape=blob&carat=1&color=G&clarity=VS2&asking_price_usd=abc").await;
    assert_eq!(reply.status, 400);
    let body = reply.json();
    assert_eq!(body["error"], "invalid parameters");
    let track = server.get("/track?shape=blob&carat=1&color=G&clarity=VS2").await.json();
    assert_eq!(body["problems"][0], track["problems"][0]);
    let ask = &body["problems"][1];
    assert_eq!(ask["parameter"], "asking_price_usd");
    assert_eq!(
        ask["message"],
        "asking_price_usd must be a finite number of US dollars greater than 0 (the total asked for the stone), got \"abc\""
    );
    assert!(body["example"].as_str().unwrap().starts_with("/check?"));
    for query in [
        "",
        "carat=1&color=G&clarity=VS2",
        "carat=1&color=G&clarity=VS2&asking_price_usd=0",
        "carat=1&color=G&clarity=VS2&asking_price_usd=1&days=3",
    ] {
        assert_eq!(server.get(&format!("/check?{query}")).await.status, 400, "{query}");
    }
}

#[tokio::test]
async fn a_day_without_spreads_cannot_check_but_still_prices() {
    let dir = TempDir::new("check-no-spreads");
    write_plain_day(&dir.0, "2026-11-20");
    std::fs::remove_file(dir.0.join("2026-11-20").join(datasets::MATRIX_STATS_FILE)).unwrap();
    let server = Server::start(config(Source::History(dir.0.clone()))).await;
    let reply = server.get(&format!("/check?{STONE}&asking_price_usd=6500")).await;
    assert_eq!(reply.status, 503);
    let body = reply.json();
    assert_eq!(body["error"], "no spread data");
    assert!(body["message"].as_str().unwrap().contains("matrix_stats.json"), "{body}");
    let tracked = server.get(&format!("/track?{STONE}")).await.json();
    let entry = tracked["entries"][0].as_object().unwrap();
    assert!(entry.contains_key("total_usd") && !entry.contains_key("range"), "{entry:?}");
    let page = server.get(&format!("/quote?{STONE}&asking_price_usd=6500")).await;
    assert_eq!(page.status, 200);
}

#[tokio::test]
async fn track_and_the_calculator_carry_the_evidence_of_check() {
    let server = Server::reference().await;
    let check = server.get(&format!("/check?{STONE}&asking_price_usd=6500")).await.json();
    let tracked = server.get(&format!("/track?{STONE}")).await.json();
    let entry = &tracked["entries"][0];
    for name in ["range", "observations", "basis"] {
        assert_eq!(entry[name], check[name], "{name}");
    }
    let page = server.get(&format!("/quote?{STONE}&asking_price_usd=6500")).await;
    assert_eq!(page.status, 200);
    let html = String::from_utf8(page.body).unwrap();
    assert!(
        html.contains(&format!(r#"data-verdict="{}""#, check["verdict"].as_str().unwrap())),
        "{html}"
    );
    assert!(html.contains(&format!(r#"data-percentile="{}""#, check["percentile"])), "{html}");
}
