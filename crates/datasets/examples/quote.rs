//! Prices a round and a fancy stone from a snapshot: the reference snapshot compiled into
//! `dcx-datasets`, or the snapshot folder given as the first argument.

use std::{error::Error, io::Write, path::PathBuf};

use datasets::Snapshot;
use pricing::{Clarity, Color, QuoteRequest, Shape, round_cents};

fn main() -> Result<(), Box<dyn Error>> {
    let snapshot = match std::env::args_os().nth(1) {
        Some(dir) => datasets::fs::load_dir(&PathBuf::from(dir))?,
        None => Snapshot::reference(),
    };
    let stones = [
        QuoteRequest {
            carat: 1.23,
            color: Color::G,
            clarity: Clarity::Vs2,
            shape: Shape::Round,
            ratio: None,
        },
        QuoteRequest {
            carat: 1.5,
            color: Color::parse("F")?,
            clarity: Clarity::parse("VS1")?,
            shape: Shape::parse("oval")?,
            ratio: Some(1.4),
        },
    ];
    let mut out = std::io::stdout().lock();
    writeln!(out, "Prices as of {}", snapshot.ts_text())?;
    for stone in &stones {
        let quote = snapshot.quote(stone)?;
        writeln!(
            out,
            "{} {} ct {} {}, L/W {}: {:.2} USD per carat, {:.2} USD in total",
            quote.shape,
            quote.carat,
            quote.color,
            quote.clarity,
            quote.shape_ratio,
            round_cents(quote.per_carat_usd),
            round_cents(quote.total_usd),
        )?;
    }
    Ok(())
}
