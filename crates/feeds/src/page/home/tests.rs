//! Unit tests of the home page: the chart has every day, the matrix every band.

use datasets::{History, Snapshot};
use test_support::TempDir;

use super::*;

fn frame(sample: bool) -> Frame<'static> {
    Frame { name: "feed-server", version: "9.9.9", ts: "2026-11-20T00:00:00Z", sample }
}

fn temp_history(name: &str, levels: &[(&str, f64)]) -> History {
    let dir = TempDir::new(name);
    for (date, level) in levels {
        let files = datasets::reference::generate_variant(&format!("{date}T00:00:00Z"), *level);
        datasets::fs::write_dir_atomic(&dir.0.join(date), &files, true).unwrap();
    }
    History::load(&dir.0).unwrap().0
}

#[test]
fn the_chart_plots_every_day_with_its_published_dcx() {
    let history = temp_history(
        "home-chart",
        &[("2026-11-18", 1.0), ("2026-11-19", 1.02), ("2026-11-20", 0.99)],
    );
    let html = page(&history, &frame(false), &[]).into_string();
    for day in history.days() {
        let point = format!(r#"data-date="{}" data-dcx="{}""#, day.date, day.dcx());
        assert!(html.contains(&point), "{point}");
    }
    assert_eq!(html.matches("<circle").count(), 3);
    assert!(html.contains("The DCX over 3 days"));
    assert!(!html.contains("Sample data."));
}

#[test]
fn every_band_has_a_table_and_the_one_carat_band_shows_first() {
    let history = History::single(Snapshot::reference());
    let html = page(&history, &frame(true), &[]).into_string();
    for band in history.live().pricing().round().bands() {
        let key = format::carat(*band);
        assert!(html.contains(&format!(r##"href="#band-{key}""##)), "{key}");
    }
    assert_eq!(html.matches(r#"class="band default" id="band-1.0""#).count(), 1);
    assert!(html.contains("Sample data."));
    // The one-carat G VS2 price of the matrix, in whole dollars.
    let round = history.live().pricing().round();
    let band = round.bands().iter().position(|b| *b == 1.0).unwrap();
    let usd = round.ln_at_band(band, Color::G, Clarity::Vs2).exp();
    assert!(html.contains(&words::usd_whole(usd)));
}

#[test]
fn changes_follow_the_tool_rules() {
    let history = History::single(Snapshot::reference());
    let [day, week, month] = changes(&history);
    assert_eq!(day, ("24 h", Ok(history.live().index().trend)));
    assert!(week.1.is_err() && month.1.is_err());
}
