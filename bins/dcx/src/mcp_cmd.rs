//! `dcx mcp`: the pricing tools over MCP on stdin/stdout (newline-delimited JSON-RPC),
//! for desktop hosts that launch a local command. Both protocol eras; the same
//! `tools::Mcp` dispatch and pricing code as the HTTP tool server and `dcx quote`.
//! stdout carries only MCP messages; diagnostics go to stderr. Exits 0 at end of input.

use std::{path::PathBuf, process::ExitCode, sync::Arc, time::Duration};

use crate::Outcome;

/// Arguments of `dcx mcp`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Serve one snapshot folder instead of the embedded reference snapshot.
    #[arg(long, conflicts_with = "history")]
    snapshot: Option<PathBuf>,
    /// Serve a folder of dated (`YYYY-MM-DD`) snapshots; the newest valid one is live.
    #[arg(long)]
    history: Option<PathBuf>,
    /// Seconds between checks of the history folder for a new day; 0 disables polling
    /// (SIGHUP always reloads).
    #[arg(long, default_value_t = 60)]
    poll_secs: u64,
    /// Base URL of the feed server that `tracking_url` links point at.
    #[arg(long, default_value = "http://127.0.0.1:8080", value_parser = tools::parse_url)]
    feed_url: String,
    /// Write one stderr line per message.
    #[arg(long)]
    log_messages: bool,
}

pub(crate) fn run(args: Args) -> Outcome {
    let source = datasets::Source::from_dirs(args.snapshot, args.history);
    let (live, skipped) = datasets::Live::open(source)?;
    skipped.iter().for_each(|day| log(&day.to_string()));
    let live = Arc::new(live);
    // One worker runs the reload loop (SIGHUP, and the history poll) beside the blocking
    // stdio loop on this thread.
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    let reloads = {
        let _entered = runtime.enter();
        let poll = Some(Duration::from_secs(args.poll_secs));
        serve::spawn_reloads(Arc::clone(&live), poll, |outcome| log(&outcome.to_string()))
    };
    let links = tools::price::Links { feed_url: args.feed_url.trim_end_matches('/').to_owned() };
    let mcp = tools::Mcp::new(live, links, Arc::new(chrono::Utc::now), "stdio".to_owned());
    log("serving MCP on stdin/stdout (protocol 2026-07-28 and 2025-11-25, 2025-06-18, 2025-03-26)");
    let verbose = args.log_messages;
    let served =
        tools::serve_stdio(&mcp, std::io::stdin().lock(), std::io::stdout().lock(), |event| {
            if verbose || event == tools::LineEvent::TooLong {
                log(&format!("{event:?}"));
            }
        });
    drop(reloads);
    runtime.shutdown_background();
    served?;
    log("end of input");
    Ok(ExitCode::SUCCESS)
}

/// One diagnostic line on stderr (stdout is the protocol's).
fn log(line: &str) {
    eprintln!("dcx mcp: {line}");
}
