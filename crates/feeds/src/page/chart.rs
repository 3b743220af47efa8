//! Inline SVG line charts over dated values (the DCX history, one stone's price), with
//! dated and priced axes. No script needed: each point carries its own `<title>`.

use chrono::{Datelike, NaiveDate};
use maud::{Markup, html};

#[cfg(test)]
mod tests;

/// The drawing box, in SVG user units; the SVG scales to its container.
const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 92.0;
const RIGHT: f64 = 18.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 40.0;
/// At most this many dated ticks on the x axis.
const MAX_DATE_TICKS: usize = 6;

/// What a plotted value is, which names the data attribute each point carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Measure {
    /// The DCX: points carry `data-dcx`.
    Dcx,
    /// A stone's price per carat: points carry `data-per-carat-usd`.
    PerCarat,
}

/// One plotted day: its date, its value, and the value's text as published.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Point {
    pub(crate) date: NaiveDate,
    pub(crate) value: f64,
}

/// A line chart of `points` (oldest first), labelled `title` for screen readers.
pub(crate) fn line(points: &[Point], measure: Measure, title: &str) -> Markup {
    let Some(frame) = Frame::new(points) else {
        return html! { p.empty { "No days to plot." } };
    };
    let ticks = frame.value_ticks();
    let coords: Vec<(f64, f64)> = points.iter().map(|p| frame.at(p)).collect();
    let path = polyline(&coords);
    let area = match (coords.first(), coords.last()) {
        (Some(first), Some(last)) if coords.len() > 1 => {
            let base = HEIGHT - BOTTOM;
            format!("{path} L{:.1},{base:.1} L{:.1},{base:.1} Z", last.0, first.0)
        }
        _ => String::new(),
    };
    html! {
        svg.chart viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img" aria-label=(title)
            xmlns="http://www.w3.org/2000/svg" {
            title { (title) }
            g.grid {
                @for tick in &ticks {
                    @let y = frame.y(*tick);
                    line x1=(LEFT) x2=(WIDTH - RIGHT) y1=(y) y2=(y) {}
                    text.axis x=(LEFT - 10.0) y=(y + 5.0) text-anchor="end" { (words::usd_whole(*tick)) }
                }
            }
            g.dates {
                @let ticks = date_ticks(points);
                @for (i, point) in ticks.iter().enumerate() {
                    @let (x, _) = frame.at(point);
                    @let anchor = anchor(x);
                    // Narrow screens show the first, middle and last dates only.
                    @let minor = i != 0 && i + 1 != ticks.len() && i != ticks.len() / 2;
                    g class=[minor.then_some("minor")] {
                        line x1=(x) x2=(x) y1=(HEIGHT - BOTTOM) y2=(HEIGHT - BOTTOM + 5.0) {}
                        text.axis x=(x) y=(HEIGHT - 8.0) text-anchor=(anchor) { (date_label(point.date, i == 0)) }
                    }
                }
            }
            @if !area.is_empty() {
                path.area d=(area) {}
                path.line d=(path) {}
            }
            g.points {
                @for (point, (x, y)) in points.iter().zip(&coords) {
                    @let label = format!("{}: {}", point.date, words::usd(point.value));
                    @let value = |wanted| (measure == wanted).then_some(point.value);
                    circle.point cx=(round1(*x)) cy=(round1(*y)) r="3.5" data-date=(point.date)
                        data-dcx=[value(Measure::Dcx)] data-per-carat-usd=[value(Measure::PerCarat)] { title { (label) } }
                }
            }
        }
    }
}

/// The plot's scales: dates to x, values to y.
struct Frame {
    first: NaiveDate,
    span_days: f64,
    low: f64,
    high: f64,
}

impl Frame {
    fn new(points: &[Point]) -> Option<Frame> {
        let first = points.first()?.date;
        let last = points.last()?.date;
        let values = points.iter().map(|p| p.value).filter(|v| v.is_finite());
        let (min, max) =
            values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if !min.is_finite() {
            return None;
        }
        // Some air above and below; a flat line gets a band of ±1 % around it.
        let pad = ((max - min) * 0.12).max(max.abs() * 0.01).max(1.0);
        let (low, high) = nice_bounds(min - pad, max + pad);
        let span_days = (last - first).num_days() as f64;
        Some(Frame { first, span_days, low, high })
    }

    fn at(&self, point: &Point) -> (f64, f64) {
        let inner = WIDTH - LEFT - RIGHT;
        let x = match self.span_days {
            0.0 => LEFT + inner / 2.0,
            span => LEFT + inner * (point.date - self.first).num_days() as f64 / span,
        };
        (x, self.y(point.value))
    }

    fn y(&self, value: f64) -> f64 {
        let inner = HEIGHT - TOP - BOTTOM;
        round1(TOP + inner * (self.high - value) / (self.high - self.low))
    }

    /// Evenly spaced round values from `low` to `high`.
    fn value_ticks(&self) -> Vec<f64> {
        let step = nice_step(self.high - self.low);
        let mut ticks = Vec::new();
        let mut tick = (self.low / step).ceil() * step;
        while tick <= self.high + step * 1e-9 {
            ticks.push(tick);
            tick += step;
        }
        ticks
    }
}

/// A round step that cuts `span` into about four parts: 1, 2, 2.5 or 5 times a power of 10.
fn nice_step(span: f64) -> f64 {
    let rough = span / 4.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| *step >= rough)
        .unwrap_or(10.0 * power);
    step.max(0.01)
}

/// `low` and `high` widened to multiples of their nice step.
fn nice_bounds(low: f64, high: f64) -> (f64, f64) {
    let step = nice_step(high - low);
    ((low / step).floor() * step, (high / step).ceil() * step)
}

/// At most [`MAX_DATE_TICKS`] points, spread over the range, first and last included.
fn date_ticks(points: &[Point]) -> Vec<Point> {
    let n = points.len();
    if n <= MAX_DATE_TICKS {
        return points.to_vec();
    }
    let last = n - 1;
    let mut picks: Vec<usize> =
        (0..MAX_DATE_TICKS).map(|i| i * last / (MAX_DATE_TICKS - 1)).collect();
    picks.dedup();
    picks.into_iter().map(|i| points[i].clone()).collect()
}

/// `10 Nov`, with the year on the first tick and on every January.
fn date_label(date: NaiveDate, first: bool) -> String {
    let month = date.format("%b");
    match first || date.month() == 1 {
        true => format!("{} {month} {}", date.day(), date.year()),
        false => format!("{} {month}", date.day()),
    }
}

/// Labels near an edge hang inwards, so they are not cut off.
fn anchor(x: f64) -> &'static str {
    if x < LEFT + 40.0 {
        "start"
    } else if x > WIDTH - RIGHT - 40.0 {
        "end"
    } else {
        "middle"
    }
}

/// `M x,y L x,y …`: the line through `coords` (one at least).
fn polyline(coords: &[(f64, f64)]) -> String {
    let points: Vec<String> = coords.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    format!("M{}", points.join(" L"))
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
