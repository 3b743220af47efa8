//! `feed-server`: serves the REST data feeds until SIGINT/SIGTERM; SIGHUP reloads.
//!
//! Thin on purpose: the data is loaded and validated, the address is bound, the reload
//! loop is started ([`serve::spawn_reloads`]), and [`feeds::run`] does the rest. One line
//! per event goes to stderr.

use std::{net::SocketAddr, process::ExitCode, sync::Arc, time::Duration};

/// Default listen address: loopback only.
const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

#[derive(Debug, clap::Parser)]
#[command(
    version,
    about = "Serves the diamond pricing data feeds over HTTP.",
    after_help = "Examples:
  feed-server                                  the embedded reference snapshot on :8080
  feed-server --history /srv/dcx/history       the newest valid day live, polled every 60 s
  feed-server --snapshot /srv/dcx/today --listen 0.0.0.0:8080 --access-log

SIGHUP reloads the data; SIGINT/SIGTERM drain and stop."
)]
struct Args {
    /// Address to listen on; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// Where the data comes from.
    #[command(flatten)]
    data: cli_flags::DataFlags,
    /// Log every request (one line each) to stderr.
    #[arg(long)]
    access_log: bool,
    /// Seconds in-flight requests may take to finish after SIGINT/SIGTERM.
    #[arg(long, default_value_t = 10)]
    grace_secs: u64,
    /// Connection caps.
    #[command(flatten)]
    connections: cli_flags::ConnectionFlags,
    /// Log format.
    #[command(flatten)]
    logs: cli_flags::LogFlags,
    /// Prometheus metrics.
    #[command(flatten)]
    metrics: cli_flags::MetricsFlags,
}

fn main() -> ExitCode {
    let args = <Args as clap::Parser>::parse();
    if let Err(err) = args.logs.init() {
        eprintln!("feed-server: {err}");
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
    let (live, skipped) =
        datasets::Live::open_with_clock(args.data.source(), Arc::new(std::time::SystemTime::now))?;
    skipped.iter().for_each(|day| telemetry::skipped(SERVER, day));
    telemetry::started(SERVER, env!("CARGO_PKG_VERSION"), &live);
    if let Some(note) = feeds::sample_note(&live.history()) {
        telemetry::note(SERVER, note);
    }
    let live = Arc::new(live);
    let clock: serve::Clock = Arc::new(std::time::SystemTime::now);
    let listener = serve::bind(args.listen).await?;
    let metrics = args.metrics.start(env!("CARGO_PKG_VERSION"), &live, &clock).await?;
    let poll = args.data.poll();
    let report = telemetry::on_reload(SERVER, metrics.clone());
    let _reloads = serve::spawn_reloads(Arc::clone(&live), poll, hangups, report);

    let mut config = feeds::Config::new(live, clock);
    config.access_log = args.access_log;
    config.metrics = metrics.is_some();
    config.limits.grace = Duration::from_secs(args.grace_secs);
    args.connections.apply(&mut config.limits);
    config.version = env!("CARGO_PKG_VERSION");
    let routes = feeds::Route::ALL.map(feeds::Route::path);
    let counted = metrics.map(|metrics| metrics.server("feeds", &routes));
    feeds::run(config, listener, serve::shutdown_signal(), telemetry::on_event(SERVER, counted))
        .await;
    Ok(())
}

/// This server's name in its log events.
const SERVER: &str = "feed-server";
