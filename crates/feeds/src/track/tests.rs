//! Unit tests for `crate::track`: parameters and entries.

use datasets::{History, Snapshot};
use pricing::{Clarity, Color, QuoteRequest, Shape, round_cents};

use crate::{
    stone::{OVAL, parse},
    tracked::track,
};

/// Checks the bad parameters named, in order.
#[track_caller]
fn check_err(query: &str, expect: &[&str]) {
    let refusal = parse(query).unwrap_err();
    assert_eq!(refusal.more, 0);
    let problems = refusal.problems;
    let names: Vec<&str> = problems.iter().map(|p| p.parameter.as_str()).collect();
    assert_eq!(names, expect, "{problems:?}");
    assert!(problems.iter().all(|p| !p.allowed.is_empty() && !p.message.is_empty()));
}

/// A tracking URL's query; grades in any case, and the shape round unless named.
#[test]
fn reads_a_query_with_grades_in_any_case_and_round_by_default() {
    let round = QuoteRequest { carat: 1.0, shape: Shape::Round, ratio: None, ..OVAL };
    let small_oval =
        QuoteRequest { carat: 0.3, color: Color::D, clarity: Clarity::If, ratio: None, ..OVAL };
    for (query, expect) in [
        ("shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4", OVAL),
        ("carat=1&color=g&clarity=vs2", round),
        ("shape=OVAL&carat=0.3&color=d&clarity=if", small_oval),
    ] {
        assert_eq!(parse(query), Ok(expect), "{query}");
    }
}

#[test]
fn reports_every_bad_parameter() {
    check_err("", &["carat", "color", "clarity"]);
    check_err(
        "shape=blob&carat=7&color=Z&clarity=VS3&ratio=-1",
        &["carat", "color", "clarity", "shape", "ratio"],
    );
    check_err("carat=NaN&color=G&clarity=VS2", &["carat"]);
    check_err("carat=1&color=G&clarity=VS2&colour=G&carat=2", &["colour", "carat"]);
    check_err("carat=1&color=G&clarity=VS2&ratio=1.4", &["ratio"]);
    check_err("carat=&color=G&clarity=VS2&ratio=wide", &["carat", "ratio"]);
}

/// Values are judged by the quote rules: their messages, the field's allowed text.
#[test]
fn values_get_the_quote_rules_words() {
    let problems = parse("carat=abc&color=G&clarity=VS2&shape=oval&ratio=0").unwrap_err().problems;
    let carat = &problems[0];
    assert_eq!(carat.message, r#"carat must be a number of carats from 0.3 to 6, got "abc""#);
    assert_eq!(carat.allowed, pricing::QuoteField::Carat.allowed());
    assert_eq!(problems[1].message, "L/W ratio must be a positive number, got 0");
    let round = parse("carat=1&color=G&clarity=VS2&ratio=1.3").unwrap_err().problems;
    assert_eq!(
        round[0].message,
        "L/W ratio for a round stone must be 1 (within 0.05), got 1.3; omit it for round stones"
    );
}

/// The route's parameters are the quote request's field names.
#[test]
fn every_quote_field_is_a_parameter() {
    for field in pricing::QuoteField::ALL {
        assert!(crate::stone::PARAMETERS.contains(&field.name()), "{field}");
    }
    assert_eq!(crate::stone::PARAMETERS.len(), pricing::QuoteField::ALL.len());
}

#[test]
fn entries_cover_every_day_with_cents() {
    let history = History::single(Snapshot::reference());
    let request = parse("shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4").unwrap();
    let value = serde_json::to_value(track(&history, &request, chrono::NaiveDate::MIN)).unwrap();
    let entries = value["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let quote = history.live().quote(&request).unwrap();
    assert_eq!(entries[0]["ts"], "2026-11-20T00:00:00Z");
    assert_eq!(entries[0]["per_carat_usd"], round_cents(quote.per_carat_usd));
    assert_eq!(entries[0]["total_usd"], round_cents(quote.per_carat_usd * 1.23));
    assert!(entries[0]["ratio_multiplier"].is_number());
}

#[test]
fn a_quote_failing_in_a_snapshot_is_an_entry_with_an_error() {
    let history = History::single(Snapshot::reference());
    let request = parse("shape=oval&carat=1&color=G&clarity=VS2&ratio=3").unwrap();
    let value = serde_json::to_value(track(&history, &request, chrono::NaiveDate::MIN)).unwrap();
    let entry = &value["entries"][0];
    assert!(entry["error"].as_str().unwrap().contains("between 1.25 and 1.7"), "{entry}");
    assert!(entry.get("total_usd").is_none());
}

#[test]
fn many_problems_are_counted_past_the_first_few() {
    let query = format!("carat=1&color=G&clarity=VS2{}", "&a".repeat(21_000));
    let refusal = parse(&query).unwrap_err();
    assert_eq!(refusal.problems.len(), crate::stone::LISTED_PROBLEMS_MAX);
    assert_eq!(refusal.problems[0].message, "unknown parameter \"a\"");
    assert_eq!(refusal.problems.len() + refusal.more, 21_000);
}

#[test]
fn long_values_are_quoted_cut() {
    let long = "Z".repeat(5_000);
    let refusal = parse(&format!("carat=1&color={long}&clarity=VS2")).unwrap_err();
    let message = &refusal.problems[0].message;
    let cut = format!("unknown color \"{}…\" (5000 bytes); allowed: D, E,", "Z".repeat(64));
    assert!(message.starts_with(&cut), "{message}");
    assert!(message.len() < 160, "{message}");
}

/// `days` and `from` together are both bounds: the window starts at the later one.
#[test]
fn days_and_from_together_start_the_window_at_the_later_one() {
    let live = chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
    let date = |text: &str| chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap();
    let stone = "carat=1&color=G&clarity=VS2";
    for (window, start) in [
        ("", "2026-10-21"),
        ("&days=5", "2026-11-15"),
        ("&from=2026-11-01", "2026-11-01"),
        ("&days=5&from=2026-11-01", "2026-11-15"),
        ("&days=60&from=2026-11-01", "2026-11-01"),
    ] {
        let query = format!("{stone}{window}");
        assert!(parse(&query).is_ok(), "{query}");
        assert_eq!(crate::stone::from_date(&query, live), date(start), "{query}");
    }
}
