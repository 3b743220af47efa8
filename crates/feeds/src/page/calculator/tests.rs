//! Unit tests of the calculator: the same prices as `Snapshot::quote`, the same messages as
//! `/track`, next to their fields.

use datasets::{History, Snapshot};
use pricing::round_cents;

use super::*;
use crate::page::layout::Frame;

const FRAME: Frame<'static> = Frame { name: "t", version: "1", ts: "ts", sample: true };

fn page(query: &str) -> (bool, String) {
    let answer = answer(&History::single(Snapshot::reference()), &FRAME, query);
    (answer.ok, answer.markup.into_string())
}

#[test]
fn the_answer_is_the_quote_of_the_pricing_path() {
    let (ok, html) = page("shape=oval&carat=1.23&color=g&clarity=vs2&ratio=1.4");
    assert!(ok);
    let quote = Snapshot::reference().quote(&crate::stone::OVAL).unwrap();
    let total = round_cents(quote.total_usd);
    assert!(html.contains(&format!(r#"data-total-usd="{total}""#)), "{html}");
    assert!(html.contains(&words::usd(total)));
    assert!(html.contains("1.23 ct oval, G, VS2, L/W 1.40"));
    // The form is filled in again.
    assert!(html.contains(r#"<option value="oval" selected"#), "{html}");
    assert!(html.contains(r#"value="1.23""#));
}

#[test]
fn empty_fields_are_not_given_and_round_needs_no_ratio() {
    let (ok, html) = page("shape=round&carat=1&color=G&clarity=VS2&ratio=");
    assert!(ok, "{html}");
    assert!(html.contains("data-total-usd="));
}

#[test]
fn bad_input_gets_the_track_messages_next_to_the_fields() {
    let query = "shape=round&carat=9&color=G&clarity=VS2";
    let (ok, html) = page(query);
    assert!(!ok);
    let problems = crate::stone::parse(query).unwrap_err().problems;
    assert_eq!(problems.len(), 1);
    let message = maud::html! { (problems[0].message) }.into_string();
    assert!(
        html.contains(&format!(r#"<p class="problem" role="alert" id="carat-problem">{message}"#)),
        "{html}"
    );
    assert!(html.contains(r#"<div class="field invalid"><label for="carat">"#));
    assert!(!html.contains("data-total-usd"));
}

#[test]
fn a_ratio_outside_the_slider_is_shown_at_the_ratio_field() {
    let (ok, html) = page("shape=oval&carat=1&color=G&clarity=VS2&ratio=3");
    assert!(!ok);
    assert!(html.contains(r#"id="ratio-problem""#), "{html}");
    assert!(html.contains("between 1.25 and 1.7"));
}

#[test]
fn unknown_parameters_are_listed_above_the_form() {
    let (ok, html) = page("carat=1&color=G&clarity=VS2&colour=G");
    assert!(!ok);
    assert!(
        html.contains(
            r#"<ul class="problems" role="alert"><li>unknown parameter &quot;colour&quot;</li>"#
        ),
        "{html}"
    );
}

#[test]
fn no_query_is_the_empty_form() {
    let (ok, html) = page("");
    assert!(ok);
    assert!(html.contains(r#"<form class="calculator" method="get" action="/quote" novalidate>"#));
    assert!(!html.contains("role=\"alert\""));
}

/// The fields reach `/track`'s checks as typed, whatever they hold.
#[test]
fn values_reach_the_track_checks_as_typed() {
    let query = "carat=1&color=G%26x%3D1+y%25&clarity=VS2";
    let (ok, html) = page(query);
    assert!(!ok);
    let problem = &crate::stone::parse(query).unwrap_err().problems[0];
    assert!(problem.message.contains(r#""G&x=1 y%""#), "{}", problem.message);
    let message = maud::html! { (problem.message) }.into_string();
    assert!(html.contains(&format!(r#"id="color-problem">{message}"#)), "{html}");
}

#[test]
fn a_refused_page_is_bounded_whatever_the_query_holds() {
    // Characters HTML escapes grow sixfold (`"` is `&quot;`); 30 kB of them in every field.
    let junk = "%22".repeat(10_000);
    let query = format!("shape={junk}&carat={junk}&color={junk}&clarity={junk}&ratio={junk}");
    let (ok, html) = page(&query);
    assert!(!ok);
    assert!(html.len() <= 16 * 1024, "{} bytes", html.len());
}
