//! `dcx validate DIR`: checks a snapshot folder, or every day of a history folder, and
//! lists every problem. Exit 0 when valid, 1 when not.

use std::{io::Write, path::PathBuf, process::ExitCode};

use crate::Outcome;

/// Arguments of `dcx validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A snapshot folder (the five feed files) or a history of `YYYY-MM-DD` folders.
    dir: PathBuf,
}

pub(crate) fn run(args: Args) -> Outcome {
    let mut out = std::io::stdout();
    if args.dir.join("matrix.json").exists() || !args.dir.is_dir() {
        return Ok(match datasets::fs::load_dir(&args.dir) {
            Ok(snapshot) => {
                writeln!(out, "{}: valid snapshot of {}", args.dir.display(), snapshot.ts_text())?;
                ExitCode::SUCCESS
            }
            Err(err) => {
                writeln!(out, "{}: {err}", args.dir.display())?;
                ExitCode::FAILURE
            }
        });
    }
    match datasets::History::load(&args.dir) {
        Ok((history, notes)) => {
            for day in history.days() {
                writeln!(out, "{}: valid snapshot of {}", day.date, day.snapshot.ts_text())?;
            }
            for note in &notes {
                writeln!(out, "{note}")?;
            }
            Ok(if notes.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Err(err) => {
            writeln!(out, "{}: {err}", args.dir.display())?;
            Ok(ExitCode::FAILURE)
        }
    }
}
