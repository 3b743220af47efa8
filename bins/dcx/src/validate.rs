//! `dcx validate DIR`: checks a snapshot folder, or every day of a history folder, and
//! lists every problem: each missing feed and everything wrong with the others, each
//! history day that is invalid or holds another day's snapshot. Exit 0 when valid, 1
//! when not.

use std::{io::Write, path::PathBuf, process::ExitCode};

use crate::Outcome;

/// Arguments of `dcx validate`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  dcx validate fixtures/snapshot       one snapshot folder (the five feed files)
  dcx validate /srv/dcx/history        every YYYY-MM-DD day of a history folder")]
pub(crate) struct Args {
    /// A snapshot folder (the five feed files) or a history of `YYYY-MM-DD` folders.
    dir: PathBuf,
}

pub(crate) fn run(args: Args) -> Outcome {
    let mut out = std::io::stdout().lock();
    let dir = args.dir.display();
    let is_history = args.dir.is_dir()
        && !datasets::Feed::ALL.iter().any(|feed| args.dir.join(feed.file_name()).exists());
    if !is_history {
        return Ok(match datasets::fs::load_dir(&args.dir) {
            Ok(snapshot) => {
                writeln!(out, "{dir}: valid snapshot of {}", snapshot.ts_text())?;
                ExitCode::SUCCESS
            }
            Err(err @ datasets::Error::Invalid { .. }) => {
                writeln!(out, "{dir}: {err}")?;
                ExitCode::FAILURE
            }
            // Its message names the path already.
            Err(err) => {
                writeln!(out, "{err}")?;
                ExitCode::FAILURE
            }
        });
    }
    match datasets::History::load(&args.dir) {
        Ok((history, skipped)) => {
            // A history holds its older days as summaries: each is read whole here.
            let mut failed = !skipped.is_empty();
            for day in history.days() {
                match history.snapshot_of(day) {
                    Ok(snapshot) => {
                        writeln!(out, "{}: valid snapshot of {}", day.date, snapshot.ts_text())?
                    }
                    Err(err) => {
                        failed = true;
                        let reason = err.to_string().replace('\n', ";");
                        writeln!(out, "skipped {}: {reason}", day.date)?
                    }
                }
            }
            for day in &skipped {
                writeln!(out, "{day}")?;
            }
            Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
        }
        Err(err) => {
            writeln!(out, "{err}")?;
            Ok(ExitCode::FAILURE)
        }
    }
}
