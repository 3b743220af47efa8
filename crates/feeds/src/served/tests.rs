//! Unit tests for `crate::served`: representations are the published bytes, built once.

use std::sync::Arc;

use datasets::{Feed, History, Snapshot};

use crate::served::Served;

#[test]
fn feeds_are_the_published_bytes_with_the_snapshot_ts() {
    let snapshot = Snapshot::reference();
    let served = Served::new(Arc::new(History::single(snapshot.clone())), "t", "1");
    assert_eq!(served.ts, snapshot.ts().timestamp());
    assert_eq!(served.ts_text, "2026-11-20T00:00:00Z");
    for feed in Feed::ALL {
        let representation = served.feed(feed);
        assert_eq!(&representation.identity()[..], snapshot.files().get(feed), "{feed}");
        assert_eq!(representation.last_modified(), served.ts);
    }
    assert_ne!(served.feed(Feed::Matrix).etag(), served.feed(Feed::MatrixCushion).etag());
}
