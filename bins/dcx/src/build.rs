//! `dcx build`: listings in, a validated daily snapshot out (one folder, or a new day of a
//! history); `dcx history DIR`: the published days with their DCX.

use std::{
    io::{BufRead, BufReader, IsTerminal, Write},
    path::PathBuf,
    process::ExitCode,
};

use chrono::{Days, NaiveDate};
use datasets::fs::Existing;

use crate::{EXIT_USAGE, Outcome};

/// The listing file layouts `dcx build` reads.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    /// The documented CSV schema (docs/methodology.md).
    Native,
    /// The ggplot2 `diamonds` data set (round stones, its own columns).
    Diamonds,
}

/// Arguments of `dcx build`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  dcx build --listings listings.csv --history /srv/dcx/history       today's day
  dcx build --listings listings.csv --history /srv/dcx/history --date 2026-11-21
  dcx build --listings diamonds.csv --format diamonds --out /tmp/snapshot
  fetch-listings | dcx build --listings - --history /srv/dcx/history  from standard input")]
pub(crate) struct Args {
    /// The listings, a CSV file (`-`: standard input), read as a stream.
    #[arg(long)]
    listings: PathBuf,
    /// The CSV layout of the listings.
    #[arg(long, value_enum, default_value_t = Format::Native)]
    format: Format,
    /// Write the snapshot into this folder (created atomically).
    #[arg(long, required_unless_present = "history", conflicts_with = "history")]
    out: Option<PathBuf>,
    /// Publish the snapshot as a new day `YYYY-MM-DD/` of this history folder; earlier days
    /// feed the look-back, the trends and the ratio models.
    #[arg(long)]
    history: Option<PathBuf>,
    /// The day the snapshot is for [default: today, UTC]; at most one day ahead of today.
    #[arg(long, value_parser = parse_date)]
    date: Option<NaiveDate>,
    /// Replace a day (or folder) that is already published.
    #[arg(long)]
    force: bool,
    /// Replace a day (or folder) that exists but is not a valid snapshot (a day a power
    /// cut left empty); a valid one is kept and the build refused.
    #[arg(long, conflicts_with = "force")]
    replace_invalid: bool,
    /// When another build holds the history's lock, wait for it instead of failing.
    #[arg(long, requires = "history")]
    wait: bool,
    /// Also write the build report as JSON to this file (a refused build writes why).
    #[arg(long)]
    report: Option<PathBuf>,
    /// Refuse when more than this percentage of rows is unparseable or impossible.
    #[arg(long, value_name = "PCT", default_value_t = methodology::MAX_BAD_SHARE * 100.0)]
    max_bad_rows: f64,
    /// Refuse when fewer round cells than this are observed today.
    #[arg(long, value_name = "CELLS", default_value_t = methodology::MIN_OBSERVED_CELLS)]
    min_observed_cells: usize,
    /// Refuse when a published per-carat price (USD) is below this.
    #[arg(long, value_name = "USD", default_value_t = methodology::MIN_PER_CARAT)]
    min_per_carat: f64,
    /// Refuse when a published per-carat price (USD) is above this.
    #[arg(long, value_name = "USD", default_value_t = methodology::MAX_PER_CARAT)]
    max_per_carat: f64,
    /// Refuse when the DCX moves more than this percentage against the previous published day.
    #[arg(long, value_name = "PCT", default_value_t = methodology::MAX_MOVE * 100.0)]
    max_move: f64,
    /// Publish even when the DCX moves more than --max-move.
    #[arg(long)]
    accept_move: bool,
}

fn parse_date(text: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| format!("expected a date like 2026-11-21, got {text:?}"))
}

