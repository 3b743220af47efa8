//! Tests of flag parsing.

use clap::Parser;

use crate::Args;

/// The flags of the command line `flags`, split on whitespace, or clap's message.
fn parse(flags: &str) -> Result<Args, String> {
    Args::try_parse_from(std::iter::once("tool-server").chain(flags.split_whitespace()))
        .map_err(|e| e.to_string())
}

#[test]
fn defaults_serve_the_embedded_snapshot_on_8081() {
    let args = parse("").unwrap();
    assert_eq!(args.listen.to_string(), "127.0.0.1:8081");
    assert_eq!(args.server.data.source(), datasets::Source::Embedded);
    assert_eq!(args.server.data.poll(), Some(std::time::Duration::from_secs(60)));
    assert_eq!(args.tool_server().feed_url.as_deref(), Some("http://127.0.0.1:8080"));
}

#[test]
fn poll_secs_is_the_feed_servers_flag() {
    // What the reload loop uses: the shared rule applied to the flag, for a history folder.
    let every = |flags: &str| {
        let args = parse(&format!("{flags} --history h")).unwrap();
        args.server.data.source().poll_period(args.server.data.poll()).map(|poll| poll.as_secs())
    };
    assert_eq!(every(""), Some(60));
    assert_eq!(every("--poll-secs 5"), Some(5));
    assert_eq!(every("--poll-secs 0"), None);
}

#[test]
fn snapshot_and_history_exclude_each_other() {
    assert!(parse("--snapshot a --history b").is_err());
    let source = parse("--history h").unwrap().server.data.source();
    assert_eq!(source, datasets::Source::History("h".into()));
}

#[test]
fn bad_values_are_refused() {
    assert!(parse("--poll-secs -1").is_err());
    assert!(parse("--public-url ftp://x").is_err());
    let refused = parse("--feed-url notaurl").unwrap_err();
    assert!(refused.contains("invalid value 'notaurl' for '--feed-url <"), "{refused}");
    assert!(parse("--listen nowhere").is_err());
}

#[test]
fn flags_reach_the_config() {
    let args = parse(
        "--public-url https://mcp.example.com/ --feed-url https://feeds.example.com/ \
         --allowed-origin https://a.example --allowed-origin https://b.example --grace-secs 3",
    )
    .unwrap();
    let live = std::sync::Arc::new(datasets::Live::fixed(datasets::History::single(
        datasets::Snapshot::reference(),
    )));
    let tools = args.tool_server();
    let feed_url = tools.feed_url.clone().unwrap();
    let clock = std::sync::Arc::new(std::time::SystemTime::now);
    let config = launcher::tool_config(&args.server, &tools.flags, feed_url, live, clock);
    assert_eq!(config.public_url.as_deref(), Some("https://mcp.example.com/"));
    assert_eq!(config.links.feed_url(), "https://feeds.example.com");
    assert_eq!(config.allowed_origins.len(), 2);
    assert_eq!(config.limits.grace.as_secs(), 3);
}
