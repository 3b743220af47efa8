//! Unit tests of the chart scales and markup.

use super::*;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

fn points(values: &[f64]) -> Vec<Point> {
    values.iter().enumerate().map(|(i, &value)| Point { date: day(i as u32 + 1), value }).collect()
}

#[test]
fn one_point_per_day_with_its_value() {
    let svg = line(&points(&[4926.91, 4947.44, 4924.26]), Measure::Dcx, "DCX").into_string();
    assert_eq!(svg.matches("<circle").count(), 3);
    assert!(svg.contains(r#"data-date="2026-11-02" data-dcx="4947.44""#), "{svg}");
    assert!(svg.contains("<title>2026-11-03: $4,924.26</title>"));
    assert!(svg.contains(r#"class="line""#));
}

#[test]
fn a_single_day_is_one_centred_point_without_a_line() {
    let svg = line(&points(&[4016.38]), Measure::PerCarat, "price").into_string();
    assert!(!svg.contains("minor"));
    assert_eq!(svg.matches("<circle").count(), 1);
    assert!(svg.contains(&format!("cx=\"{}\"", LEFT + (WIDTH - LEFT - RIGHT) / 2.0)), "{svg}");
    assert!(svg.contains(r#"data-per-carat-usd="4016.38""#));
    assert!(!svg.contains(r#"class="line""#));
}

#[test]
fn no_points_no_chart() {
    assert!(!line(&[], Measure::Dcx, "DCX").into_string().contains("<svg"));
}

#[test]
fn ticks_are_round_and_cover_the_values() {
    for (low, high) in [(4900.0, 5000.0), (0.5, 0.9), (100.0, 100_000.0), (4016.0, 4016.0)] {
        let frame = Frame::new(&points(&[low, high])).unwrap();
        assert!(frame.low <= low && frame.high >= high, "{low} {high}");
        let ticks = frame.value_ticks();
        assert!((3..=9).contains(&ticks.len()), "{ticks:?}");
        let step = ticks[1] - ticks[0];
        assert!(ticks.windows(2).all(|w| ((w[1] - w[0]) - step).abs() < 1e-6), "{ticks:?}");
    }
}

#[test]
fn dates_are_spread_and_keep_both_ends() {
    let many = points(&[1.0; 20]);
    let ticks = date_ticks(&many);
    assert_eq!(ticks.len(), MAX_DATE_TICKS);
    assert_eq!(ticks[0].date, day(1));
    assert_eq!(ticks[MAX_DATE_TICKS - 1].date, day(20));
    assert_eq!(date_label(day(5), true), "5 Nov 2026");
    assert_eq!(date_label(day(5), false), "5 Nov");
}
