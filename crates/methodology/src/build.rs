//! The build: every step in order, from a stream of listings to five validated feeds and
//! a report.

use std::{borrow::Borrow, io::BufRead};

use datasets::{
    Feed, FeedFiles, Snapshot,
    wire::{self, DepthFile},
};
use pricing::Shape;

use crate::{
    Build, BuildOptions, Error, Stage,
    carry::Curve,
    cushion, feeds, fill,
    gate::{self, Refusal},
    listing::Listing,
    market::Market,
    matched::RoundReference,
    observed::{self, Family},
    ratio,
    read::{InputFormat, ListingReader, RowCounts},
    report::{MatrixReport, Report, ShapeReport},
    scope::{self, BAND_KEYS},
    select, smooth, spread,
};

/// Reads `csv` in `format` and builds from it: [`build_reader`] over text in memory.
pub fn build_csv(
    csv: &str,
    format: InputFormat,
    options: &BuildOptions<'_>,
    progress: Option<&mut dyn FnMut(Stage)>,
) -> Result<Build, Error> {
    build_reader(csv.as_bytes(), format, options, progress)
}

/// Reads listings from the CSV stream `input` in `format` and builds from them, keeping
/// per-cell state, never the rows (see `docs/performance.md`); the report counts the rows
/// rejected while reading too. A header without a required column, too many bad rows or
/// a failed gate is an [`Error::Gate`] carrying the [`Refusal`]; a failing stream is an
/// [`Error::Read`].
pub fn build_reader(
    input: impl BufRead,
    format: InputFormat,
    options: &BuildOptions<'_>,
    mut progress: Option<&mut dyn FnMut(Stage)>,
) -> Result<Build, Error> {
    let mut reader = ListingReader::new(input, format).map_err(Error::Read)?;
    if let Some(problem) = reader.counts().header_problem.clone() {
        for row in reader.by_ref() {
            row.map_err(Error::Read)?;
        }
        return Err(refuse(options, problem, reader.counts(), None));
    }
    let (market, filtered) = take_in(reader.by_ref(), options, &mut progress)?;
    run(&market, reader.into_counts(), filtered, options, progress)
}

/// Builds the five feeds for `options.date` from `listings`, through the same gates as
/// [`build_reader`].
///
/// `progress`, when given, is called as each [`Stage`] starts.
pub fn build(
    listings: &[Listing],
    options: &BuildOptions<'_>,
    mut progress: Option<&mut dyn FnMut(Stage)>,
) -> Result<Build, Error> {
    let (market, filtered) = take_in(listings.iter().map(Ok), options, &mut progress)?;
    run(&market, RowCounts::default(), filtered, options, progress)
}

/// The refusal of a build for `refused`, with the rows read and the report when the build
/// ran to the end.
fn refuse(
    options: &BuildOptions<'_>,
    refused: String,
    rows: &RowCounts,
    report: Option<Report>,
) -> Error {
    Error::Gate(Box::new(Refusal {
        date: options.date.to_string(),
        published: false,
        refused,
        rows_in: rows.rows,
        rows_used: rows.accepted,
        rejected: rows.rejected,
        rejected_examples: rows.examples.clone(),
        notes: rows.notes.clone(),
        build: report.map(Box::new),
    }))
}

/// Checks the basket, then filters the listings as they come and keeps what the build
/// needs of them (never the listings themselves); returns that and what filtering
/// rejected.
fn take_in<L: Borrow<Listing>>(
    listings: impl Iterator<Item = std::io::Result<L>>,
    options: &BuildOptions<'_>,
    progress: &mut Option<&mut dyn FnMut(Stage)>,
) -> Result<(Market, RowCounts), Error> {
    check_basket(options)?;
    if let Some(progress) = progress {
        progress(Stage::Filtering);
    }
    let mut filter = scope::Filter::new(options.date);
    let mut market = Market::default();
    for listing in listings {
        let listing = listing.map_err(Error::Read)?;
        let listing: &Listing = listing.borrow();
        if let Some(band) = filter.admit(listing) {
            market.add(listing, band);
        }
    }
    Ok((market, filter.into_counts()))
}

