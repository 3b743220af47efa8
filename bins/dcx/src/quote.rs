//! `dcx quote`: one stone's price, readable or as the exact `structuredContent` of the
//! `get_diamond_price` tool (the same code path, `tools::price::quote`).

use std::{io::Write, path::PathBuf, process::ExitCode};

use pricing::{Given, QuoteInput};

use crate::{EXIT_USAGE, Outcome};

/// Arguments of `dcx quote`. The values are read as given and judged by the quote
/// rules (`pricing::QuoteInput`), which report every problem at once in the words of the
/// MCP tool and `/track`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  dcx quote --carat 1.0 --color G --clarity VS2
  dcx quote --carat 1.23 --color g --clarity vs2 --shape oval --ratio 1.35 --json
  dcx quote --carat 2 --color F --clarity VVS2 --snapshot /srv/dcx/history/2026-11-20

Every problem of the arguments is listed at once (exit 2).")]
pub(crate) struct Args {
    /// Carat weight, 0.3 to 6.0 (required).
    #[arg(long, allow_hyphen_values = true)]
    carat: Option<String>,
    /// Colour grade, D to M (any case; required).
    #[arg(long)]
    color: Option<String>,
    /// Clarity grade: FL, IF, VVS1, VVS2, VS1, VS2, SI1, SI2 (any case; required).
    #[arg(long)]
    clarity: Option<String>,
    /// Shape: round (default), cushion, radiant, emerald, oval, pear, marquise, heart.
    #[arg(long)]
    shape: Option<String>,
    /// L/W ratio for fancy shapes; default: the shape model's centre.
    #[arg(long, allow_hyphen_values = true)]
    ratio: Option<String>,
    /// Snapshot folder to price from; default: the embedded reference snapshot.
    #[arg(long)]
    snapshot: Option<PathBuf>,
    /// Feed server base URL used in `tracking_url`.
    #[arg(long, default_value = "http://127.0.0.1:8080", value_parser = tools::parse_url)]
    feed_url: String,
    /// Print the tool's JSON `structuredContent` instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Outcome {
    let number = |text: &Option<String>| text.as_deref().map_or(Given::Missing, Given::number_text);
    let input = QuoteInput {
        carat: number(&args.carat),
        color: args.color.as_deref().into(),
        clarity: args.clarity.as_deref().into(),
        shape: args.shape.as_deref().into(),
        ratio: number(&args.ratio),
    };
    let request = match input.validate() {
        Ok(request) => request,
        Err(problems) => return Ok(usage_error(problems.into_iter().map(|p| p.message))),
    };
    let snapshot = match &args.snapshot {
        Some(dir) => datasets::fs::load_dir(dir)?,
        None => datasets::Snapshot::reference(),
    };
    let links = tools::price::Links::new(&args.feed_url);
    let output = match tools::price::quote(&snapshot, &request, &links) {
        Ok(output) => output,
        Err(errors) => return Ok(usage_error(errors.listed.into_iter().map(|e| e.message))),
    };
    let text = if args.json {
        serde_json::to_string_pretty(&output.structured_value())?
    } else {
        output.text()
    };
    writeln!(std::io::stdout(), "{text}")?;
    Ok(ExitCode::SUCCESS)
}

/// Prints each problem on its own line and gives the usage exit code.
fn usage_error(messages: impl IntoIterator<Item = String>) -> ExitCode {
    for message in messages {
        eprintln!("dcx quote: {message}");
    }
    ExitCode::from(EXIT_USAGE)
}
