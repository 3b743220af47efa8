//! Unit tests of the GET documents: `/health` says where the data comes from.

use datasets::{History, Live, Snapshot, Source};

use super::*;

#[test]
fn health_names_the_source_and_flags_sample_data() {
    let (live, _) = Live::open(Source::Embedded).unwrap();
    let body = health(&live);
    assert_eq!(body["source"], "embedded");
    assert_eq!(body["sample_data"], true);
    assert_eq!(body["snapshot"]["ts"], "2026-11-20T00:00:00Z");
    let variant = datasets::reference::generate_variant("2026-11-21T00:00:00Z", 1.01);
    let live = Live::fixed(History::single(Snapshot::parse(variant).unwrap()));
    assert_eq!(health(&live)["sample_data"], false);
}
