//! Shared setup for the criterion benchmarks in `benches/benches/`: the reference
//! snapshot read from `fixtures/` through `test_support`, as the tests read it.

use datasets::{Feed, FeedFiles, Snapshot};

/// The reference snapshot's five feeds, read from `fixtures/snapshot/`.
pub fn reference_files() -> FeedFiles {
    let dir = test_support::fixture_path("snapshot");
    datasets::fs::read_files(&dir).expect("fixtures/snapshot is readable")
}

/// The reference snapshot, parsed.
pub fn reference() -> Snapshot {
    Snapshot::parse(reference_files()).expect("the reference snapshot is valid")
}

/// Total bytes of the five feeds, for throughput figures.
pub fn reference_bytes(files: &FeedFiles) -> usize {
    Feed::ALL.iter().map(|&feed| files.get(feed).len()).sum()
}
