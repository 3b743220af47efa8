//! Criterion benches: a round quote, a fancy-shape quote, and parsing plus validating the
//! reference snapshot. Each bench checks its result once before timing it, and one closure
//! times every quote, so each runs the same machine code. At the end the quotes' medians
//! are printed as ratios to the median of one `exp`, measured in the same run (read back
//! from criterion's estimates), and as ratios taken from short batches of each,
//! interleaved (steadier on a busy machine: see `interleaved_ratios`).

use std::{
    hint::black_box,
    path::PathBuf,
    time::{Instant, SystemTime},
};

use criterion::{Criterion, Throughput, criterion_group};
use pricing::{Clarity, Color, Quote, QuoteError, QuoteRequest, Shape};

fn quotes(c: &mut Criterion) {
    let snapshot = benches::load(&test_support::fixture_path("snapshot"));
    let pricing = snapshot.pricing();

    // Baseline for ratios: the irreducible cost of any quote, one exp of a ln price.
    let ln = 8.839707f64;
    assert!((ln.exp() - 6902.97).abs() < 0.01);
    c.bench_function(BASELINE, |b| b.iter(|| black_box(ln).exp()));

    let round = request(QUOTES[0]);
    let quote = pricing.quote(&round).expect("round quote");
    assert!((5900.0..8300.0).contains(&quote.per_carat_usd), "{}", quote.per_carat_usd);
    let fancy = request(QUOTES[1]);
    let quote = pricing.quote(&fancy).expect("fancy quote");
    assert!(quote.fancy.is_some() && quote.per_carat_usd < quote.base_per_carat_usd);
    let cushion = request(QUOTES[2]);
    assert_eq!(pricing.quote(&cushion).expect("radiant quote").base, pricing::BaseMatrix::Cushion);

    // One closure for every stone, so each is timed by the same machine code: a closure
    // per stone is a copy of the quote, and where a copy lands moves its median
    // (docs/performance.md, "Pricing hot path"). Each request goes through `black_box` by
    // value, as the baseline's ln does, so its carat is not folded in as a constant.
    for (id, request) in QUOTES.into_iter().zip([round, fancy, cushion]) {
        c.bench_function(id, |b| b.iter(|| consume(&pricing.quote(&black_box(request)))));
    }
}

fn parsing(c: &mut Criterion) {
    let files = benches::read_files(&test_support::fixture_path("snapshot"));
    let parsed = datasets::Snapshot::parse(files.clone()).expect("valid");
    assert_eq!(parsed.ts_text(), "2026-11-20T00:00:00Z");
    let mut group = c.benchmark_group("snapshot");
    group.throughput(Throughput::Bytes(benches::reference_bytes(&files) as u64));
    group.bench_function("parse_and_validate_reference", |b| {
        b.iter(|| datasets::Snapshot::parse(black_box(files.clone())).expect("valid"))
    });
    group.finish();
}

/// The baseline every quote is compared with.
const BASELINE: &str = "baseline_exp_of_ln_price";
/// The quotes whose median is reported as a multiple of the baseline's.
const QUOTES: [&str; 3] = [
    "quote_round_1.23ct_G_VS2",
    "quote_oval_1.23ct_G_VS2_r1.45",
    "quote_radiant_2.7ct_E_VVS2_default_ratio",
];

/// Criterion's output folder, found as criterion finds it: `CRITERION_HOME`, else
/// `CARGO_TARGET_DIR/criterion`, else `criterion` in the target folder this bench was
/// built into (`target/release/deps/pricing-*`).
fn criterion_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(home.into());
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

/// The median (ns) criterion wrote for bench `id`, if it was written at or after `since`,
/// that is by this run.
fn median_ns(dir: &std::path::Path, id: &str, since: SystemTime) -> Option<f64> {
    let path = dir.join(id).join("new").join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let estimates: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    estimates["median"]["point_estimate"].as_f64()
}

