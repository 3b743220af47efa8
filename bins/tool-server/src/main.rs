//! `tool-server`: serves the pricing tools over MCP (streamable HTTP, protocol 2026-07-28)
//! until SIGINT/SIGTERM; SIGHUP reloads the data, and so does `--poll-secs` for a history
//! folder, as in the feed server.
use std::{process::ExitCode, sync::Arc};

use clap::Parser;

mod args;
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
            let mut text = err.to_string();
            let mut source = err.source();
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            log(&format!("error: {text}"));
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let settings = args.into_settings()?;
    let (live, notes) = datasets::Live::open(settings.source.clone())?;
    notes.iter().for_each(|note| log(note));
    let live = Arc::new(live);
    let listener = tokio::net::TcpListener::bind(settings.listen).await?;
    let reload = tools::spawn_reloads(Arc::clone(&live), settings.poll, log);
    let config = settings.config(live, Arc::new(chrono::Utc::now));
    let events = |event: &serve::Event<'_>| log(&event.to_string());
    let served = tools::run(config, listener, serve::shutdown_signal(), events).await;
    reload.abort();
    Ok(served?)
}
