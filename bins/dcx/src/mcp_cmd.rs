//! `dcx mcp`: the pricing tools over MCP on stdin/stdout (newline-delimited JSON-RPC),
//! for desktop hosts that launch a local command. Both protocol eras; the same
//! `tools::Mcp` dispatch and pricing code as the HTTP tool server and `dcx quote`.
//! stdout carries only MCP messages; diagnostics go to stderr. Exits 0 at end of input.

use std::{process::ExitCode, sync::Arc};

use crate::Outcome;

/// Arguments of `dcx mcp`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  dcx mcp                              the embedded reference snapshot, both protocol eras
  dcx mcp --history /srv/dcx/history   the newest valid day live, polled every 60 s

stdout carries only MCP messages, one JSON-RPC message per line; diagnostics go to stderr.
Exits 0 when stdin ends. Host configuration: the README's \"Use it from your MCP client\".")]
pub(crate) struct Args {
    #[command(flatten)]
    data: launcher::DataFlags,
    /// Base URL of the feed server that `tracking_url` links point at.
    #[arg(long, default_value = launcher::DEFAULT_FEED_URL, value_parser = tools::parse_url)]
    feed_url: String,
    /// Write one stderr line per message.
    #[arg(long)]
    log_messages: bool,
}

pub(crate) fn run(args: Args) -> Outcome {
    // One worker runs the reload loop (SIGHUP, and the history poll) beside the blocking
    // stdio loop on this thread. SIGHUP is handled from before the data loads: one sent
    // meanwhile reloads once the loop runs instead of ending the process.
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    let hangups = {
        let _entered = runtime.enter();
        launcher::Hangups::install()
    };
    let source = args.data.source();
    let (live, skipped) =
        datasets::Live::open_with_clock(source, Arc::new(std::time::SystemTime::now))?;
    skipped.iter().for_each(|day| log(&day.to_string()));
    let live = Arc::new(live);
    let reloads = {
        let _entered = runtime.enter();
        launcher::spawn_reloads(Arc::clone(&live), args.data.poll(), hangups, |outcome| {
            if outcome.is_news() {
                log(&outcome.to_string());
            }
        })
    };
    let links = tools::price::Links::new(&args.feed_url);
    let mcp =
        tools::Mcp::new(live, links, Arc::new(std::time::SystemTime::now), "stdio".to_owned());
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
