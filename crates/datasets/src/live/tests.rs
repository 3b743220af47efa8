//! Unit tests of the data source's rules.

use super::Source;

#[test]
fn a_public_reason_names_no_folder_of_the_server() {
    let snapshot = Source::Snapshot("/srv/dcx/today/".into());
    let reason = "/srv/dcx/today/matrix.json: permission denied; /srv/dcx/today unreadable";
    assert_eq!(
        snapshot.public_reason(reason),
        "matrix.json: permission denied; the snapshot folder unreadable"
    );
    let relative = Source::History("data/history".into());
    assert_eq!(
        relative
            .public_reason("no valid snapshot in data/history: data/history/2026-11-21/ts.json"),
        "no valid snapshot in the history folder: 2026-11-21/ts.json"
    );
    assert_eq!(Source::Embedded.public_reason("/l/3: must be positive"), "/l/3: must be positive");
}
