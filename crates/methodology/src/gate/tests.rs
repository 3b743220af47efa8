//! Tests of `gate`: each gate refuses with its one-line reason, publishes nothing and
//! keeps what is known of the build; the limits move with their options.

use pricing::Shape;
use test_support::TempDir;

use crate::{
    BuildOptions, Gates, InputFormat, build, build_csv,
    tests::{date, refusal, synthetic},
};

fn market() -> Vec<crate::Listing> {
    synthetic(Shape::Round, &[0.5, 1.0, 2.0], 8.0)
}

/// The market as native CSV, each line `i` (0: the header) rewritten by `edit`.
fn edited_csv(edit: impl Fn(usize, &str) -> String) -> String {
    let rows = market().into_iter().map(|l| {
        format!("{},{},{},{},Excellent,{:.2}", l.carat, l.color, l.clarity, l.shape, l.price)
    });
    let lines = std::iter::once("carat,color,clarity,shape,cut,price".to_owned()).chain(rows);
    lines.enumerate().flat_map(|(i, line)| [edit(i, &line), "\n".to_owned()]).collect()
}

/// The error of `text` (native CSV) under the default gates, and its build when the
/// share of bad rows may reach `lenient`.
fn refused_then_built(text: &str, lenient: f64) -> (crate::Error, crate::Build) {
    let options = BuildOptions::new(date());
    let err = build_csv(text, InputFormat::Native, &options, None).expect_err("refused");
    let mut options = BuildOptions::new(date());
    options.gates.max_bad_share = lenient;
    let built = build_csv(text, InputFormat::Native, &options, None).expect("within the limit");
    (err, built)
}

#[test]
fn too_many_unparseable_rows_are_refused_with_the_share_and_the_limit() {
    // Thousands separators in 30 % of the prices: quoted "2,757"-style fields.
    let bad = edited_csv(|i, line| {
        if i == 0 || i % 10 >= 3 {
            return line.to_owned();
        }
        let (head, price) = line.rsplit_once(',').expect("price");
        let price: f64 = price.parse().expect("number");
        format!("{head},\"{},{:03}\"", price as u64 / 1000, price as u64 % 1000)
    });
    let (err, built) = refused_then_built(&bad, 0.35);
    let refusal = refusal(&err);
    assert_eq!(
        refusal.refused,
        "30.0 % of rows unparseable or impossible (216 of 720: 216 unparseable, 0 impossible); the limit is 20 %"
    );
    assert!(!refusal.published);
    assert_eq!(refusal.rows_in, 720);
    assert!(refusal.build.is_none());
    assert!(err.to_string().starts_with("build refused: 30.0 % of rows"), "{err}");
    // The limit is an option.
    assert_eq!(built.report.rejected.unparseable, 216);
}

#[test]
fn a_stray_quote_that_swallows_more_than_the_limit_is_refused() {
    // One quote opens the shape of row 100, the next closes the shape of row 300: read
    // as CSV that is one record, which reads with the right field count. Counted as one
    // row it would be 0.1 % of the file; counted by the 201 lines it swallowed it is 28 %.
    let stray = edited_csv(|i, line| match i {
        100 => line.replacen(",round,", ",\"round,", 1),
        300 => line.replacen(",round,", ",round\",", 1),
        _ => line.to_owned(),
    });
    assert_eq!(stray.matches('"').count(), 2, "both rows are round");
    let (err, built) = refused_then_built(&stray, 0.30);
    let refusal = refusal(&err);
    assert_eq!(
        refusal.refused,
        "27.9 % of rows unparseable or impossible (201 of 720: 201 unparseable, 0 impossible; 200 of them lines swallowed into records that span several lines, as a stray quote does); the limit is 20 %"
    );
    assert_eq!(refusal.rows_in, 720);
    assert!(
        refusal.rejected_examples[0]
            .starts_with("lines 101-301: unparseable: one record over 201 lines"),
        "{:?}",
        refusal.rejected_examples
    );
    // Under a looser limit the build publishes, and its report counts the same lines.
    assert_eq!((built.report.rows_in, built.report.rejected.unparseable), (720, 201));
    assert_eq!(built.report.rows_used, 519);
}

#[test]
fn all_prices_one_dollar_are_impossible_and_refused() {
    let cheap: Vec<crate::Listing> =
        market().into_iter().map(|l| crate::Listing { price: 1.0, ..l }).collect();
    let err = build(&cheap, &BuildOptions::new(date()), None).expect_err("refused");
    assert_eq!(
        refusal(&err).refused,
        "100.0 % of rows unparseable or impossible (720 of 720: 0 unparseable, 720 impossible); the limit is 20 %"
    );
}

#[test]
fn thin_coverage_is_refused() {
    let few = synthetic(Shape::Round, &[0.5, 1.0], 8.0);
    let mut options = BuildOptions::new(date());
    options.gates.min_observed_cells = 161;
    let err = build(&few, &options, None).expect_err("refused");
    let refusal = refusal(&err);
    assert_eq!(
        refusal.refused,
        "coverage too thin: 160 round cells observed today; the minimum is 161"
    );
    let report = refusal.build.as_ref().expect("the build ran to the end");
    assert_eq!(report.round.totals()[0], 160);
}

#[test]
fn implausible_published_prices_are_refused() {
    let mut options = BuildOptions::new(date());
    options.gates.max_per_carat = 5000.0;
    let err = build(&market(), &options, None).expect_err("refused");
    let reason = &refusal(&err).refused;
    assert!(reason.starts_with("implausible price: round "), "{reason}");
    assert!(reason.ends_with("the plausible range is 100..=5000"), "{reason}");
    assert_eq!(Gates::default().max_per_carat, 1_000_000.0);
}

#[test]
fn a_large_dcx_move_needs_accept_move_and_a_refusal_leaves_the_history_alone() {
    let dir = TempDir::new("gate-move");
    let first = build(&market(), &BuildOptions::new(date()), None).expect("day 1");
    crate::publish(&dir.0, date(), &first, datasets::fs::Existing::Refuse).expect("publish");
    let (history, _) = datasets::History::load(&dir.0).expect("load");
    let next = date().succ_opt().expect("next day");
    let mut options = BuildOptions::new(next);
    options.history = Some(&history);
    let dearer = synthetic(Shape::Round, &[0.5, 1.0, 2.0], 8.0 + 0.15f64.ln_1p());
    let Err(err) = build(&dearer, &options, None) else { panic!("a large move is published") };
    let refused = refusal(&err);
    let report = refused.build.as_ref().expect("the build ran to the end");
    let expected = format!(
        "the DCX moves {:+.2} % against 2026-11-21 ({:.2} -> {:.2}); the limit is 5 % (accept the move to publish it)",
        (report.dcx / first.report.dcx - 1.0) * 100.0,
        first.report.dcx,
        report.dcx
    );
    assert_eq!(refused.refused, expected);
    assert!(report.trend > 5.0, "{}", report.trend);
    let (after, _) = datasets::History::load(&dir.0).expect("load");
    assert_eq!(after.days().len(), 1, "a refused build publishes nothing");
    options.gates.accept_move = true;
    let accepted = build(&dearer, &options, None).expect("accepted");
    assert_eq!(accepted.report.trend, report.trend);
    // A small move passes without it.
    options.gates.accept_move = false;
    let calm = synthetic(Shape::Round, &[0.5, 1.0, 2.0], 8.0 + 0.02f64.ln_1p());
    assert!(build(&calm, &options, None).is_ok(), "a 2 % move is published");
}
