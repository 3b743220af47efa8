//! Tests of `get_market_depth`.

use std::sync::Arc;

use datasets::Snapshot;
use jsonrpc::Object;
use serde_json::{Value, json};

use crate::{
    depth::{availability, market_depth, top_combinations},
    price::Answered,
};

fn call(args: Value) -> Result<Value, String> {
    let args = Object::from(args.as_object().unwrap().clone());
    market_depth(&Arc::new(Snapshot::reference()), &args)
        .map(|o| o.structured_value())
        .map_err(|e| e.to_string())
}

#[test]
fn availability_labels_follow_the_thresholds() {
    let labels: Vec<_> = [0, 1, 9, 10, 100, 101].into_iter().map(availability).collect();
    assert_eq!(labels, ["none", "limited", "limited", "available", "available", "strong"]);
}

#[test]
fn nearest_point_is_used_and_reported() {
    let s = call(json!({"carat": 1.04})).unwrap();
    assert_eq!(s["mode"], "carat");
    assert_eq!(s["carat"], 1.04);
    assert_eq!(s["carat_key"], "1.0");
    let by_clarity: u64 =
        s["by_clarity"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(s["comparable_offer_count"], by_clarity);
    assert_eq!(s["available_carats"], Value::Null);
}

#[test]
fn overview_lists_points_and_ten_top_pairs_in_order() {
    let s = call(json!({})).unwrap();
    assert_eq!(s["mode"], "overview");
    let carats: Vec<f64> =
        s["available_carats"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!(carats.windows(2).all(|w| w[0] < w[1]), "{carats:?}");
    let top = s["top_combinations"].as_array().unwrap();
    assert_eq!(top.len(), 10);
    let counts: Vec<u64> = top.iter().map(|t| t["observed_offers"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    let depth = Snapshot::reference().depth().clone();
    assert_eq!(top_combinations(&depth).len(), 10);
}

#[test]
fn bad_carats_are_tool_errors() {
    assert_eq!(
        call(json!({"carat": 0.2})).unwrap_err(),
        "carat must be between 0.3 and 6, got 0.2"
    );
    assert_eq!(
        call(json!({"carat": "1"})).unwrap_err(),
        r#"carat must be a number of carats from 0.3 to 6, got the string "1""#
    );
    assert_eq!(
        call(json!({"size": 1, "carat": 9})).unwrap_err(),
        r#"unknown argument "size"; allowed arguments: carat; carat must be between 0.3 and 6, got 9"#
    );
}

#[test]
fn the_text_lists_grades_best_first_whatever_the_feed_order() {
    let args = Object::from(json!({"carat": 1.0}).as_object().unwrap().clone());
    let text = market_depth(&Arc::new(Snapshot::reference()), &args).unwrap().text();
    let line = |prefix: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(prefix)).expect(prefix);
        line[prefix.len()..].split(", ").map(|p| p.split(' ').next().unwrap().to_owned()).collect()
    };
    assert_eq!(line("By colour: "), ["D", "E", "F", "G", "H", "I", "J", "K", "L", "M"]);
    // The reference feed lists clarities alphabetically (FL, IF, SI1, …).
    assert_eq!(line("By clarity: "), ["FL", "IF", "VVS1", "VVS2", "VS1", "VS2", "SI1", "SI2"]);
}

#[test]
fn every_argument_is_kept_when_a_request_is_read() {
    // A name the filter does not keep would reach this tool as unknown.
    for name in crate::depth::ARGUMENTS {
        assert!(crate::args::ARGUMENT_FILTER.names.contains(name), "{name}");
    }
}

/// Both answers are the bytes `format!` and serde_json write, for the reference feed, a
/// point listing a grade twice (serde_json's map keeps the last count) and no point at all.
#[test]
fn text_and_json_are_the_bytes_of_format_and_serde_json() {
    use datasets::Depth;
    use pricing::{Clarity, Color};
    use serde_json::Map;

    use crate::depth::{at_carat, overview};

    fn in_grade_order<G: Ord + std::fmt::Display>(counts: &[(G, u64)]) -> String {
        let mut sorted: Vec<&(G, u64)> = counts.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        sorted.iter().map(|(grade, n)| format!("{grade} {n}")).collect::<Vec<_>>().join(", ")
    }

    let reference = Snapshot::reference().depth().clone();
    let mut repeated = reference.clone();
    repeated.points[0].color.push((Color::D, 7));
    repeated.points[0].clarity.insert(0, (Clarity::Vs2, 3));
    let empty = Depth { points: Vec::new(), colclar: Vec::new(), ts: reference.ts };
    for depth in [&reference, &repeated, &empty] {
        let as_of = "2026-11-20T00:00:00Z";
        for carat in [0.3, 1.04, 6.0] {
            let out = at_carat(depth, carat, as_of);
            let point = depth.nearest(carat);
            let counts = |pairs: Option<Map<String, Value>>| pairs.unwrap_or_default();
            let by_color =
                counts(point.map(|p| {
                    p.color.iter().map(|(g, n)| (g.as_str().to_owned(), json!(n))).collect()
                }));
            let by_clarity = counts(point.map(|p| {
                p.clarity.iter().map(|(g, n)| (g.as_str().to_owned(), json!(n))).collect()
            }));
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
            assert_eq!(out.text(), lines.join("\n"));
            let expected = json!({
                "mode": "carat", "carat": carat, "carat_key": key, "by_color": by_color,
                "by_clarity": by_clarity, "comparable_offer_count": total, "availability": label,
                "available_carats": null, "top_combinations": null, "as_of": as_of,
            });
            assert_eq!(out.structured, serde_json::to_vec(&expected).unwrap());
        }
        let out = overview(depth, as_of);
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
        assert_eq!(out.text(), lines.join("\n"));
        let expected = json!({
            "mode": "overview", "carat": null, "carat_key": null, "by_color": null,
            "by_clarity": null, "comparable_offer_count": null, "availability": null,
            "available_carats": depth.points.iter().map(|p| p.carat).collect::<Vec<_>>(),
            "top_combinations": top.iter().map(|(color, clarity, n)| json!({
                "color": color.as_str(), "clarity": clarity.as_str(), "observed_offers": n,
            })).collect::<Vec<_>>(),
            "as_of": as_of,
        });
        assert_eq!(out.structured, serde_json::to_vec(&expected).unwrap());
    }
}

/// Whatever a thread keeps, a snapshot gets the overview a fresh build for it writes, in
/// any order of two snapshots; a carat is answered for itself (that it is built only
/// once is `memo`'s test).
#[test]
fn a_kept_overview_is_always_the_one_of_its_snapshot() {
    let files = datasets::reference::generate_variant("2026-11-21T00:00:00Z", 1.1);
    let snapshots = [Arc::new(Snapshot::reference()), Arc::new(Snapshot::parse(files).unwrap())];
    let fresh = snapshots
        .each_ref()
        .map(|snapshot| crate::depth::overview(snapshot.depth(), snapshot.ts_text()));
    assert_ne!(fresh[0], fresh[1], "the two days need different answers");
    let none = Object::default();
    let carat = Object::from(json!({"carat": 1.5}).as_object().unwrap().clone());
    for _ in 0..2 {
        for (snapshot, fresh) in snapshots.iter().zip(&fresh) {
            let first = market_depth(snapshot, &none).unwrap();
            assert_eq!(&*first, fresh);
            assert_ne!(&*market_depth(snapshot, &carat).unwrap(), fresh);
            let again = market_depth(snapshot, &none).unwrap();
            let (Answered::Kept(first), Answered::Kept(again)) = (first, again) else {
                panic!("the overview is kept")
            };
            assert!(Arc::ptr_eq(&first, &again), "shared, not copied");
        }
    }
}
