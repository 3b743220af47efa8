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

fn main() -> ExitCode {
    let args = Args::parse();
    if let Err(err) = args.logs.init() {
        eprintln!("{SERVER}: {err}");
        return ExitCode::from(2);
    }
    let served =
        allocator::block_on_workers(run(args)).map_err(Into::into).and_then(|served| served);
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            telemetry::fatal(SERVER, &*err);
            ExitCode::FAILURE
        }
    }
}

async fn run(mut args: Args) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // First of all: a SIGHUP while the data loads reloads once serving, never ends us.
    let hangups = serve::Hangups::install();
    if let Some(lowered) = args.connections.fit_open_files(1) {
        telemetry::note(SERVER, &lowered);
    }
    let settings = args.into_settings();
    let (live, skipped) = datasets::Live::open_with_clock(
        settings.source.clone(),
        Arc::new(std::time::SystemTime::now),
    )?;
    skipped.iter().for_each(|day| telemetry::skipped(SERVER, day));
    telemetry::started(SERVER, env!("CARGO_PKG_VERSION"), &live);
    let live = Arc::new(live);
    let clock: serve::Clock = Arc::new(std::time::SystemTime::now);
    let listener = serve::bind(settings.listen).await?;
    let metrics = settings.metrics.start(env!("CARGO_PKG_VERSION"), &live, &clock).await?;
    let report = telemetry::on_reload(SERVER, metrics.clone());
    let _reloads = serve::spawn_reloads(Arc::clone(&live), settings.poll, hangups, report);
    let mut config = settings.config(live, clock);
    config.metrics = metrics.is_some();
    config.on_tool_call = metrics.as_ref().map(telemetry::Metrics::tool_call_hook);
    let counted = metrics.map(|metrics| metrics.server("tools", &tools::ROUTES));
    let events = telemetry::on_event(SERVER, counted);
    tools::run(config, listener, serve::shutdown_signal(), events).await?;
    Ok(())
}
