//! `/` for browsers: the DCX now and over the history, the calculator, the basket, the
//! price matrix in dollars per carat, the depth heatmap and every link. Built once per
//! history.

use datasets::{History, Trend};
use maud::{Markup, html};
use pricing::{Clarity, Color, PriceMatrix};

use super::{
    Document, calculator,
    chart::{self, Measure, Point},
    format,
    layout::{self, Frame},
};
use crate::Route;

#[cfg(test)]
mod tests;

/// The band the matrix shows first: the one-carat band.
const DEFAULT_BAND: &str = "1.0";
/// Steps of the colour scales (classes `s0` to `s7`).
const SCALE_STEPS: f64 = 8.0;

/// One feed as linked from the page.
#[derive(Debug, Clone)]
pub(crate) struct FeedLink {
    pub(crate) route: Route,
    pub(crate) bytes: usize,
}

/// The home page of `history`.
pub(crate) fn page(history: &History, frame: &Frame<'_>, feeds: &[FeedLink]) -> Markup {
    let content = html! {
        (hero(history))
        section.card id="chart" {
            @let days = history.days().len();
            h2 { "The DCX over " (days) " day" @if days != 1 { "s" } }
            (chart::line(&dcx_points(history), Measure::Dcx, "DCX per carat, by day"))
            p.note {
                "One point per published day. The DCX is the weighted geometric mean of the asking \
                 price per carat of the basket below. "
                a href=(Document::HistoryCsv.path()) { "Download the history (CSV)" }
            }
        }
        section.card id="calculator" {
            h2 { "Price a stone" }
            (calculator::form(&calculator::Fields::default(), history))
        }
        (basket(history))
        (matrix(history.live().pricing().round()))
        (depth(history))
        (links(feeds))
    };
    layout::page(frame, "DCX: the diamond price index", content)
}

/// Every day's DCX as published in its `index.json`, oldest first.
pub(crate) fn dcx_points(history: &History) -> Vec<Point> {
    history.days().iter().map(|day| Point { date: day.date, value: day.dcx() }).collect()
}

