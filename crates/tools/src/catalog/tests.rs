//! The tool list is built once per snapshot and follows the live one.

use std::sync::Arc;

use datasets::Snapshot;

use super::*;

#[test]
fn the_list_is_built_once_per_snapshot_and_anew_for_another() {
    let first = Arc::new(Snapshot::reference());
    let once = live_tool_definitions(&first);
    assert!(Arc::ptr_eq(&once, &live_tool_definitions(&first)), "built again for one snapshot");
    assert_eq!(*once, tool_definitions(first.pricing()));

    let files = datasets::reference::generate_variant("2026-11-21T00:00:00Z", 1.1);
    let second = Arc::new(Snapshot::parse(files).unwrap());
    let other = live_tool_definitions(&second);
    assert!(!Arc::ptr_eq(&once, &other), "another snapshot needs its own list");
    assert_eq!(*other, tool_definitions(second.pricing()));
}
