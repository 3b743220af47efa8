//! Reads a history folder (one `YYYY-MM-DD/` snapshot folder per day) and prints each
//! day's DCX and one stone's price, then the DCX trends over 1, 7 and 30 days.
//!
//! `cargo run -p dcx-datasets --example history -- DIR` reads `DIR`; without an argument
//! it first writes a small demonstration history (three days of the reference snapshot at
//! different price levels) into a temporary folder, and removes it at the end.

use std::{error::Error, io::Write, path::PathBuf};

use datasets::{History, Trend};
use pricing::{Clarity, Color, QuoteRequest, Shape, round_cents};

fn main() -> Result<(), Box<dyn Error>> {
    let (dir, demo) = match std::env::args_os().nth(1) {
        Some(dir) => (PathBuf::from(dir), false),
        None => (demo_history()?, true),
    };
    let (history, skipped) = History::load(&dir)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "History {}", dir.display())?;
    for note in skipped {
        writeln!(out, "{note}")?;
    }
    let stone = QuoteRequest {
        carat: 1.0,
        color: Color::G,
        clarity: Clarity::Vs2,
        shape: Shape::Round,
        ratio: None,
    };
    for day in history.days() {
        // Older days are held as a summary: their snapshot is read again when asked.
        let quote = history.snapshot_of(day)?.quote(&stone)?;
        writeln!(
            out,
            "{}: DCX {:.2} USD per carat; 1 ct G VS2 round {:.2} USD",
            day.date,
            day.dcx(),
            round_cents(quote.total_usd),
        )?;
    }
    for days in [1, 7, 30] {
        match history.trend(days) {
            Trend::Available { percent, from } => {
                writeln!(out, "{days}-day trend: {percent:+.2} % since {from}")?
            }
            Trend::Unavailable { reason } => writeln!(out, "{days}-day trend: none ({reason})")?,
        }
    }
    if demo {
        std::fs::remove_dir_all(&dir)?;
    }
    Ok(())
}

/// Writes three days of the reference snapshot, prices scaled by a level, into a fresh
/// temporary folder: 2026-11-12 at 100 %, 2026-11-19 at 102 %, 2026-11-20 at 103 %.
fn demo_history() -> Result<PathBuf, Box<dyn Error>> {
    let dir = std::env::temp_dir().join(format!("dcx-history-demo-{}", std::process::id()));
    for (date, level) in [("2026-11-12", 1.0), ("2026-11-19", 1.02), ("2026-11-20", 1.03)] {
        let files = datasets::reference::generate_variant(&format!("{date}T00:00:00Z"), level);
        datasets::fs::write_dir_atomic(&dir.join(date), &files, true)?;
    }
    Ok(dir)
}
