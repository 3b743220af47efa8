//! Reloads that swap or are refused, and requests in flight during reloads and shutdown.

use std::time::Duration;

use datasets::{Feed, Source};
use test_support::TempDir;

use crate::support::{Server, assert_consistent, config, write_day, write_plain_day};

#[tokio::test]
async fn a_new_day_is_swapped_in_with_its_representations() {
    let dir = TempDir::new("reload-swap");
    write_plain_day(&dir.0, "2026-11-20");
    let server = Server::start(config(Source::History(dir.0.clone()))).await;
    let before = server.get("/matrix.json").await;
    assert_eq!(assert_consistent(&before), "2026-11-20T00:00:00Z");

    write_plain_day(&dir.0, "2026-11-21");
    let line = server.reload().await;
    assert!(
        line.starts_with("reload accepted: now serving snapshot 2026-11-21T00:00:00Z (2 days)"),
        "{line}"
    );

    let after = server.get("/matrix.json").await;
    assert_eq!(assert_consistent(&after), "2026-11-21T00:00:00Z");
    assert_ne!(after.header("etag"), before.header("etag"));
    let health = server.get("/health").await.json();
    assert_eq!(
        (health["ts"].as_str(), health["history_days"].as_u64()),
        (Some("2026-11-21T00:00:00Z"), Some(2))
    );
    // The old validator no longer matches; the new one does.
    let old = format!("If-None-Match: {}", before.header("etag").unwrap());
    assert_eq!(server.request("GET", "/matrix.json", &[&old]).await.status, 200);
    let new = format!("If-None-Match: {}", after.header("etag").unwrap());
    assert_eq!(server.request("GET", "/matrix.json", &[&new]).await.status, 304);
    let quiet = server.reload().await;
    assert_eq!(quiet, "reload kept snapshot 2026-11-21T00:00:00Z", "nothing new to say");
}

#[tokio::test]
async fn a_corrupt_new_day_is_refused_and_the_old_one_keeps_serving() {
    let dir = TempDir::new("reload-corrupt");
    write_plain_day(&dir.0, "2026-11-20");
    let server = Server::start(config(Source::History(dir.0.clone()))).await;
    let before = server.get("/index.json").await;

    write_day(&dir.0, "2026-11-21", |feed, text| match feed {
        Feed::Matrix => text[..text.len() / 2].to_owned(),
        _ => text,
    });
    let line = server.reload().await;
    assert!(line.contains("kept snapshot 2026-11-20T00:00:00Z"), "{line}");
    assert!(line.contains("skipped 2026-11-21") && line.contains("matrix.json"), "{line}");

    let after = server.get("/index.json").await;
    assert_eq!(after.body, before.body);
    assert_eq!(after.header("etag"), before.header("etag"));
    assert_eq!(server.live_ts(), "2026-11-20T00:00:00Z");

    // Health says so, with the day and the reason, until a valid newer day is live.
    let health = server.get("/health").await;
    assert_eq!(health.status, 200);
    let health = health.json();
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["refused"]["day"], "2026-11-21");
    assert!(health["refused"]["reason"].as_str().unwrap().contains("matrix.json"), "{health}");
    write_plain_day(&dir.0, "2026-11-22");
    server.reload().await;
    let health = server.get("/health").await.json();
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(health.get("refused"), None);
}

#[tokio::test]
async fn a_corrupt_snapshot_folder_is_refused() {
    let dir = TempDir::new("reload-snapshot");
    write_plain_day(&dir.0, "2026-11-20");
    let folder = dir.0.join("2026-11-20");
    let server = Server::start(config(Source::Snapshot(folder.clone()))).await;
    let ts_changed = std::fs::read_to_string(folder.join("depth.json"))
        .unwrap()
        .replace("2026-11-20", "2026-11-21");
    std::fs::write(folder.join("depth.json"), ts_changed).unwrap();
    let line = server.reload().await;
    assert!(
        line.starts_with("reload refused, still serving snapshot 2026-11-20T00:00:00Z"),
        "{line}"
    );
    assert_eq!(assert_consistent(&server.get("/depth.json").await), "2026-11-20T00:00:00Z");
}

#[tokio::test]
async fn health_shows_why_a_folder_was_refused_without_its_path() {
    let dir = TempDir::new("reload-path");
    write_plain_day(&dir.0, "2026-11-20");
    let folder = dir.0.join("2026-11-20");
    let server = Server::start(config(Source::Snapshot(folder.clone()))).await;
    std::fs::remove_file(folder.join("matrix.json")).unwrap();
    let line = server.reload().await;
    assert!(line.contains(&folder.display().to_string()), "the log keeps the path: {line}");
    let health = server.get("/health").await.json();
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["source"], "snapshot");
    let reason = health["refused"]["reason"].as_str().unwrap();
    assert!(reason.contains("matrix.json"), "{reason}");
    assert!(!health.to_string().contains(&dir.0.display().to_string()), "{health}");
}

