//! `get_market_depth`: observed-offer counts at the nearest carat point, or an overview.

use std::sync::Arc;

use datasets::{Depth, Snapshot};
use jsonrpc::Object;
use pricing::{Carat, Clarity, Color};

use crate::{
    args::{ArgumentErrors, Arguments},
    memo::LastBuilt,
    price::{Answered, Output},
    text::{Text, lit},
    twin::{Twins, fragment},
};

#[cfg(test)]
mod tests;

/// How many combinations the overview lists.
const TOP_COMBINATIONS: usize = 10;

/// The availability label of a count: 0 → `none`; under 10 → `limited`; over 100 →
/// `strong`; otherwise `available`.
pub(crate) fn availability(count: u64) -> &'static str {
    match count {
        0 => "none",
        1..=9 => "limited",
        101.. => "strong",
        _ => "available",
    }
}

/// The arguments of `get_market_depth`.
pub(crate) const ARGUMENTS: &[&str] = &["carat"];

/// Runs `get_market_depth`. The overview depends on the snapshot alone, so each thread
/// builds it once per snapshot.
pub(crate) fn market_depth(
    snapshot: &Arc<Snapshot>,
    arguments: &Object<'_>,
) -> Result<Answered, ArgumentErrors> {
    let mut args = Arguments::new(arguments, ARGUMENTS);
    // The quote rules' carat rule: the same range and words as `get_diamond_price`.
    let carat = Carat::from_given(args.number("carat"))
        .map_err(|problem| args.refuse("carat", problem))
        .ok();
    args.finish()?;
    let depth = snapshot.depth();
    let as_of = snapshot.ts_text();
    match carat.flatten() {
        Some(carat) => Ok(Answered::Written(at_carat(depth, carat.get(), as_of))),
        None => {
            thread_local! {
                static LAST: LastBuilt<Snapshot, Arc<Output>> = const { LastBuilt::new() };
            }
            let kept = LAST.with(|last| last.get(snapshot, || Arc::new(overview(depth, as_of))));
            Ok(Answered::Kept(kept))
        }
    }
}