/// Prints each quote's median as a multiple of one `exp`'s median, both of this run.
#[expect(clippy::print_stdout, reason = "a bench reports on stdout, beside criterion")]
fn report_ratios(since: SystemTime) {
    let Some(dir) = criterion_dir() else { return };
    let Some(exp) = median_ns(&dir, BASELINE, since) else {
        println!("ratios to one exp: the baseline was not measured in this run");
        return;
    };
    println!("host: {}", benches::host());
    println!("ratios to one exp ({BASELINE}, median {exp:.2} ns), this run:");
    for id in QUOTES {
        if let Some(quote) = median_ns(&dir, id, since) {
            println!("  {id:<44} median {quote:>7.2} ns  {:>5.2}x", quote / exp);
        }
    }
}

/// The quotes again, timed in short batches taken in turn with batches of the baseline
/// `exp`: few microsecond batches are cut by the scheduler, and a neighbour's load slows
/// both alike. Each call gets its request through `black_box` by value, as in the
/// criterion benches. Prints the median batch of each, per call, and its ratio to the
/// baseline's.
#[expect(clippy::print_stdout, reason = "a bench reports on stdout, beside criterion")]
fn interleaved_ratios() {
    const ROUNDS: usize = 4001;
    const BATCH: u32 = 256;
    let snapshot = benches::load(&test_support::fixture_path("snapshot"));
    let pricing = snapshot.pricing();
    let requests: Vec<QuoteRequest> = QUOTES.iter().map(|&id| request(id)).collect();
    let ln = 8.839707f64;
    let mut times = vec![Vec::with_capacity(ROUNDS); 1 + requests.len()];
    for _ in 0..ROUNDS {
        let started = Instant::now();
        for _ in 0..BATCH {
            black_box(black_box(ln).exp());
        }
        times[0].push(started.elapsed().as_nanos() as f64 / f64::from(BATCH));
        for (at, request) in requests.iter().enumerate() {
            let started = Instant::now();
            for _ in 0..BATCH {
                consume(&pricing.quote(&black_box(*request)));
            }
            times[at + 1].push(started.elapsed().as_nanos() as f64 / f64::from(BATCH));
        }
    }
    let medians: Vec<f64> = times
        .iter_mut()
        .map(|batch| {
            batch.sort_by(f64::total_cmp);
            batch[batch.len() / 2]
        })
        .collect();
    println!("interleaved, median of {ROUNDS} batches of {BATCH}: {BASELINE} {:.2} ns", medians[0]);
    for (id, median) in QUOTES.iter().zip(&medians[1..]) {
        println!("  {id:<44} median {median:>7.2} ns  {:>5.2}x", median / medians[0]);
    }
}

/// Hands a whole quote on, as a caller reads it where it was built: `black_box` of a
/// reference counts every field as read, without copying the 144-byte result elsewhere
/// first as `black_box` of the value does.
#[inline(always)]
fn consume(quote: &Result<Quote, QuoteError>) {
    black_box(quote);
}

/// The request each quote bench prices, checked by `quotes`.
fn request(id: &str) -> QuoteRequest {
    let (carat, color, clarity, shape, ratio) = match id {
        "quote_round_1.23ct_G_VS2" => (1.23, Color::G, Clarity::Vs2, Shape::Round, None),
        "quote_oval_1.23ct_G_VS2_r1.45" => (1.23, Color::G, Clarity::Vs2, Shape::Oval, Some(1.45)),
        "quote_radiant_2.7ct_E_VVS2_default_ratio" => {
            (2.7, Color::E, Clarity::Vvs2, Shape::Radiant, None)
        }
        other => panic!("no request for {other}"),
    };
    QuoteRequest { carat, color, clarity, shape, ratio }
}

criterion_group!(benches, quotes, parsing);

fn main() {
    // Criterion's files keep one second of mtime resolution on some file systems.
    let since = SystemTime::now() - std::time::Duration::from_secs(1);
    benches();
    Criterion::default().configure_from_args().final_summary();
    report_ratios(since);
    // Only when benchmarking: `cargo test --benches` runs each bench once, as a test.
    if std::env::args().any(|arg| arg == "--bench") {
        interleaved_ratios();
    }
}
