//! `feed-server`: serves the REST data feeds until SIGINT/SIGTERM; SIGHUP reloads.
//!
//! Thin on purpose: arguments become a [`feeds::Config`], the data is loaded and
//! validated, the address is bound, and [`feeds::serve`] does the rest. One line per
//! event goes to stderr.

use std::{net::SocketAddr, path::PathBuf, process::ExitCode, sync::Arc, time::Duration};

/// Default listen address: loopback only.
const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

#[derive(Debug, clap::Parser)]
#[command(version, about = "Serves the diamond pricing data feeds over HTTP.")]
struct Args {
    /// Address to listen on; port 0 picks a free port (printed on stderr).
    #[arg(long, default_value = DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// Serve one snapshot folder (the five feed files) instead of the embedded one.
    #[arg(long, conflicts_with = "history")]
    snapshot: Option<PathBuf>,
    /// Serve a folder of dated snapshots (`YYYY-MM-DD/`); the newest valid one is live.
    #[arg(long)]
    history: Option<PathBuf>,
    /// Seconds between checks of the history folder for a new day; 0 disables polling.
    #[arg(long, default_value_t = 60)]
    poll_secs: u64,
    /// Log every request (one line each) to stderr.
    #[arg(long)]
    access_log: bool,
    /// Seconds in-flight requests may take to finish after SIGINT/SIGTERM.
    #[arg(long, default_value_t = 10)]
    grace_secs: u64,
}

fn main() -> ExitCode {
    let args = <Args as clap::Parser>::parse();
    let runtime = tokio::runtime::Runtime::new().expect("tokio runtime");
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            log(&format!("error: {err}"));
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let mut config = feeds::Config::new(now);
    config.source = datasets::Source::from_dirs(args.snapshot, args.history);
    // Zero turns polling off: `Source::poll_period` decides.
    config.poll = Some(Duration::from_secs(args.poll_secs));
    config.access_log = args.access_log;
    config.limits.grace = Duration::from_secs(args.grace_secs);
    config.version = env!("CARGO_PKG_VERSION");

    let (feeds, notes) = feeds::Feeds::open(config)?;
    notes.iter().for_each(|note| log(note));
    let listener = tokio::net::TcpListener::bind(args.listen).await?;
    let events = |event: &feeds::Event<'_>| log(&event.to_string());
    feeds::serve(Arc::new(feeds), listener, serve::shutdown_signal(), events).await;
    Ok(())
}

/// Writes one event line to stderr.
fn log(line: &str) {
    eprintln!("feed-server: {line}");
}

/// The wall clock in unix seconds: the only clock read of the feed server.
fn now() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since.map_or(0, |elapsed| i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX))
}
