//! `tool-server`: serves the pricing tools over MCP (streamable HTTP; protocol 2026-07-28
//! and the 2025 revisions) until SIGINT/SIGTERM; SIGHUP reloads the data, and so does
//! `--poll-secs` for a history folder, as in the feed server.
use std::{process::ExitCode, sync::Arc};

use clap::Parser;

mod args;
#[cfg(test)]
mod tests;

use crate::args::Args;

/// This server's name in its log events.
const SERVER: &str = "tool-server";

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    if let Err(err) = args.logs.init() {
        eprintln!("{SERVER}: {err}");
        return ExitCode::from(2);
    }
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            telemetry::fatal(SERVER, &*err);
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let settings = args.into_settings();
    let (live, skipped) = datasets::Live::open(settings.source.clone())?;
    skipped.iter().for_each(|day| telemetry::skipped(SERVER, day));
    telemetry::started(SERVER, env!("CARGO_PKG_VERSION"), &live);
    let live = Arc::new(live);
    let listener = serve::bind(settings.listen).await?;
    let _reloads = serve::spawn_reloads(Arc::clone(&live), settings.poll, |outcome| {
        telemetry::reload(SERVER, outcome)
    });
    let config = settings.config(live, Arc::new(std::time::SystemTime::now));
    let events = |event: &serve::Event<'_>| telemetry::server_event(SERVER, event);
    tools::run(config, listener, serve::shutdown_signal(), events).await?;
    Ok(())
}
