//! The build: every step in order, from listings to five validated feeds and a report.

use datasets::{Feed, FeedFiles, Snapshot, wire};
use pricing::Shape;

use crate::{
    Build, BuildOptions, CUSHION_FACTOR, Error, MIN_CUSHION_CELLS, Stage,
    cells::{Cells, Provenance},
    feeds,
    fill::{self, Family},
    gate::{self, Refusal},
    listing::Listing,
    ratio,
    read::{InputFormat, RowCounts, read_listings},
    report::{MatrixReport, Report, ShapeReport},
    scope::{self, Used},
    select, smooth,
};

/// Reads `csv` in `format` and builds from it; the report counts the rows rejected while
/// reading too. A header without a required column, too many bad rows or a failed gate
/// is an [`Error::Gate`] carrying the [`Refusal`].
pub fn build_csv(
    csv: &str,
    format: InputFormat,
    options: &BuildOptions<'_>,
    progress: Option<&mut dyn FnMut(Stage)>,
) -> Result<Build, Error> {
    let (listings, read) = read_listings(csv, format);
    if let Some(problem) = &read.header_problem {
        return Err(refuse(options, problem.clone(), &read, None));
    }
    run(&listings, read, options, progress)
}

/// Builds the five feeds for `options.date` from `listings`, through the same gates as
/// [`build_csv`].
///
/// `progress`, when given, is called as each [`Stage`] starts.
pub fn build(
    listings: &[Listing],
    options: &BuildOptions<'_>,
    progress: Option<&mut dyn FnMut(Stage)>,
) -> Result<Build, Error> {
    run(listings, RowCounts::default(), options, progress)
}

fn refuse(
    options: &BuildOptions<'_>,
    reason: String,
    rows: &RowCounts,
    report: Option<Report>,
) -> Error {
    Error::Gate(Box::new(Refusal::new(options.date, reason, rows, report)))
}

/// Filters, checks the share of bad rows, builds, and checks the finished build.
/// `read` holds what reading the input rejected (empty for [`build`]).
fn run(
    listings: &[Listing],
    mut read: RowCounts,
    options: &BuildOptions<'_>,
    mut progress: Option<&mut dyn FnMut(Stage)>,
) -> Result<Build, Error> {
    let mut stage = |s: Stage| {
        if let Some(progress) = progress.as_mut() {
            progress(s);
        }
    };
    check_basket(options)?;
    stage(Stage::Filtering);
    let mut counts = RowCounts::default();
    let used = scope::filter(listings, options.date, &mut counts);
    let from_listings = listings.len() as u64;
    read.rows = read.rows.max(from_listings);
    read.accepted = counts.accepted;
    let r = &mut read.rejected;
    r.impossible += counts.rejected.impossible;
    r.out_of_scope += counts.rejected.out_of_scope;
    r.duplicate += counts.rejected.duplicate;
    read.examples.append(&mut counts.examples);
    read.examples.truncate(crate::MAX_EXAMPLES);
    if let Some(reason) = gate::check_rows(&read, &options.gates) {
        return Err(refuse(options, reason, &read, None));
    }
    let mut build = match assemble(&used, options, &mut stage) {
        Ok(build) => build,
        Err(err @ Error::NotEnoughData { .. }) => {
            return Err(refuse(options, err.to_string(), &read, None));
        }
        Err(err) => return Err(err),
    };
    let report = &mut build.report;
    report.rows_in = read.rows;
    report.rows_used = read.accepted;
    report.rejected = read.rejected;
    report.rejected_examples = read.examples.clone();
    let mut notes = read.notes.clone();
    notes.append(&mut report.notes);
    report.notes = notes;
    if let Some(reason) =
        gate::check_build(&build.report, &options.gates, options.history, options.date)
    {
        return Err(refuse(options, reason, &read, Some(build.report)));
    }
    Ok(build)
}

