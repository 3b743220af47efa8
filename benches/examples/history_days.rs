//! The history bench's helper (`scripts/bench-history.sh`): writes a history of dated
//! days, and measures in process what a poll of an unchanged history and a build's load
//! cost.
//!
//! * `history_days make DIR DAYS LAST_DATE`: `DAYS` consecutive days ending on `LAST_DATE`,
//!   each a variant of the reference snapshot (`datasets::reference::generate_variant`,
//!   the level drifting a little from day to day so trends are not all zero). Days
//!   already there are left alone, so a longer history reuses a shorter one's folder.
//! * `history_days poll DIR ROUNDS`: loads the history as a server does, then reloads it
//!   `ROUNDS` times unchanged; prints the CPU time of the load and of one poll.
//! * `history_days build-load DIR DATE`: what `dcx build --date DATE` loads of the history;
//!   prints its CPU time and the days loaded.
//!
//! CPU time is the process's user + system time from `/proc/self/stat` (clock ticks),
//! the figure to read on a machine shared with other work.
use std::{error::Error, io::Write, path::Path, process::ExitCode};

use chrono::{Datelike, Days, NaiveDate};
use datasets::{History, fs, reference};

fn main() -> Result<ExitCode, Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args[..] {
        ["make", dir, days, last] => make(Path::new(dir), days.parse()?, last.parse()?)?,
        ["poll", dir, rounds] => poll(Path::new(dir), rounds.parse()?)?,
        ["build-load", dir, date] => build_load(Path::new(dir), date.parse()?)?,
        _ => {
            eprintln!(
                "usage: history_days make DIR DAYS LAST_DATE | poll DIR ROUNDS | build-load DIR DATE"
            );
            return Ok(ExitCode::from(2));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn make(dir: &Path, days: u64, last: NaiveDate) -> Result<(), Box<dyn Error>> {
    for back in 0..days {
        let date = last - Days::new(back);
        let folder = dir.join(date.to_string());
        if folder.is_dir() {
            continue;
        }
        // A slow wave around the reference prices, within the build's move gate.
        let level = 1.0 + 0.02 * ((date.num_days_from_ce() as f64) / 45.0).sin();
        let files = reference::generate_variant(&format!("{date}T00:00:00Z"), level);
        fs::write_dir_atomic(&folder, &files, false)?;
    }
    Ok(())
}

fn poll(dir: &Path, rounds: u32) -> Result<(), Box<dyn Error>> {
    let start = cpu_seconds()?;
    let (mut history, skipped) = History::load(dir)?;
    let loaded = cpu_seconds()?;
    for _ in 0..rounds {
        history = History::load_reusing(dir, Some(&history), None)?.0;
    }
    let polled = cpu_seconds()?;
    writeln!(
        std::io::stdout(),
        "days {} skipped {} load_cpu_ms {:.1} poll_cpu_ms {:.3}",
        history.days().len(),
        skipped.len(),
        (loaded - start) * 1e3,
        (polled - loaded) * 1e3 / f64::from(rounds.max(1))
    )?;
    Ok(())
}

fn build_load(dir: &Path, date: NaiveDate) -> Result<(), Box<dyn Error>> {
    let start = cpu_seconds()?;
    let (history, _) = History::load_before(dir, date, METHODOLOGY_SPAN)?;
    let done = cpu_seconds()?;
    let days = history.as_ref().map_or(0, |history| history.days().len());
    writeln!(
        std::io::stdout(),
        "days_loaded {days} build_load_cpu_ms {:.1}",
        (done - start) * 1e3
    )?;
    Ok(())
}

/// The span `dcx build` passes (`methodology::HISTORY_SPAN_DAYS`: 30 days and a trend's
/// slack of 3); the benches do not depend on methodology.
const METHODOLOGY_SPAN: u64 = 33;

/// This process's user + system CPU time so far, in seconds.
fn cpu_seconds() -> Result<f64, Box<dyn Error>> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>()? + fields[12].parse::<f64>()?;
    Ok(ticks / CLOCK_TICKS_PER_SECOND)
}

/// Linux's `USER_HZ`, 100 on every architecture the servers run on.
const CLOCK_TICKS_PER_SECOND: f64 = 100.0;
