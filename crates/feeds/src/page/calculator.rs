//! The price calculator: the GET form (on `/` and `/quote`) and its answer page, built
//! per query from the same code path as `/track` and `dcx quote`
//! ([`datasets::Snapshot::quote`]), with the very messages `/track` gives for bad input
//! ([`crate::stone::parse`]) shown next to their fields. It renders a
//! [`Priced`](crate::tracked::Priced), the typed answer `/track`'s renderers share.

use datasets::History;
use maud::{Markup, html};
use pricing::{Clarity, Color, Quote, Shape, round_cents};

use super::{
    chart::{self, Measure, Point},
    layout::{self, Frame},
};
use crate::{
    check, query,
    stone::{self, Problem, Refusal},
    tracked::{self, Priced},
};

mod asking;
#[cfg(test)]
mod tests;

/// The form's fields as typed, to fill the form in again.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fields {
    pub(crate) shape: String,
    pub(crate) carat: String,
    pub(crate) color: String,
    pub(crate) clarity: String,
    pub(crate) ratio: String,
    /// The optional asking price (`/check`'s `asking_price_usd`).
    pub(crate) asking: String,
    /// The bad parameters, as `/track` reports them.
    pub(crate) problems: Vec<Problem>,
    /// How many more problems there were than `/track` lists.
    pub(crate) more_problems: usize,
}

impl Default for Fields {
    /// A one-carat G VS2 round: the stone people ask about most.
    fn default() -> Fields {
        Fields {
            shape: "round".to_owned(),
            carat: "1.00".to_owned(),
            color: "G".to_owned(),
            clarity: "VS2".to_owned(),
            ratio: String::new(),
            asking: String::new(),
            problems: Vec::new(),
            more_problems: 0,
        }
    }
}

/// The answer page's status and markup.
pub(crate) struct Answer {
    /// False when the query had bad parameters (answered `400`).
    pub(crate) ok: bool,
    pub(crate) markup: Markup,
}

/// Answers `/quote?<query>`: the form filled in again, then the stone's price now and over
/// the history, or the problems next to their fields.
pub(crate) fn answer(history: &History, frame: &Frame<'_>, query: &str) -> Answer {
    let pairs = query::pairs(query);
    if pairs.is_empty() {
        let content = html! {
            section.card id="calculator" { h2 { "Price a stone" } (form(&Fields::default(), history)) }
        };
        return Answer { ok: true, markup: layout::page(frame, "Price a stone · DCX", content) };
    }
    // Echoed into the form clipped (`words::clip`), as error messages quote values: a
    // refused page stays far under the 16 KiB error bound whatever the query holds.
    let typed = |name: &str| {
        pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| words::clip(v.trim()).into_owned())
            .unwrap_or_default()
    };
    let mut fields = Fields {
        shape: typed("shape"),
        carat: typed("carat"),
        color: typed("color"),
        clarity: typed("clarity"),
        ratio: typed("ratio"),
        asking: typed(check::ASKING),
        problems: Vec::new(),
        more_problems: 0,
    };
    // A field left empty is a parameter not given; the rest goes through `/track`'s checks.
    let mut given = form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs.iter().filter(|(name, _)| name != check::ASKING) {
        if !value.trim().is_empty() {
            given.append_pair(name, value.trim());
        }
    }
    let priced =
        asking::with_ask(tracked::price(history, &given.finish()), asking::read(&fields.asking));
    let (ok, result) = match priced {
        Ok((priced, ask)) => (true, priced_stone(history, &priced, ask)),
        Err(Refusal { problems, more }) => {
            fields.problems = problems;
            fields.more_problems = more;
            (false, html! {})
        }
    };
    // The answer first, where the eye lands after submitting; the form under it.
    let content = html! {
        (result)
        section.card id="calculator" {
            h2 { @if ok { "Price another stone" } @else { "Price a stone" } }
            (form(&fields, history))
        }
    };
    Answer { ok, markup: layout::page(frame, "Price a stone · DCX", content) }
}

/// The calculator form, filled with `fields` and their problems.
pub(crate) fn form(fields: &Fields, history: &History) -> Markup {
    let ratios = history.live().pricing().ratios();
    let general: Vec<&Problem> = fields
        .problems
        .iter()
        .filter(|p| {
            !stone::PARAMETERS.contains(&p.parameter.as_str()) && p.parameter != check::ASKING
        })
        .collect();
    html! {
        form.calculator method="get" action="/quote" novalidate {
            @if !general.is_empty() || fields.more_problems > 0 {
                ul.problems role="alert" {
                    @for p in general { li { (p.message) } }
                    @if fields.more_problems > 0 { li { "and " (fields.more_problems) " more problems" } }
                }
            }
            div.fields {
                (field(fields, "shape", "Shape", html! {
                    select id="shape" name="shape" {
                        @for &shape in Shape::ALL {
                            @let slider = ratios.get(shape).filter(|_| shape.is_fancy()).map(|m| m.slider());
                            option value=(shape.as_str())
                                selected[fields.shape.eq_ignore_ascii_case(shape.as_str())]
                                data-ratio-min=[slider.map(|s| s.min())]
                                data-ratio-center=[slider.map(|s| s.center())]
                                data-ratio-max=[slider.map(|s| s.max())] { (title_case(shape.as_str())) }
                        }
                    }
                }))
                (field(fields, "carat", "Carat", html! {
                    input id="carat" name="carat" type="text" inputmode="decimal" autocomplete="off"
                        value=(fields.carat) placeholder="1.00" aria-describedby="carat-help";
                    small.help id="carat-help" { "0.3 to 6.0" }
                }))
                (field(fields, "color", "Colour", html! {
                    select id="color" name="color" {
                        @for &color in Color::ALL {
                            option value=(color.as_str()) selected[fields.color.eq_ignore_ascii_case(color.as_str())] { (color.as_str()) }
                        }
                    }
                }))
                (field(fields, "clarity", "Clarity", html! {
                    select id="clarity" name="clarity" {
                        @for &clarity in Clarity::ALL {
                            option value=(clarity.as_str()) selected[fields.clarity.eq_ignore_ascii_case(clarity.as_str())] { (clarity.as_str()) }
                        }
                    }
                }))
                (field(fields, "ratio", "L/W ratio", html! {
                    input id="ratio" name="ratio" type="text" inputmode="decimal" autocomplete="off"
                        value=(fields.ratio) placeholder="shape's usual" aria-describedby="ratio-help";
                    small.help id="ratio-help" { "Fancy shapes only; empty for the usual ratio." }
                }))
                (field(fields, check::ASKING, "Asking price (USD)", html! {
                    input id=(check::ASKING) name=(check::ASKING) type="text" inputmode="decimal" autocomplete="off"
                        value=(fields.asking) placeholder="optional" aria-describedby="asking-help";
                    small.help id="asking-help" { "Optional: the total asked, to check it." }
                }))
            }
            button type="submit" { "Price it" }
        }
    }
}

