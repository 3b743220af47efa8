//! `get_market_depth`: observed-offer counts at the nearest carat point, or an overview.

use datasets::{Depth, Snapshot};
use jsonrpc::Object;
use pricing::Carat;
use serde_json::{Map, Value, json};

use crate::{
    args::{ArgumentErrors, Arguments},
    price::Output,
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

/// Runs `get_market_depth`.
pub(crate) fn market_depth(
    snapshot: &Snapshot,
    arguments: &Object<'_>,
) -> Result<Output, ArgumentErrors> {
    let mut args = Arguments::new(arguments, ARGUMENTS);
    // The quote rules' carat rule: the same range and words as `get_diamond_price`.
    let carat = Carat::from_given(args.number("carat"))
        .map_err(|problem| args.refuse("carat", problem))
        .ok();
    args.finish()?;
    let depth = snapshot.depth();
    let as_of = snapshot.ts_text();
    match carat.flatten() {
        Some(carat) => Ok(at_carat(depth, carat.get(), as_of)),
        None => Ok(overview(depth, as_of)),
    }
}

fn at_carat(depth: &Depth, carat: f64, as_of: &str) -> Output {
    // A valid depth feed has at least one point; an empty one reports nothing observed.
    let point = depth.nearest(carat);
    let by_color: Map<String, Value> = point
        .map(|p| p.color.iter().map(|(g, n)| (g.as_str().to_owned(), json!(n))).collect())
        .unwrap_or_default();
    let by_clarity: Map<String, Value> = point
        .map(|p| p.clarity.iter().map(|(g, n)| (g.as_str().to_owned(), json!(n))).collect())
        .unwrap_or_default();
    let total = point.map_or(0, |p| p.total());
    let label = availability(total);
    let key = point.map(|p| p.key.clone());
    let mut lines = vec![format!(
        "Market depth near {carat} ct (carat point {}): {total} comparable observed offers, availability {label}.",
        key.as_deref().unwrap_or("none")
    )];
    if let Some(p) = point {
        lines.push(format!("By colour: {}", in_grade_order(&p.color)));
        lines.push(format!("By clarity: {}", in_grade_order(&p.clarity)));
    }
    lines.push(format!("Data as of {as_of}."));
    let structured = json!({
        "mode": "carat",
        "carat": carat,
        "carat_key": key,
        "by_color": by_color,
        "by_clarity": by_clarity,
        "comparable_offer_count": total,
        "availability": label,
        "available_carats": null,
        "top_combinations": null,
        "as_of": as_of,
    });
    Output::new(lines.join("\n"), &structured)
}

/// `counts` as `D 27, E 49, …`, best grade first whatever the feed's order (feeds may list
/// clarities alphabetically: `FL, IF, SI1, …`).
fn in_grade_order<G: Ord + std::fmt::Display>(counts: &[(G, u64)]) -> String {
    // Grades order best first.
    let mut sorted: Vec<&(G, u64)> = counts.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let pairs: Vec<String> = sorted.iter().map(|(grade, n)| format!("{grade} {n}")).collect();
    pairs.join(", ")
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
    let carats: Vec<f64> = depth.points.iter().map(|p| p.carat).collect();
    let top = top_combinations(depth);
    let mut lines = vec![format!(
        "Carat points with observed offers: {}",
        depth.points.iter().map(|p| p.key.as_str()).collect::<Vec<_>>().join(", ")
    )];
    lines.push(format!("Top {} colour/clarity combinations by observed offers:", top.len()));
    for (color, clarity, n) in &top {
        lines.push(format!("  {color} {clarity}: {n}"));
    }
    lines.push(format!("Data as of {as_of}."));
    let structured = json!({
        "mode": "overview",
        "carat": null,
        "carat_key": null,
        "by_color": null,
        "by_clarity": null,
        "comparable_offer_count": null,
        "availability": null,
        "available_carats": carats,
        "top_combinations": top.iter().map(|(color, clarity, n)| json!({
            "color": color.as_str(), "clarity": clarity.as_str(), "observed_offers": n,
        })).collect::<Vec<_>>(),
        "as_of": as_of,
    });
    Output::new(lines.join("\n"), &structured)
}
