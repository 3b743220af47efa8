//! Shared setup for the criterion benchmarks in `benches/benches/`: the reference
//! snapshot read from `fixtures/` (the benches find it through `test_support`), and the
//! host a bench ran on.

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

/// The CPU this bench runs on and how many the process may use, as one line: a ratio
/// to a baseline holds only for the machine it was read on (docs/performance.md).
pub fn host() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name")?.split_once(':'))
        .map_or("an unknown CPU", |(_, name)| name.trim());
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    format!("{model}, CPUs available: {cpus}")
}
