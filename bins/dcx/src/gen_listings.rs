//! `dcx gen-listings`: writes the listings of a synthetic market with a known truth
//! (`methodology::synthetic`), to try `dcx build` on, or to check what it recovers.

use std::{
    fs::File,
    io::{BufWriter, Write},
    path::PathBuf,
    process::ExitCode,
};

use methodology::synthetic::{self, Market};

use crate::Outcome;

/// Arguments of `dcx gen-listings`.
#[derive(Debug, clap::Args)]
#[command(after_help = "The truth (price surface, shape and ratio effects, cushion factor) is in \
docs/methodology.md, \"Checking the refits on a known market\".

Examples:
  dcx gen-listings > listings.csv                      1x: 25,800 rows
  dcx gen-listings --multiple 10 --out listings.csv    the same market, ten times the rows
  dcx gen-listings --seed 7 --noise 0.15 --junk 0.05
  dcx gen-listings | dcx build --listings - --out day     build it")]
pub(crate) struct Args {
    /// The seed: the same arguments give the same bytes.
    #[arg(long, default_value_t = Market::default().seed)]
    seed: u64,
    /// How many times the 1x market's rows (1..=1000).
    #[arg(long, default_value_t = 1)]
    multiple: u64,
    /// Standard deviation of ln(ask / true median ask), 0..=1.
    #[arg(long, default_value_t = Market::default().noise)]
    noise: f64,
    /// Share of rows replaced by junk (unparseable, impossible or mispriced), 0..=1.
    #[arg(long, default_value_t = Market::default().junk_share)]
    junk: f64,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> Outcome {
    let market = Market {
        seed: args.seed,
        multiple: args.multiple,
        noise: args.noise,
        junk_share: args.junk,
    };
    if let Err(why) = market.check() {
        eprintln!("dcx gen-listings: {why}");
        return Ok(ExitCode::from(crate::EXIT_USAGE));
    }
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).map_err(|err| format!("cannot create {}: {err}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let written = synthetic::write_listings(&market, &mut out)?;
    out.flush()?;
    eprintln!(
        "dcx gen-listings: {} rows: {} listings, {} unparseable, {} impossible, {} mispriced",
        written.rows, written.listings, written.unparseable, written.impossible, written.mispriced
    );
    Ok(ExitCode::SUCCESS)
}
