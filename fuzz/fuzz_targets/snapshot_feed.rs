//! Fuzz target: the snapshot parser, one feed at a time (`datasets::Feed::validate`), so
//! that a run costs one feed's parse rather than five. Input: a selector byte (the feed,
//! `Feed::ALL[byte % 5]`), then the feed's bytes; seeds are `fixtures/snapshot/*.json`
//! and `fixtures/snapshot-err/*/*.json`.
//!
//! Checked for every input: no panic; a refusal names at least one issue, each located
//! in this feed by a JSON pointer (empty or starting with `/`) with a message. For a feed
//! that validates: the whole snapshot with it in place of the reference's feed reports no
//! issue inside it (only the index's basket may disagree with the reference matrix), and
//! the same JSON written another way (pretty-printed) validates too.
#![no_main]

use std::sync::LazyLock;

use datasets::{Feed, FeedFiles, Snapshot};
use libfuzzer_sys::fuzz_target;

static REFERENCE: LazyLock<FeedFiles> = LazyLock::new(datasets::reference::embedded);

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    let feed = Feed::ALL[usize::from(selector) % Feed::ALL.len()];
    let Err(err) = feed.validate(bytes) else {
        return agrees_with_the_whole_snapshot(feed, bytes);
    };
    assert!(!err.issues().is_empty(), "{feed}: refused without an issue");
    for issue in err.issues() {
        assert_eq!(issue.feed, feed.file_name());
        assert!(issue.pointer.is_empty() || issue.pointer.starts_with('/'), "{issue}");
        assert!(!issue.message.is_empty(), "{issue}");
    }
});

fn agrees_with_the_whole_snapshot(feed: Feed, bytes: &[u8]) {
    let files =
        FeedFiles::from_fn(|f| if f == feed { bytes.to_vec() } else { REFERENCE.get(f).to_vec() });
    if let Err(err) = Snapshot::parse(files) {
        let basket = |pointer: &str| pointer.starts_with("/specs") || pointer == "/dcx";
        for issue in err.issues().iter().filter(|issue| issue.feed == feed.file_name()) {
            assert!(
                feed == Feed::Index && basket(&issue.pointer),
                "valid alone, not in a snapshot: {issue}"
            );
        }
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).expect("a valid feed is JSON");
    let pretty = serde_json::to_vec_pretty(&value).expect("a JSON value serializes");
    if let Err(err) = feed.validate(&pretty) {
        panic!("{feed} valid, but not once pretty-printed: {err}");
    }
}
