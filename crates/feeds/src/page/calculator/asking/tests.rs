//! Unit tests of the calculator's evidence and asking price: what the page shows is what
//! `Evidence::assess` and `/check` say; a bad ask is refused next to its field.

use datasets::{History, Snapshot, reference};
use pricing::tenth;

use crate::{
    check,
    page::{calculator::answer, layout::Frame},
};

const FRAME: Frame<'static> = Frame { name: "t", version: "1", ts: "ts", sample: true };
const STONE: &str = "shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4";

fn page(history: &History, query: &str) -> (bool, String) {
    let answer = answer(history, &FRAME, query);
    (answer.ok, answer.markup.into_string())
}

/// The value of the attribute `name` in `html` (its first occurrence).
fn attribute<'h>(html: &'h str, name: &str) -> &'h str {
    let start =
        html.find(&format!("{name}=\"")).unwrap_or_else(|| panic!("no {name}")) + name.len() + 2;
    &html[start..start + html[start..].find('"').unwrap()]
}

#[test]
fn the_verdict_and_percentile_shown_are_those_of_evidence_assess() {
    let history = History::single(Snapshot::reference());
    let snapshot = history.live();
    let quote = snapshot.quote(&crate::stone::OVAL).unwrap();
    let evidence = snapshot.evidence(&quote).unwrap();
    for factor in [0.3, 0.9, 1.0, 1.2, 3.0] {
        let ask = (quote.total_usd * factor).round();
        let (ok, html) = page(&history, &format!("{STONE}&asking_price_usd={ask}"));
        assert!(ok, "{html}");
        let assessed = evidence.assess(ask);
        assert_eq!(attribute(&html, "data-verdict"), assessed.verdict.as_str());
        assert_eq!(attribute(&html, "data-percentile"), tenth(assessed.percentile).to_string());
        assert_eq!(attribute(&html, "data-discount-pct"), tenth(assessed.discount_pct).to_string());
        // The same as `/check` answers.
        let answered = check::answer(snapshot, &quote, &evidence, ask);
        assert_eq!(answered.verdict, attribute(&html, "data-verdict"));
        assert!(html.contains(r#"<svg class="range-bar""#), "{html}");
        assert!(!html.contains("style="), "no inline style under the CSP");
    }
}

#[test]
fn every_price_shows_its_range_and_no_check_without_an_ask() {
    let history = History::single(Snapshot::reference());
    let (ok, html) = page(&history, STONE);
    assert!(ok);
    assert!(html.contains("Range (10th–90th percentile of comparable asks): "), "{html}");
    assert!(html.contains("data-basis="));
    assert!(!html.contains("data-verdict"));
    let (ok, html) = page(&history, &format!("{STONE}&asking_price_usd="));
    assert!(ok && !html.contains("data-verdict"), "an empty ask is not given");
}

#[test]
fn a_bad_ask_is_refused_next_to_its_field_with_the_stone_problems() {
    let history = History::single(Snapshot::reference());
    let (ok, html) = page(&history, "carat=9&color=G&clarity=VS2&asking_price_usd=-2");
    assert!(!ok);
    assert!(html.contains(r#"id="carat-problem""#), "{html}");
    assert!(html.contains(r#"id="asking_price_usd-problem""#), "{html}");
    assert!(html.contains(pricing::ASKING_PRICE_ALLOWED));
    assert!(html.contains(r#"value="-2""#), "the form is filled in again");
}

#[test]
fn without_spreads_the_price_stands_and_the_ask_is_not_checked() {
    let bare = History::single(Snapshot::parse(reference::embedded()).unwrap());
    let (ok, html) = page(&bare, &format!("{STONE}&asking_price_usd=6500"));
    assert!(ok, "{html}");
    assert!(html.contains("data-total-usd=") && !html.contains("data-verdict"));
    assert!(html.contains("has no spread data"), "{html}");
}