fn at_carat(depth: &Depth, carat: f64, as_of: &str) -> Output {
    // A valid depth feed has at least one point; an empty one reports nothing observed.
    let point = depth.nearest(carat);
    let total = point.map_or(0, |p| p.total());
    let label = availability(total);
    let mut text = Text::with_capacity(512);
    lit!(text, "Market depth near ");
    text.decimal(carat);
    lit!(text, " ct (carat point ");
    text.push_str(point.map_or("none", |p| p.key.as_str()));
    lit!(text, "): ");
    text.integer(total);
    lit!(text, " comparable observed offers, availability ");
    text.name(label);
    lit!(text, ".");
    if let Some(p) = point {
        lit!(text, "\nBy colour: ");
        in_grade_order(&mut text, &p.color, Color::as_str);
        lit!(text, "\nBy clarity: ");
        in_grade_order(&mut text, &p.clarity, Clarity::as_str);
    }
    let mut out = as_of_in_both(&mut text, as_of);
    fragment!(out, r#","availability":"#);
    out.name(label);
    fragment!(out, r#","available_carats":null,"by_clarity":"#);
    counts_by_name(&mut out, point.map(|p| p.clarity.as_slice()), Clarity::as_str);
    fragment!(out, r#","by_color":"#);
    counts_by_name(&mut out, point.map(|p| p.color.as_slice()), Color::as_str);
    fragment!(out, r#","carat":"#);
    out.number(carat);
    fragment!(out, r#","carat_key":"#);
    match point {
        Some(p) => out.string(&p.key),
        None => fragment!(out, "null"),
    }
    fragment!(out, r#","comparable_offer_count":"#);
    out.integer(total);
    fragment!(out, r#","mode":"carat","top_combinations":null}"#);
    Output::written(text, out)
}

/// Ends `text` with the data's time, and opens the structured object with it: `as_of`
/// comes first of the members in serde_json's (sorted) order, which the callers follow.
fn as_of_in_both(text: &mut Text, as_of: &str) -> Twins {
    lit!(text, "\n");
    text.as_of(as_of);
    let mut out = Twins::new();
    fragment!(out, r#"{"as_of":"#);
    out.name(as_of);
    out
}

/// Counts by grade as a JSON object, as serde_json writes a map of them: names in sorted
/// order, a repeated grade once with its last count; `{}` without a point.
fn counts_by_name<G: Copy>(
    out: &mut Twins,
    counts: Option<&[(G, u64)]>,
    name: fn(G) -> &'static str,
) {
    let mut named: Vec<(&'static str, u64)> =
        counts.unwrap_or_default().iter().map(|(grade, n)| (name(*grade), *n)).collect();
    // Stable: of a repeated grade, the last sent comes last, and is the one kept.
    named.sort_by_key(|(name, _)| *name);
    fragment!(out, "{");
    let mut first = true;
    for (at, (name, n)) in named.iter().enumerate() {
        if named.get(at + 1).is_some_and(|(next, _)| next == name) {
            continue;
        }
        if !std::mem::take(&mut first) {
            fragment!(out, ",");
        }
        out.name(name);
        fragment!(out, ":");
        out.integer(*n);
    }
    fragment!(out, "}");
}

/// `counts` as `D 27, E 49, …`, best grade first whatever the feed's order (feeds may list
/// clarities alphabetically: `FL, IF, SI1, …`).
fn in_grade_order<G: Ord + Copy>(
    text: &mut Text,
    counts: &[(G, u64)],
    name: fn(G) -> &'static str,
) {
    let mut sorted: Vec<&(G, u64)> = counts.iter().collect();
    sorted.sort_by_key(|pair| pair.0);
    for (at, (grade, n)) in sorted.into_iter().enumerate() {
        if at > 0 {
            lit!(text, ", ");
        }
        text.name(name(*grade));
        lit!(text, " ");
        text.integer(*n);
    }
}

/// The top combinations: count descending, ties in grade order (colour, then clarity).
pub(crate) fn top_combinations(depth: &Depth) -> Vec<(pricing::Color, pricing::Clarity, u64)> {
    let mut pairs = depth.colclar.clone();
    pairs.sort_by(|a, b| {
        b.2.cmp(&a.2).then(a.0.index().cmp(&b.0.index())).then(a.1.index().cmp(&b.1.index()))
    });
    pairs.truncate(TOP_COMBINATIONS);
    pairs
}

fn overview(depth: &Depth, as_of: &str) -> Output {
    let top = top_combinations(depth);
    let mut text = Text::with_capacity(1024);
    lit!(text, "Carat points with observed offers: ");
    for (at, point) in depth.points.iter().enumerate() {
        if at > 0 {
            lit!(text, ", ");
        }
        text.push_str(&point.key);
    }
    lit!(text, "\nTop ");
    text.integer(top.len() as u64);
    lit!(text, " colour/clarity combinations by observed offers:");
    for (color, clarity, n) in &top {
        lit!(text, "\n  ");
        text.name(color.as_str());
        lit!(text, " ");
        text.name(clarity.as_str());
        lit!(text, ": ");
        text.integer(*n);
    }
    let mut out = as_of_in_both(&mut text, as_of);
    fragment!(out, r#","availability":null,"available_carats":["#);
    for (at, point) in depth.points.iter().enumerate() {
        if at > 0 {
            fragment!(out, ",");
        }
        out.number(point.carat);
    }
    fragment!(
        out,
        r#"],"by_clarity":null,"by_color":null,"carat":null,"carat_key":null,"comparable_offer_count":null,"mode":"overview","top_combinations":["#
    );
    for (at, (color, clarity, n)) in top.iter().enumerate() {
        if at > 0 {
            fragment!(out, ",");
        }
        fragment!(out, r#"{"clarity":"#);
        out.name(clarity.as_str());
        fragment!(out, r#","color":"#);
        out.name(color.as_str());
        fragment!(out, r#","observed_offers":"#);
        out.integer(*n);
        fragment!(out, "}");
    }
    fragment!(out, "]}");
    Output::written(text, out)
}
