//! `tool-server`: serves the pricing tools over MCP (streamable HTTP; protocol 2026-07-28
//! and the 2025 revisions) until SIGINT/SIGTERM; SIGHUP reloads the data, and so does
//! `--poll-secs` for a history folder, as in the feed server.
use std::{process::ExitCode, sync::Arc};

use clap::Parser;

mod args;
#[path = "../../shared/connection_flags.rs"]
mod connection_flags;
#[cfg(test)]
mod tests;

use crate::args::Args;

/// Writes one event line to stderr: the binary's only output.
fn log(line: &str) {
    eprintln!("tool-server: {line}");
}

#[tokio::main]
async fn main() -> ExitCode {
    match run(Args::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            log(&format!("error: {}", serve::ErrorReport(&*err)));
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let settings = args.into_settings();
    let (live, skipped) = datasets::Live::open(settings.source.clone())?;
    skipped.iter().for_each(|day| log(&day.to_string()));
    log(&live.serving_note());
    let live = Arc::new(live);
    let listener = serve::bind(settings.listen).await?;
    let _reloads =
        serve::spawn_reloads(Arc::clone(&live), settings.poll, |outcome| log(&outcome.to_string()));
    let config = settings.config(live, Arc::new(chrono::Utc::now));
    let events = |event: &serve::Event<'_>| log(&event.to_string());
    tools::run(config, listener, serve::shutdown_signal(), events).await?;
    Ok(())
}
