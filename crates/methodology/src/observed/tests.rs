//! Tests of `observed`: the `observed.json` round trip, what it refuses, and which days
//! a build reads.

use datasets::{History, Snapshot, reference};
use pricing::{Clarity, Color};

use super::{Family, days_wanted, parse, parse_all, to_bytes};
use crate::{
    BuildOptions,
    cells::{Cells, Provenance},
    scope::cell_index,
    tests::day,
};

#[test]
fn observed_cells_round_trip_and_nothing_else_is_written() {
    let mut round = Cells::empty();
    let observed = cell_index(5, Color::G, Clarity::Vs2);
    let thin = cell_index(0, Color::D, Clarity::Fl);
    for (cell, provenance, listings) in [
        (observed, Provenance::Observed, 12),
        (thin, Provenance::Thin, 1),
        (cell_index(1, Color::E, Clarity::If), Provenance::Modelled, 0),
        (cell_index(2, Color::E, Clarity::If), Provenance::LookedBack, 0),
        (cell_index(9, Color::E, Clarity::If), Provenance::Carried, 0),
    ] {
        round.ln[cell] = 8.25;
        round.ask[cell] = Some(8.25f64.exp());
        round.provenance[cell] = Some(provenance);
        round.listings[cell] = listings;
    }
    round.screened[observed] = 2;
    let mut cushion = Cells::empty();
    cushion.provenance = vec![Some(Provenance::Derived); cushion.ln.len()];
    let bytes = to_bytes(day(20), &round, &cushion);
    let text = String::from_utf8(bytes.clone()).expect("utf-8");
    assert!(text.starts_with(r#"{"date":"2026-11-20","round":[{"band":"0.3","color":"D","clarity":"FL","ln":8.25,"listings":1,"thin":true},"#), "{text}");
    let kept = r#"{"band":"1.0","color":"G","clarity":"VS2","ln":8.25,"listings":10,"thin":false}"#;
    assert!(text.contains(kept), "{text}");
    assert!(text.ends_with("\"cushion\":[]}\n"), "{text}");
    let parsed = parse(day(20), &bytes).expect("parses");
    let cells = parsed.cells(Family::Round);
    assert_eq!(cells.iter().filter(|c| c.is_some()).count(), 2);
    assert_eq!((cells[observed], cells[thin]), (Some(8.25), Some(8.25)));
    assert!(parsed.cells(Family::Cushion).iter().all(Option::is_none));
}

#[test]
fn a_bad_file_is_refused_with_the_reason() {
    let entry = |band: &str, color: &str, clarity: &str, ln: f64, listings: u32| {
        format!(
            r#"{{"date":"2026-11-20","round":[{{"band":"{band}","color":"{color}","clarity":"{clarity}","ln":{ln},"listings":{listings},"thin":false}}],"cushion":[]}}"#
        )
    };
    let cases = [
        ("{".to_owned(), "not readable"),
        (
            entry("1.0", "G", "VS2", 8.0, 3).replace("2026-11-20", "2026-11-19"),
            "it is dated 2026-11-19, not 2026-11-20",
        ),
        (entry("1.1", "G", "VS2", 8.0, 3), "round 1.1 G VS2: no such band"),
        (entry("1.0", "G+", "VS2", 8.0, 3), "round 1.0 G+ VS2:"),
        (entry("1.0", "G", "VS9", 8.0, 3), "round 1.0 G VS9:"),
        (entry("1.0", "G", "VS2", 40.0, 3), "is not a per-carat ask within"),
        (entry("1.0", "G", "VS2", 8.0, 0), "needs at least one listing"),
    ];
    for (text, why) in cases {
        let err = parse(day(20), text.as_bytes()).expect_err(&text);
        assert!(err.contains(why), "{text}: {err}");
    }
    let twice = entry("1.0", "G", "VS2", 8.0, 3).replace("}],", "},{\"band\":\"1.0\",\"color\":\"G\",\"clarity\":\"VS2\",\"ln\":8.0,\"listings\":3,\"thin\":false}],");
    assert!(parse(day(20), twice.as_bytes()).expect_err("twice").contains("listed twice"));
}

#[test]
fn unreadable_files_are_noted_and_later_days_ignored() {
    let good = to_bytes(day(19), &Cells::empty(), &Cells::empty());
    let mut options = BuildOptions::new(day(21));
    options.observed = vec![
        (day(19), good.clone()),
        (day(20), b"nonsense".to_vec()),
        (day(21), to_bytes(day(21), &Cells::empty(), &Cells::empty())),
    ];
    let mut notes = Vec::new();
    let days = parse_all(&options, &mut notes);
    assert_eq!(days.iter().map(|d| d.date).collect::<Vec<_>>(), [day(19)]);
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].starts_with("observed.json of 2026-11-20 ignored (not readable:"),
        "{notes:?}"
    );
    assert!(notes[0].ends_with("nothing is looked back from that day"), "{notes:?}");
}

#[test]
fn a_build_reads_the_window_and_the_previous_day() {
    let dir = test_support::TempDir::new("observed-days");
    for d in [3, 10, 14, 16, 20, 21] {
        let date = format!("2026-11-{d:02}");
        let files = reference::generate_variant(&format!("{date}T00:00:00Z"), 1.0);
        datasets::fs::write_dir_atomic(&dir.0.join(&date), &files, false).expect("write");
    }
    let (history, _) = History::load(&dir.0).expect("load");
    assert_eq!(days_wanted(&history, day(21)), [day(16), day(20)]);
    assert_eq!(days_wanted(&history, day(19)), [day(14), day(16)]);
    assert_eq!(days_wanted(&history, day(9)), [day(3)], "only the previous day");
    assert!(days_wanted(&History::single(Snapshot::reference()), day(20)).is_empty());
    // No day has the file yet: nothing is read.
    assert!(crate::read_observed(&dir.0, &history, day(21)).expect("read").is_empty());
    let bytes = to_bytes(day(20), &Cells::empty(), &Cells::empty());
    let extras = [(crate::OBSERVED_FILE, bytes.as_slice())];
    let files = reference::generate_variant("2026-11-20T00:00:00Z", 1.0);
    datasets::fs::write_dir_atomic_with(&dir.0.join("2026-11-20"), &files, &extras, true)
        .expect("write");
    assert_eq!(crate::read_observed(&dir.0, &history, day(21)).expect("read"), [(day(20), bytes)]);
}
