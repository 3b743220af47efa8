//! Times read + build of one listings CSV in-process, streamed from the file as `dcx build`
//! reads it: median of 5 runs.
//!
//! Usage: `cargo run --release -p methodology --example build_file -- FILE [native|diamonds] [YYYY-MM-DD]`
//! (format defaults to `diamonds`, the date to 2026-11-21). Prints the median, the five
//! timings and the build summary.

use std::{io::Write, process::ExitCode, time::Instant};

use chrono::NaiveDate;
use methodology::{BuildOptions, InputFormat};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(std::io::stderr(), "build_file: {err}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let path = args.first().ok_or("usage: build_file FILE [native|diamonds] [YYYY-MM-DD]")?;
    let format = match args.get(1).map(String::as_str) {
        None | Some("diamonds") => InputFormat::Diamonds,
        Some("native") => InputFormat::Native,
        Some(other) => return Err(format!("unknown format {other:?}").into()),
    };
    let date =
        NaiveDate::parse_from_str(args.get(2).map_or("2026-11-21", String::as_str), "%Y-%m-%d")?;
    let options = BuildOptions::new(date);
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..5 {
        let start = Instant::now();
        let input = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
        let build = methodology::build_reader(input, format, &options, None)?;
        times.push(start.elapsed());
        last = Some(build);
    }
    times.sort();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "read+build median {:.1} ms over 5 runs ({:?})",
        times[2].as_secs_f64() * 1e3,
        times
    )?;
    if let Some(build) = last {
        write!(out, "{}", build.report.summary())?;
    }
    Ok(())
}
