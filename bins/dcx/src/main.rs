//! `dcx`: the service's command line. Quotes a stone, validates a snapshot, runs the
//! service (or its MCP tools over stdio), builds daily snapshots from listings. Each
//! subcommand lives in its own module.
use std::process::ExitCode;

use clap::Parser;

mod build;
mod gen_listings;
mod mcp_cmd;
mod quote;
mod serve_cmd;
mod validate;

/// Diamond pricing data service: quotes, snapshots and servers.
#[derive(Debug, Parser)]
#[command(
    name = "dcx",
    version,
    about,
    after_help = "Examples:
  dcx quote --carat 1.0 --color G --clarity VS2
  dcx validate /srv/dcx/history
  dcx serve --history /srv/dcx/history
  dcx build --listings listings.csv --history /srv/dcx/history

Each command has its own examples: dcx help COMMAND."
)]
enum Command {
    /// Price one stone from a snapshot (the embedded reference snapshot by default).
    Quote(quote::Args),
    /// Check a snapshot folder (or a history of dated folders); lists every problem.
    Validate(validate::Args),
    /// Run the service: the REST feed server and the MCP tool server.
    Serve(serve_cmd::Args),
    /// Serve the MCP tools on stdin/stdout, for hosts that launch a local command.
    Mcp(mcp_cmd::Args),
    /// Build a daily snapshot from retail listings (CSV).
    Build(build::Args),
    /// List the days of a history folder with their DCX.
    History(build::HistoryArgs),
    /// Write listings of a synthetic market whose prices are known (CSV).
    GenListings(gen_listings::Args),
}

/// Exit code for bad arguments, as clap uses.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let outcome = match Command::parse() {
        Command::Quote(args) => quote::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Serve(args) => serve_cmd::run(args),
        Command::Mcp(args) => mcp_cmd::run(args),
        Command::Build(args) => build::run(args),
        Command::History(args) => build::history(args),
        Command::GenListings(args) => gen_listings::run(args),
    };
    match outcome {
        Ok(code) => code,
        // The reader of the output went away (`dcx history DIR | head`): it has what it
        // wanted, so the program ends quietly, as a successful one.
        Err(err) if serve::is_broken_pipe(&*err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("dcx: error: {}", serve::ErrorReport(&*err));
            ExitCode::FAILURE
        }
    }
}

/// What a subcommand returns: an exit code, or an error to print.
type Outcome = Result<ExitCode, Box<dyn std::error::Error>>;
