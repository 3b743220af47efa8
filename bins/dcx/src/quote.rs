//! `dcx quote`: one stone's price, readable or as the exact `structuredContent` of the
//! `get_diamond_price` tool (the same code path, `tools::price::price`).

use std::{io::Write, path::PathBuf, process::ExitCode};

use serde_json::{Map, Value, json};

use crate::{EXIT_USAGE, Outcome};

/// Arguments of `dcx quote`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Carat weight, 0.3 to 6.0.
    #[arg(long)]
    carat: f64,
    /// Colour grade, D to M (any case).
    #[arg(long)]
    color: String,
    /// Clarity grade: FL, IF, VVS1, VVS2, VS1, VS2, SI1, SI2 (any case).
    #[arg(long)]
    clarity: String,
    /// Shape: round (default), cushion, radiant, emerald, oval, pear, marquise, heart.
    #[arg(long)]
    shape: Option<String>,
    /// L/W ratio for fancy shapes; default: the shape model's centre.
    #[arg(long)]
    ratio: Option<f64>,
    /// Snapshot folder to price from; default: the embedded reference snapshot.
    #[arg(long)]
    snapshot: Option<PathBuf>,
    /// Feed server base URL used in `tracking_url`.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    feed_url: String,
    /// Print the tool's JSON `structuredContent` instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Outcome {
    let snapshot = match &args.snapshot {
        Some(dir) => datasets::fs::load_dir(dir)?,
        None => datasets::Snapshot::reference(),
    };
    let mut arguments = Map::new();
    arguments.insert("carat".into(), json!(args.carat));
    arguments.insert("color".into(), json!(args.color));
    arguments.insert("clarity".into(), json!(args.clarity));
    if let Some(shape) = &args.shape {
        arguments.insert("shape".into(), json!(shape));
    }
    if let Some(ratio) = args.ratio {
        arguments.insert("shape_ratio".into(), Value::from(ratio));
    }
    let links = tools::price::Links { feed_url: args.feed_url.clone() };
    let output = match tools::price::price(&snapshot, &tools::Object::from(arguments), &links) {
        Ok(output) => output,
        Err(errors) => {
            for error in &errors.listed {
                eprintln!("dcx quote: {}", error.message);
            }
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let text = if args.json {
        serde_json::to_string_pretty(&output.structured_value())?
    } else {
        output.text
    };
    writeln!(std::io::stdout(), "{text}")?;
    Ok(ExitCode::SUCCESS)
}