/// The build proper, from the in-scope listings to five validated feeds.
fn assemble(
    used: &[Used<'_>],
    options: &BuildOptions<'_>,
    stage: &mut dyn FnMut(Stage),
) -> Result<Build, Error> {
    let date = options.date;
    let ts = feeds::ts_text(date);
    let history = options.history;
    let mut notes = Vec::new();

    let round_used: Vec<Used<'_>> =
        used.iter().copied().filter(|u| u.listing.shape == Shape::Round).collect();
    let cushion_used: Vec<Used<'_>> =
        used.iter().copied().filter(|u| u.listing.shape == Shape::Cushion).collect();

    stage(Stage::Selecting);
    let mut round = select::select(&round_used);
    stage(Stage::LookingBack);
    fill::look_back(&mut round, history, date, Family::Round);
    stage(Stage::Modelling);
    fill::regress(&mut round)?;
    stage(Stage::Smoothing);
    let round_outcome = smooth::smooth(&mut round);

    stage(Stage::Cushion);
    let (cushion, cushion_outcome, fallback) = cushion(&cushion_used, &round, options)?;
    if let Some(reason) = &fallback {
        notes.push(reason.clone());
    }

    let round_ln: Vec<f64> = round.ln.iter().map(|&v| feeds::round6(v)).collect();
    let cushion_ln: Vec<f64> = cushion.ln.iter().map(|&v| feeds::round6(v)).collect();
    for (name, ln) in [("matrix.json", &round_ln), ("matrix_cushion.json", &cushion_ln)] {
        let violation = smooth::worst_violation(ln);
        if violation > 0.0 {
            return Err(Error::NotMonotone { matrix: name, violation });
        }
    }
    let round_bytes = wire::to_bytes(&feeds::matrix_file(&round.ln, &ts));
    let cushion_bytes = wire::to_bytes(&feeds::matrix_file(&cushion.ln, &ts));
    let round_matrix = feeds::parse_matrix(&round_bytes)?;
    let cushion_matrix = feeds::parse_matrix(&cushion_bytes)?;

    stage(Stage::RatioModels);
    let (ratio_file, sources) =
        ratio::ratio_models(used, &round_matrix, &cushion_matrix, history, date, &ts);

    stage(Stage::Index);
    let (index, trends) = feeds::index_file(&round_matrix, &options.basket, history, date, &ts)?;
    notes.extend(trends.notes);
    let depth = feeds::depth_file(used, &ts);

    let mut bytes = [
        round_bytes,
        cushion_bytes,
        wire::to_bytes(&ratio_file),
        wire::to_bytes(&index),
        wire::to_bytes(&depth),
    ];
    let files = FeedFiles::from_fn(|feed: Feed| std::mem::take(&mut bytes[feed as usize]));

    stage(Stage::Validating);
    Snapshot::parse(files.clone()).map_err(Error::Invalid)?;

    let report = Report {
        date: date.to_string(),
        rows_in: 0,
        rows_used: 0,
        rejected: Default::default(),
        rejected_examples: Vec::new(),
        round: MatrixReport::new(&round, &round_ln, round_used.len() as u64, None, round_outcome),
        cushion: MatrixReport::new(
            &cushion,
            &cushion_ln,
            cushion_used.len() as u64,
            fallback,
            cushion_outcome,
        ),
        ratio_models: sources.into_iter().map(|(s, src)| ShapeReport::new(s, src)).collect(),
        dcx: index.dcx,
        trend: index.trend,
        trend_7d: index.trend_7d,
        trend_30d: index.trend_30d,
        notes,
    };
    Ok(Build { files, report })
}

/// The cushion cells: from cushion listings when at least [`MIN_CUSHION_CELLS`] cells
/// are observed, else the smoothed round matrix times [`CUSHION_FACTOR`] (with the
/// reason returned).
fn cushion(
    used: &[Used<'_>],
    round: &Cells,
    options: &BuildOptions<'_>,
) -> Result<(Cells, smooth::Outcome, Option<String>), Error> {
    let mut cells = select::select(used);
    let observed = cells.observed_count();
    let reason = if observed >= MIN_CUSHION_CELLS {
        fill::look_back(&mut cells, options.history, options.date, Family::Cushion);
        match fill::regress(&mut cells) {
            Ok(_) => {
                let outcome = smooth::smooth(&mut cells);
                return Ok((cells, outcome, None));
            }
            Err(err) => format!("cushion regression impossible ({err})"),
        }
    } else {
        format!("{observed} cushion cells observed, fewer than {MIN_CUSHION_CELLS}")
    };
    let mut derived = Cells::empty();
    derived.listings = cells.listings;
    derived.ln = round.ln.iter().map(|v| v + CUSHION_FACTOR.ln()).collect();
    derived.provenance = vec![Some(Provenance::Derived); derived.ln.len()];
    Ok((
        derived,
        smooth::Outcome { passes: 0, lifted: false },
        Some(format!("cushion matrix = round matrix x {CUSHION_FACTOR}: {reason}")),
    ))
}

fn check_basket(options: &BuildOptions<'_>) -> Result<(), Error> {
    let basket = &options.basket;
    if basket.is_empty() {
        return Err(Error::Basket("the basket is empty".to_owned()));
    }
    for spec in basket {
        if !(crate::SCOPE_MIN_CARAT..=crate::SCOPE_MAX_CARAT).contains(&spec.carat) {
            return Err(Error::Basket(format!("carat {} is outside 0.3..=6.0", spec.carat)));
        }
        if !(spec.weight.is_finite() && spec.weight > 0.0) {
            return Err(Error::Basket(format!("weight {} is not positive", spec.weight)));
        }
    }
    let sum: f64 = basket.iter().map(|s| s.weight).sum();
    if (sum - 1.0).abs() > 1e-6 {
        return Err(Error::Basket(format!("weights sum to {sum}, not 1")));
    }
    Ok(())
}
