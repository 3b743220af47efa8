//! Criterion benches: a round quote, a fancy-shape quote, and parsing plus validating the
//! reference snapshot. Each bench checks its result once before timing it.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
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

criterion_group!(benches, quotes, parsing);
criterion_main!(benches);
