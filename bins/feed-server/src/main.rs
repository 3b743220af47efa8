//! `feed-server`: serves the REST data feeds until SIGINT/SIGTERM; SIGHUP reloads.
//!
//! Thin on purpose: the flags say where to listen, and [`launcher::run`] does the rest
//! (data, bind, metrics, reloads, signals). One line per event goes to stderr.

use std::{net::SocketAddr, process::ExitCode};

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
    /// What every server takes: data, logs, connection caps, metrics.
    #[command(flatten)]
    server: launcher::ServerFlags,
}

fn main() -> ExitCode {
    let args = <Args as clap::Parser>::parse();
    let feeds = launcher::FeedServer { listen: args.listen };
    launcher::run(PROCESS, args.server, launcher::Services::Feeds(feeds))
}

/// This process in log lines and `/health`.
const PROCESS: launcher::Process =
    launcher::Process { name: "feed-server", version: env!("CARGO_PKG_VERSION") };
