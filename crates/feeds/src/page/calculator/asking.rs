//! The calculator's evidence and asking price: under the price, the range of comparable
//! asks with the asks behind it and its basis; with an asking price, its verdict,
//! percentile and discount (what `/check` answers, from the same code) and where it falls
//! on a range bar: inline SVG styled by classes only, as the page's CSP requires.

use datasets::Snapshot;
use maud::{Markup, html};
use pricing::{Given, Quote, Verdict, round_cents};

use crate::{
    check,
    stone::{Problem, Refusal},
};

#[cfg(test)]
mod tests;

/// The drawing box of the range bar, in SVG user units; it stretches to its container.
const WIDTH: f64 = 300.0;
const HEIGHT: f64 = 36.0;
/// Room left at both ends of the bar.
const INSET: f64 = 6.0;

/// Reads the asking price field: `None` when left empty, else the ask or the problem
/// `/check` reports for it.
pub(super) fn read(text: &str) -> Option<Result<f64, Problem>> {
    let text = text.trim();
    (!text.is_empty()).then(|| check::asking_price(Given::number_text(text)))
}

/// A priced stone with the ask read beside it: the ask's problem joins the stone's, so
/// that every problem shows at once.
pub(super) fn with_ask<T>(
    priced: Result<T, Refusal>,
    ask: Option<Result<f64, Problem>>,
) -> Result<(T, Option<f64>), Refusal> {
    match (priced, ask.transpose()) {
        (Ok(priced), Ok(ask)) => Ok((priced, ask)),
        (Ok(_), Err(problem)) => Err(Refusal { problems: vec![problem], more: 0 }),
        (Err(mut refusal), ask) => {
            if let Err(problem) = ask {
                refusal.problems.push(problem);
            }
            Err(refusal)
        }
    }
}

/// What a verdict says on the page.
fn words(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::BelowMarket => "Below the market",
        Verdict::WithinMarket => "Within the market",
        Verdict::AboveMarket => "Above the market",
    }
}

/// The evidence of a priced stone and, with an ask, the check of it; with no spread data
/// in the snapshot, nothing (or, when an ask was given, why it cannot be checked).
pub(super) fn evidence(snapshot: &Snapshot, quote: &Quote, ask: Option<f64>) -> Markup {
    let Some(evidence) = snapshot.evidence(quote) else {
        return html! { @if ask.is_some() { p.note.unchecked { (check::no_spreads(snapshot)) } } };
    };
    let (low, high) = (round_cents(evidence.range.low_usd), round_cents(evidence.range.high_usd));
    let asks = match evidence.observations {
        0 => "no observed asks behind it".to_owned(),
        1 => "based on 1 observed ask".to_owned(),
        n => format!("based on {n} observed asks"),
    };
    let basis = evidence.basis.as_str();
    html! {
        p.range data-low-usd=(low) data-high-usd=(high) data-observations=(evidence.observations) data-basis=(basis) {
            "Range (10th–90th percentile of comparable asks): "
            strong { (words::usd(low)) " – " (words::usd(high)) } "; " (asks) " (basis: " (basis) ")."
        }
        @if let Some(ask) = ask {
            @let assessed = evidence.assess(ask);
            @let (percentile, discount) = (pricing::tenth(assessed.percentile), pricing::tenth(assessed.discount_pct));
            @let verdict = assessed.verdict.as_str();
            div.check id="check" data-verdict=(verdict) data-percentile=(percentile) data-discount-pct=(discount) {
                p.verdict { span class={ "badge " (verdict) } { (words(assessed.verdict)) } }
                p.assessment {
                    "Asking " strong { (words::usd(ask)) } ": percentile " strong { (percentile) }
                    " of comparable asks, " strong { (discount.abs()) " %" }
                    @if discount < 0.0 { " below" } @else if discount > 0.0 { " above" } @else { " from" }
                    " the benchmark of " (words::usd(round_cents(quote.total_usd))) "."
                }
                (bar(low, high, round_cents(quote.total_usd), ask))
            }
        }
    }
}

/// The range bar: the 10th-90th percentile band on a track, a tick at the benchmark and
/// a mark at the ask, on a linear scale wide enough for all three; a legend under it.
fn bar(low: f64, high: f64, benchmark: f64, ask: f64) -> Markup {
    let (least, most) = (low.min(benchmark).min(ask), high.max(benchmark).max(ask));
    let pad = ((most - least) * 0.08).max(1.0);
    let (from, to) = (least - pad, most + pad);
    let x = |value: f64| INSET + (value - from) / (to - from) * (WIDTH - 2.0 * INSET);
    let label = format!(
        "The ask of {} against the range {} to {} and the benchmark {}",
        words::usd(ask),
        words::usd(low),
        words::usd(high),
        words::usd(benchmark)
    );
    let (x_low, x_high, x_benchmark, x_ask) = (x(low), x(high), x(benchmark), x(ask));
    html! {
        svg.range-bar viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } preserveAspectRatio="none"
            role="img" aria-label=(label) xmlns="http://www.w3.org/2000/svg" {
            title { (label) }
            rect.bar-track x=(INSET) y="14" width=(WIDTH - 2.0 * INSET) height="8" rx="4" {}
            rect.bar-range x=(format!("{x_low:.1}")) y="10" width=(format!("{:.1}", x_high - x_low)) height="16" rx="3" {}
            line.bar-benchmark x1=(format!("{x_benchmark:.1}")) x2=(format!("{x_benchmark:.1}")) y1="6" y2="30" {}
            line.bar-ask x1=(format!("{x_ask:.1}")) x2=(format!("{x_ask:.1}")) y1="1" y2="35" {}
        }
        p.bar-legend {
            span.key.range { "10th–90th percentile" }
            span.key.benchmark { "benchmark" }
            span.key.ask { "the ask" }
        }
    }
}
