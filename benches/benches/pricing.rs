//! Criterion benches: a round quote, a fancy-shape quote, and parsing plus validating the
//! reference snapshot. Each bench checks its result once before timing it. At the end the
//! quotes' medians are printed as ratios to the median of one `exp`, measured in the same
//! run (read back from criterion's estimates).

use std::{hint::black_box, path::PathBuf, time::SystemTime};

use criterion::{Criterion, Throughput, criterion_group};
use pricing::{Clarity, Color, QuoteRequest, Shape};

fn quotes(c: &mut Criterion) {
    let snapshot = benches::load(&test_support::fixture_path("snapshot"));
    let pricing = snapshot.pricing();

    // Baseline for ratios: the irreducible cost of any quote, one exp of a ln price.
    let ln = 8.839707f64;
    assert!((ln.exp() - 6902.97).abs() < 0.01);
    c.bench_function("baseline_exp_of_ln_price", |b| b.iter(|| black_box(ln).exp()));

    let round = QuoteRequest {
        carat: 1.23,
        color: Color::G,
        clarity: Clarity::Vs2,
        shape: Shape::Round,
        ratio: None,
    };
    let quote = pricing.quote(&round).expect("round quote");
    assert!((5900.0..8300.0).contains(&quote.per_carat_usd), "{}", quote.per_carat_usd);
    c.bench_function("quote_round_1.23ct_G_VS2", |b| b.iter(|| pricing.quote(black_box(&round))));

    let fancy = QuoteRequest {
        carat: 1.23,
        color: Color::G,
        clarity: Clarity::Vs2,
        shape: Shape::Oval,
        ratio: Some(1.45),
    };
    let quote = pricing.quote(&fancy).expect("fancy quote");
    assert!(quote.fancy.is_some() && quote.per_carat_usd < quote.base_per_carat_usd);
    c.bench_function("quote_oval_1.23ct_G_VS2_r1.45", |b| {
        b.iter(|| pricing.quote(black_box(&fancy)))
    });

    let cushion = QuoteRequest {
        carat: 2.7,
        color: Color::E,
        clarity: Clarity::Vvs2,
        shape: Shape::Radiant,
        ratio: None,
    };
    assert_eq!(pricing.quote(&cushion).expect("radiant quote").base, pricing::BaseMatrix::Cushion);
    c.bench_function("quote_radiant_2.7ct_E_VVS2_default_ratio", |b| {
        b.iter(|| pricing.quote(black_box(&cushion)))
    });
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
    println!("ratios to one exp ({BASELINE}, median {exp:.2} ns), this run:");
    for id in QUOTES {
        if let Some(quote) = median_ns(&dir, id, since) {
            println!("  {id:<44} median {quote:>7.2} ns  {:>5.2}x", quote / exp);
        }
    }
}

criterion_group!(benches, quotes, parsing);

fn main() {
    // Criterion's files keep one second of mtime resolution on some file systems.
    let since = SystemTime::now() - std::time::Duration::from_secs(1);
    benches();
    Criterion::default().configure_from_args().final_summary();
    report_ratios(since);
}