/// Checks the share of bad rows, builds, and checks the finished build. `read` holds what
/// reading the input rejected (empty for [`build`]), `filtered` what filtering did.
fn run(
    market: &Market,
    mut read: RowCounts,
    mut filtered: RowCounts,
    options: &BuildOptions<'_>,
    mut progress: Option<&mut dyn FnMut(Stage)>,
) -> Result<Build, Error> {
    read.rows = read.rows.max(filtered.rows);
    read.accepted = filtered.accepted;
    let r = &mut read.rejected;
    r.impossible += filtered.rejected.impossible;
    r.out_of_scope += filtered.rejected.out_of_scope;
    r.duplicate += filtered.rejected.duplicate;
    read.examples.append(&mut filtered.examples);
    read.examples.truncate(crate::MAX_EXAMPLES);
    if let Some(reason) = gate::check_rows(&read, &options.gates) {
        return Err(refuse(options, reason, &read, None));
    }
    let mut stage = |stage| {
        if let Some(progress) = progress.as_mut() {
            progress(stage);
        }
    };
    let mut build = match assemble(market, options, &mut stage) {
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
    report.notes.splice(0..0, read.notes.iter().cloned());
    if let Some(reason) =
        gate::check_build(&build.report, &options.gates, options.history, options.date)
    {
        return Err(refuse(options, reason, &read, Some(build.report)));
    }
    Ok(build)
}

/// The build proper, from the in-scope listings to five validated feeds.
fn assemble(
    market: &Market,
    options: &BuildOptions<'_>,
    stage: &mut dyn FnMut(Stage),
) -> Result<Build, Error> {
    let date = options.date;
    let ts = feeds::ts_text(date);
    let history = options.history;
    let mut notes = Vec::new();

    let round_asks = market.asks(Shape::Round);
    let cushion_asks = market.asks(Shape::Cushion);

    stage(Stage::Selecting);
    let mut round = select::select(round_asks);
    stage(Stage::LookingBack);
    let past = observed::parse_all(options, &mut notes);
    fill::look_back(&mut round, &past, date, Family::Round);
    stage(Stage::Modelling);
    let curve = Curve::before(history, &past, date, Family::Round);
    notes.extend(fill::fill(&mut round, &curve, "round")?);
    stage(Stage::Smoothing);
    let round_outcome = smooth::smooth(&mut round);

    let round_ln: Vec<f64> = round.ln.iter().map(|&v| feeds::round6(v)).collect();
    check_monotone("matrix.json", &round_ln)?;
    let round_bytes = wire::to_bytes(&feeds::matrix_file(&round.ln, &ts));
    let round_matrix = feeds::parse_matrix(&round_bytes)?;
    let reference = RoundReference::new(round_asks, &round_matrix);

    stage(Stage::Cushion);
    let factors = cushion::factors(cushion_asks, reference.as_ref(), &round_matrix);
    let (cushion, cushion_outcome, fallback) =
        cushion::cushion(cushion_asks, &round, &factors, options, &past);
    notes.extend(fallback.iter().cloned());
    if factors.measured {
        notes.push(factors.note);
    }
    let observed = observed::to_bytes(date, &round, &cushion);

    let cushion_ln: Vec<f64> = cushion.ln.iter().map(|&v| feeds::round6(v)).collect();
    check_monotone("matrix_cushion.json", &cushion_ln)?;
    let cushion_bytes = wire::to_bytes(&feeds::matrix_file(&cushion.ln, &ts));

    stage(Stage::RatioModels);
    let (ratio_file, sources) = ratio::ratio_models(
        market.with_ratio(),
        reference.as_ref(),
        &round_matrix,
        &factors.ln,
        history,
        date,
        &ts,
    );

    stage(Stage::Index);
    let (index, trends) = feeds::index_file(&round_matrix, &options.basket, history, date, &ts)?;
    notes.extend(trends.notes);
    let depth = DepthFile::from_counts(&BAND_KEYS, &market.depth, &ts);

    let mut bytes = [
        round_bytes,
        cushion_bytes,
        wire::to_bytes(&ratio_file),
        wire::to_bytes(&index),
        wire::to_bytes(&depth),
    ];
    let files = FeedFiles::from_fn(|feed: Feed| std::mem::take(&mut bytes[feed as usize]));

    stage(Stage::Validating);
    let round_spreads = spread::spreads(market.at_band(Shape::Round), &round, &round_ln);
    let cushion_spreads = spread::spreads(market.at_band(Shape::Cushion), &cushion, &cushion_ln);
    let stats = spread::stats_file(&round_spreads.cells, &cushion_spreads.cells, &ts).to_bytes();
    notes.push(round_spreads.note("round"));
    notes.push(cushion_spreads.note("cushion"));
    Snapshot::parse(files.clone())
        .and_then(|snapshot| snapshot.with_stats(stats.clone()))
        .map_err(Error::Invalid)?;

    let report = Report {
        date: date.to_string(),
        rows_in: 0,
        rows_used: 0,
        rejected: Default::default(),
        rejected_examples: Vec::new(),
        round: MatrixReport::new(&round, &round_ln, round_asks.len(), None, round_outcome),
        cushion: MatrixReport::new(
            &cushion,
            &cushion_ln,
            cushion_asks.len(),
            fallback,
            cushion_outcome,
        ),
        ratio_models: sources
            .into_iter()
            .map(|(shape, source)| ShapeReport { shape: shape.as_str(), source })
            .collect(),
        dcx: index.dcx,
        trend: index.trend,
        trend_7d: index.trend_7d,
        trend_30d: index.trend_30d,
        notes,
    };
    Ok(Build { files, report, observed, stats })
}

/// Refuses a matrix whose rounded ln values still break a monotonicity rule.
fn check_monotone(matrix: &'static str, ln: &[f64]) -> Result<(), Error> {
    let violation = smooth::worst_violation(ln);
    if violation > 0.0 {
        return Err(Error::NotMonotone { matrix, violation });
    }
    Ok(())
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