#[tokio::test]
async fn requests_in_flight_during_reloads_stay_consistent() {
    let dir = TempDir::new("reload-flight");
    write_plain_day(&dir.0, "2026-11-20");
    let server = Server::start(config(Source::History(dir.0.clone()))).await;
    let mut clients = Vec::new();
    for i in 0..4 {
        let mut client = server.connect().await;
        clients.push(tokio::spawn(async move {
            let mut seen = Vec::new();
            for n in 0..60 {
                let gzip = if (i + n) % 2 == 0 { "Accept-Encoding: gzip" } else { "Accept: */*" };
                let path = if n % 3 == 0 { "/index.json" } else { "/matrix.json" };
                let reply = client.request("GET", path, &[gzip]).await;
                seen.push(assert_consistent(&reply));
            }
            seen
        }));
    }
    let day = dir.0.join("2026-11-21");
    for round in 0..10 {
        if round % 2 == 0 {
            write_plain_day(&dir.0, "2026-11-21");
        } else {
            std::fs::remove_dir_all(&day).unwrap();
        }
        let line = server.reload().await;
        // Removing the live day is an operator's rollback.
        let expected = if round % 2 == 0 { "reload accepted" } else { "reload rolled back" };
        assert!(line.starts_with(expected), "{line}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let mut all = Vec::new();
    for client in clients {
        all.extend(client.await.unwrap());
    }
    assert_eq!(all.len(), 240);
    assert!(all.iter().all(|ts| ts == "2026-11-20T00:00:00Z" || ts == "2026-11-21T00:00:00Z"));
}

#[tokio::test]
async fn shutdown_lets_a_request_in_flight_finish() {
    let mut config = config(Source::Embedded);
    // Allow a one-byte body so that `Expect: 100-continue` can hold a request in flight.
    config.limits.max_body_bytes = 16;
    let mut server = Server::start(config).await;
    let mut client = server.connect().await;
    client
        .send("GET /matrix.json HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nAccept-Encoding: gzip\r\nExpect: 100-continue\r\n\r\n")
        .await;
    assert_eq!(client.reply(true).await.status, 100);

    server.shutdown();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!server.is_finished(), "serve returned with a request in flight");
    assert!(tokio::net::TcpStream::connect(server.addr).await.is_err(), "still accepting");

    client.send("x").await;
    assert_eq!(assert_consistent(&client.reply(false).await), "2026-11-20T00:00:00Z");
    client.closed().await;
    let events = server.finished().await;
    let tail: Vec<&str> = events.iter().rev().take(2).rev().map(String::as_str).collect();
    assert_eq!(tail, ["shutdown begun: no longer accepting", "drained: all connections closed"]);
}

#[tokio::test]
async fn shutdown_under_load_completes_every_answered_request() {
    let mut server = Server::reference().await;
    let mut clients = Vec::new();
    for _ in 0..4 {
        let mut client = server.connect().await;
        clients.push(tokio::spawn(async move {
            let mut answered = 0;
            for _ in 0..1000 {
                let request =
                    "GET /matrix.json HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n";
                if !client.try_send(request).await {
                    break;
                }
                // After shutdown the server closes each connection once its current
                // response is written: a reply is whole, or there is none.
                match tokio::time::timeout(Duration::from_secs(5), client.try_reply()).await {
                    Ok(Some(reply)) => {
                        assert_consistent(&reply);
                        answered += 1;
                    }
                    Ok(None) => break,
                    Err(_) => panic!("stuck"),
                }
            }
            answered
        }));
    }
    tokio::time::sleep(Duration::from_millis(30)).await;
    server.shutdown();
    let events = server.finished().await;
    let mut answered = 0;
    for client in clients {
        answered += client.await.unwrap();
    }
    assert!(answered > 0);
    assert_eq!(events.last().map(String::as_str), Some("drained: all connections closed"));
}

/// A day folder holding another day's snapshot (`2026-11-21/` with the `ts` of the 22nd)
/// is refused like an invalid one: served, it would publish the 22nd's prices as the 21st.
#[tokio::test]
async fn a_misdated_new_day_is_refused() {
    let dir = TempDir::new("reload-misdated");
    write_plain_day(&dir.0, "2026-11-20");
    let server = Server::start(config(Source::History(dir.0.clone()))).await;
    // Every file, `matrix_stats.json` too, carries the 22nd's `ts`.
    test_support::write_day(&dir.0, "2026-11-21", |_, text| {
        text.replace("2026-11-21", "2026-11-22")
    });
    let line = server.reload().await;
    assert_eq!(
        line,
        "reload kept snapshot 2026-11-20T00:00:00Z; skipped 2026-11-21: the folder is dated \
         2026-11-21 but holds the snapshot of 2026-11-22 (ts 2026-11-22T00:00:00Z)"
    );
    assert_eq!(assert_consistent(&server.get("/index.json").await), "2026-11-20T00:00:00Z");
    let refusal = server.live.last_refusal().unwrap();
    assert_eq!(refusal.day.unwrap().to_string(), "2026-11-21");
}
