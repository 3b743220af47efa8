//! Shared setup for the criterion benchmarks in `benches/benches/`: the reference
//! snapshot read from `fixtures/` (the benches find it through `test_support`).

use datasets::{Feed, FeedFiles, Snapshot};

/// The five feeds of the snapshot folder `dir`.
pub fn read_files(dir: &std::path::Path) -> FeedFiles {
    datasets::fs::read_files(dir).expect("the snapshot folder is readable")
}

/// The snapshot of folder `dir`, parsed.
pub fn load(dir: &std::path::Path) -> Snapshot {
    Snapshot::parse(read_files(dir)).expect("the snapshot is valid")
}

/// Total bytes of the five feeds, for throughput figures.
pub fn reference_bytes(files: &FeedFiles) -> usize {
    Feed::ALL.iter().map(|&feed| files.get(feed).len()).sum()
}