/// One labelled field with its problems (message, then what is allowed) under it.
fn field(fields: &Fields, name: &str, label: &str, control: Markup) -> Markup {
    let problems: Vec<&Problem> = fields.problems.iter().filter(|p| p.parameter == name).collect();
    html! {
        div class={ "field" @if !problems.is_empty() { " invalid" } } {
            label for=(name) { (label) }
            (control)
            @for problem in problems {
                p.problem role="alert" id={ (name) "-problem" } {
                    (problem.message)
                    @if !problem.allowed.is_empty() { br; span.allowed { "Allowed: " (problem.allowed) } }
                }
            }
        }
    }
}

fn title_case(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The answer: the price now, then the stone over the days of its window.
fn priced_stone(history: &History, priced: &Priced, ask: Option<f64>) -> Markup {
    let quote = &priced.quote;
    let total = round_cents(quote.total_usd);
    let per_carat = round_cents(quote.per_carat_usd);
    let entries = &priced.tracked.entries;
    let points: Vec<Point> = entries
        .iter()
        .filter_map(|entry| Some(Point { date: entry.date, value: entry.priced()?.per_carat_usd }))
        .collect();
    let query = track_query(quote);
    html! {
        section.card.answer id="answer" aria-live="polite" {
            h2 { "Your stone" }
            p.stone { (stone_name(quote)) }
            div.figures {
                div.figure { span.label { "Per carat" } span.value data-per-carat-usd=(per_carat) { (words::usd(per_carat)) } }
                div.figure.total { span.label { "Total" } span.value data-total-usd=(total) { (words::usd(total)) } }
            }
            (asking::evidence(history.live(), quote, ask))
            p.note { (basis(history, quote)) }
            h3 { "This stone over " (entries.len()) " day" @if entries.len() != 1 { "s" } }
            @if points.len() > 1 {
                (chart::line(&points, Measure::PerCarat, "The stone's price per carat, by day"))
            }
            div.scroll {
                table.numbers.history {
                    thead { tr { th scope="col" { "Day" } th scope="col" { "Per carat" } th scope="col" { "Total" } } }
                    tbody {
                        @for entry in entries.iter().rev() {
                            tr {
                                th scope="row" { (entry.date.to_string()) }
                                @match &entry.price {
                                    Ok(price) => {
                                        td { (words::usd(price.per_carat_usd)) } td { (words::usd(price.total_usd)) }
                                    }
                                    Err(error) => td.error colspan="2" { (error) },
                                }
                            }
                        }
                    }
                }
            }
            p.note {
                "The same figures for programs: "
                a href={ "/track?" (query) } { "JSON" } ", "
                a href={ "/track?" (query) "&format=csv" } { "CSV" } "."
            }
        }
    }
}

/// `1.23 ct oval, G, VS2, L/W 1.40`.
fn stone_name(quote: &Quote) -> String {
    let mut name =
        format!("{} ct {}, {}, {}", quote.carat, quote.shape, quote.color, quote.clarity);
    if quote.shape.is_fancy() {
        name.push_str(&format!(", L/W {:.2}", quote.shape_ratio));
    }
    name
}

/// Where the price comes from, in one or two sentences.
fn basis(history: &History, quote: &Quote) -> String {
    let mut text = format!(
        "Asking price from the snapshot of {} ({} matrix)",
        history.live_date().format("%-d %B %Y"),
        match quote.base {
            pricing::BaseMatrix::Round => "round",
            pricing::BaseMatrix::Cushion => "cushion",
        }
    );
    if let Some(fancy) = quote.fancy {
        let adjustment = fancy.adjustment;
        text.push_str(&format!(
            ", times {:.3} for the L/W ratio {:.2}{}",
            adjustment.multiplier,
            quote.shape_ratio,
            if fancy.ratio_defaulted { " (the shape's usual ratio)" } else { "" }
        ));
        if adjustment.preference_driven {
            let (low, high) = adjustment.observed_range;
            text.push_str(&format!(
                ". Stones this long or short are rare: the price uses the nearest observed ratio ({low:.2} to {high:.2})"
            ));
        }
    }
    text.push('.');
    text
}

/// The `/track` query of a priced stone.
fn track_query(quote: &Quote) -> String {
    let (shape, color, clarity) = (quote.shape, quote.color, quote.clarity);
    let mut query = format!("shape={shape}&carat={}&color={color}&clarity={clarity}", quote.carat);
    if quote.shape.is_fancy() {
        query.push_str(&format!("&ratio={}", quote.shape_ratio));
    }
    query
}