/// The 24 h change as published; 7 and 30 days from the history, else as published.
fn changes(history: &History) -> [(&'static str, Result<f64, String>); 3] {
    let index = history.live().index();
    let over = |days: u64, published: Option<f64>| match history.trend(days) {
        Trend::Available { percent, .. } => Ok(percent),
        Trend::Unavailable { reason } => published.ok_or(reason),
    };
    [
        ("24 h", Ok(index.trend)),
        ("7 d", over(7, index.trend_7d)),
        ("30 d", over(30, index.trend_30d)),
    ]
}

fn hero(history: &History) -> Markup {
    let index = history.live().index();
    html! {
        section.hero id="dcx" {
            div {
                p.kicker { "DCX · " (history.live_date().format("%-d %B %Y")) }
                p.big { span data-live-dcx=(index.dcx) { (words::usd(index.dcx)) } " " span.unit { "per carat" } }
            }
            ul.changes {
                @for (label, change) in changes(history) {
                    li {
                        span.label { (label) }
                        @match change {
                            Ok(percent) => span class={ "change " (format::direction(percent)) } { (format::percent(percent)) },
                            Err(reason) => span.change.none title=(reason) { "n/a" },
                        }
                    }
                }
            }
        }
    }
}

fn basket(history: &History) -> Markup {
    let index = history.live().index();
    html! {
        section.card id="basket" {
            h2 { "The basket" }
            div.scroll {
                table.numbers {
                    thead { tr { th { "Stone" } th { "Weight" } th { "Per carat" } th { "Price" } } }
                    tbody {
                        @for spec in &index.specs {
                            tr {
                                th scope="row" {
                                    (format!("{:.2}", spec.carat)) " ct " (spec.color.as_str()) " "
                                    (spec.clarity.as_str()) " " span.muted { (spec.cut) }
                                }
                                td { (format!("{:.0}%", spec.weight * 100.0)) }
                                td { (words::usd(spec.per_carat)) }
                                td { (words::usd(spec.price)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The round matrix in dollars per carat, one table per carat band; plain links switch
/// bands (`:target`), the one-carat band shows first.
fn matrix(round: &PriceMatrix) -> Markup {
    let bands: Vec<(usize, String)> =
        round.bands().iter().enumerate().map(|(i, &band)| (i, format::carat(band))).collect();
    // The default band comes last, so that `:target ~ .default` can hide it.
    let mut ordered: Vec<&(usize, String)> = bands.iter().collect();
    ordered.sort_by_key(|(_, key)| key == DEFAULT_BAND);
    html! {
        section.card id="prices" {
            h2 { "Round prices, dollars per carat" }
            p.note { "Asking price per carat by colour and clarity at each carat band, rounded to the dollar. \
                     Darker cells cost more. Choose a band:" }
            nav.bands aria-label="Carat bands" {
                @for (_, key) in &bands { a href={ "#band-" (key) } { (key) " ct" } }
            }
            div.band-tables {
                @for (i, key) in ordered {
                    div class={ "band" @if key == DEFAULT_BAND { " default" } } id={ "band-" (key) } {
                        h3 { (key) " ct" }
                        (grade_table(round.colors(), round.clarities(), |color, clarity| {
                            round.ln_at_band(*i, color, clarity).exp()
                        }, words::usd_whole))
                    }
                }
            }
            p.note {
                "Download every band: "
                a href=(Document::MatrixCsv.path()) { "round (CSV)" } ", "
                a href=(Document::MatrixCushionCsv.path()) { "cushion (CSV)" } "."
            }
        }
    }
}

/// A colour × clarity table of `value`, each cell shaded by its place between the
/// table's smallest and largest value (on a log scale).
fn grade_table(
    colors: &[Color],
    clarities: &[Clarity],
    value: impl Fn(Color, Clarity) -> f64,
    show: fn(f64) -> String,
) -> Markup {
    let values: Vec<f64> = colors
        .iter()
        .flat_map(|&c| clarities.iter().map(move |&k| (c, k)))
        .map(|(c, k)| value(c, k))
        .collect();
    let (low, high) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let step = |v: f64| -> u32 {
        let (a, b, v) = ((low + 1.0).ln(), (high + 1.0).ln(), (v + 1.0).ln());
        if b > a { (((v - a) / (b - a)) * (SCALE_STEPS - 1.0)).round() as u32 } else { 0 }
    };
    html! {
        div.scroll {
            table.grid.numbers {
                thead { tr { th scope="col" { abbr title="colour" { "Col." } } @for k in clarities { th scope="col" { (k.as_str()) } } } }
                tbody {
                    @for &c in colors {
                        tr {
                            th scope="row" { (c.as_str()) }
                            @for &k in clarities {
                                @let v = value(c, k);
                                td class={ "s" (step(v)) } { (show(v)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn depth(history: &History) -> Markup {
    let depth = history.live().depth();
    let count = |c: Color, k: Clarity| {
        depth
            .colclar
            .iter()
            .find(|(color, clarity, _)| *color == c && *clarity == k)
            .map_or(0.0, |(_, _, n)| *n as f64)
    };
    html! {
        section.card id="depth" {
            h2 { "Market depth" }
            p.note { "How many listings the snapshot saw for each colour and clarity, all carats together. \
                     Thin cells mean a price rests on few stones." }
            (grade_table(Color::ALL, Clarity::ALL, count, |n| words::grouped(n as u64)))
            h3 { "Listings by carat" }
            div.scroll {
                table.numbers {
                    thead { tr { th scope="col" { "Carat" } @for point in &depth.points { th scope="col" { (point.key) } } } }
                    tbody { tr { th scope="row" { "Listings" } @for point in &depth.points { td { (words::grouped(point.total())) } } } }
                }
            }
        }
    }
}

/// Whether the page offers a download: the spread's CSV only when the day has the file.
fn offered(document: Document, feeds: &[FeedLink]) -> bool {
    document != Document::MatrixStatsCsv
        || feeds.iter().any(|feed| feed.route == Route::Document(Document::MatrixStatsJson))
}

fn links(feeds: &[FeedLink]) -> Markup {
    let example = "/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4";
    html! {
        section.card id="data" {
            h2 { "Data & API" }
            p.note { "Everything on this page comes from these files. They are free to use, \
                     need no key and answer conditional requests (ETag, Last-Modified) and gzip." }
            div.scroll {
                table.links {
                    thead { tr { th { "Feed" } th { "Contents" } th.num { "Size" } } }
                    tbody {
                        @for feed in feeds {
                            tr {
                                td { a href=(feed.route.path()) { code { (feed.route.path()) } } }
                                td { (feed.route.description()) }
                                td.num { (format!("{:.1} kB", feed.bytes as f64 / 1000.0)) }
                            }
                        }
                    }
                }
            }
            h3 { "Downloads" }
            ul.downloads {
                @for document in Document::DOWNLOADS.into_iter().filter(|&d| offered(d, feeds)) {
                    li { a href=(document.path()) { code { (document.path()) } } " " span.muted { (document.description()) } }
                }
                li { a href={ (example) "&format=csv" } { code { "/track?…&format=csv" } } " "
                     span.muted { "one stone over every day, as CSV" } }
            }
            h3 { "For programs" }
            ul.downloads {
                li { a href=(Document::OpenApi.path()) { code { (Document::OpenApi.path()) } } " "
                     span.muted { (Document::OpenApi.description()) } }
                li { a href=(example) { code { "/track?…" } } " " span.muted { (Route::Track.description()) } }
                li { a href=(Route::Health.path()) { code { (Route::Health.path()) } } " "
                     span.muted { (Route::Health.description()) } }
                li { code { "/" } " " span.muted { "this page; programs that do not ask for HTML get a JSON index" } }
            }
        }
    }
}
