//! The tool list is written once per snapshot and follows the live one.

use std::sync::Arc;

use datasets::Snapshot;

use super::*;

#[test]
fn the_list_is_written_once_per_snapshot_and_anew_for_another() {
    let first = Arc::new(Snapshot::reference());
    let once = live_tool_list(&first);
    assert!(Arc::ptr_eq(&once, &live_tool_list(&first)), "written again for one snapshot");
    let values = |snapshot: &Snapshot| Value::Array(tool_definitions(snapshot.pricing()));
    assert_eq!(serde_json::from_str::<Value>(once.get()).unwrap(), values(&first));

    let files = datasets::reference::generate_variant("2026-11-21T00:00:00Z", 1.1);
    let second = Arc::new(Snapshot::parse(files).unwrap());
    let other = live_tool_list(&second);
    assert!(!Arc::ptr_eq(&once, &other), "another snapshot needs its own list");
    assert_eq!(serde_json::from_str::<Value>(other.get()).unwrap(), values(&second));
}