pub(crate) fn run(args: Args) -> Outcome {
    let input: Box<dyn BufRead> = if args.listings.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(&args.listings) {
            Ok(file) => Box::new(BufReader::with_capacity(1 << 16, file)),
            Err(err) => {
                eprintln!("dcx build: cannot read {}: {err}", args.listings.display());
                return Ok(ExitCode::from(EXIT_USAGE));
            }
        }
    };
    let today = chrono::Utc::now().date_naive();
    let date = args.date.unwrap_or(today);
    if let Some(latest) = today.checked_add_days(Days::new(MAX_DAYS_AHEAD))
        && date > latest
    {
        eprintln!(
            "dcx build: --date {date} is more than {MAX_DAYS_AHEAD} day ahead of today ({today}, UTC); a day is built on or after the day it is for"
        );
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    // One build writes a history at a time, from reading its days to publishing.
    let _lock = match &args.history {
        Some(dir) => Some(datasets::fs::HistoryLock::acquire(dir, args.wait)?),
        None => None,
    };
    // Only the days a build reads (the previous day and the trends' span): a backfill
    // costs the same per day at ten years as at one. A folder without a valid earlier
    // day (new, or holding only lost+found, a README or a broken day) is a first build.
    let history = match &args.history {
        Some(dir) => {
            let (history, skipped) =
                datasets::History::load_before(dir, date, methodology::HISTORY_SPAN_DAYS)?;
            skipped.iter().for_each(|day| eprintln!("dcx build: {day}"));
            history
        }
        None => None,
    };
    let mut options = methodology::BuildOptions::new(date);
    options.history = history.as_ref();
    if let (Some(dir), Some(history)) = (&args.history, &history) {
        options.observed = methodology::read_observed(dir, history, date)?;
    }
    options.gates = methodology::Gates {
        max_bad_share: args.max_bad_rows / 100.0,
        min_observed_cells: args.min_observed_cells,
        min_per_carat: args.min_per_carat,
        max_per_carat: args.max_per_carat,
        max_move: args.max_move / 100.0,
        accept_move: args.accept_move,
    };
    let format = match args.format {
        Format::Native => methodology::InputFormat::Native,
        Format::Diamonds => methodology::InputFormat::Diamonds,
    };
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |stage: methodology::Stage| {
        if terminal {
            eprint!("\r\x1b[Kbuilding: {stage:?}...");
        }
    };
    let built = methodology::build_reader(input, format, &options, Some(&mut progress));
    if terminal {
        eprint!("\r\x1b[K");
    }
    let build = match built {
        Ok(build) => build,
        Err(methodology::Error::Read(err)) => {
            eprintln!("dcx build: cannot read {}: {err}", args.listings.display());
            return Ok(ExitCode::from(EXIT_USAGE));
        }
        Err(err) => return refused(&args, date, err),
    };
    let existing = match (args.force, args.replace_invalid) {
        (true, _) => Existing::Replace,
        (false, true) => Existing::ReplaceInvalid,
        (false, false) => Existing::Refuse,
    };
    let written = match (&args.out, &args.history) {
        (Some(out), _) => {
            let extras = build.extras();
            datasets::fs::publish_dir(out, &build.files, &extras, existing)?;
            out.clone()
        }
        (None, Some(history)) => methodology::publish(history, date, &build, existing)?,
        (None, None) => {
            eprintln!("dcx build: give --out DIR or --history DIR");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    // The day is published: say so first, whatever happens to the report.
    let mut out = std::io::stdout();
    writeln!(out, "{}", build.report.summary())?;
    writeln!(out, "written: {}", written.display())?;
    if let Some(path) = &args.report {
        let report = serde_json::to_string_pretty(&build.report)? + "\n";
        if let Err(err) = datasets::fs::write_file_atomic(path, report.as_bytes()) {
            eprintln!(
                "dcx build: {} is published, but the report could not be written: {err}",
                written.display()
            );
            return Ok(ExitCode::from(EXIT_REPORT_UNWRITTEN));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How many days ahead of today (UTC) `--date` may be: a build just after midnight in a
/// time zone east of UTC is for tomorrow's UTC date, a typo or a jumped clock is not.
const MAX_DAYS_AHEAD: u64 = 1;

/// The exit status of a build that published its day but could not write `--report`.
const EXIT_REPORT_UNWRITTEN: u8 = 3;

/// A build that is not published: writes `--report` with the reason (and what is known
/// of the build), then hands the error on to be printed; the history is untouched.
fn refused(args: &Args, date: NaiveDate, err: methodology::Error) -> Outcome {
    if let Some(path) = &args.report {
        let refusal = match &err {
            methodology::Error::Gate(refusal) => serde_json::to_value(refusal)?,
            other => serde_json::json!({
                "date": date.to_string(),
                "published": false,
                "refused": other.to_string(),
            }),
        };
        let refusal = serde_json::to_string_pretty(&refusal)? + "\n";
        datasets::fs::write_file_atomic(path, refusal.as_bytes())?;
    }
    Err(err.into())
}

/// Arguments of `dcx history`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  dcx history /srv/dcx/history")]
pub(crate) struct HistoryArgs {
    /// A folder of `YYYY-MM-DD` snapshot folders.
    dir: PathBuf,
}

pub(crate) fn history(args: HistoryArgs) -> Outcome {
    let (history, notes) = datasets::History::load(&args.dir)?;
    let mut out = std::io::stdout();
    writeln!(out, "{:<12} {:>12} {:>9}", "day", "dcx", "trend %")?;
    for (date, dcx, trend) in methodology::history_summary(&history) {
        writeln!(out, "{:<12} {:>12.2} {:>+9.2}", date.to_string(), dcx, trend)?;
    }
    for note in notes {
        writeln!(out, "{note}")?;
    }
    Ok(ExitCode::SUCCESS)
}
