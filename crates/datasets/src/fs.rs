//! Reading and writing snapshot folders: the five feed files side by side.

use std::{
    io,
    path::{Path, PathBuf},
};

use crate::{
    error::{Error, Issue},
    snapshot::{Feed, FeedFiles, Snapshot},
};

/// Reads the five feed files of `dir`. A missing file is a validation issue (so that
/// every missing feed is reported at once); any other read failure is an I/O error.
pub fn read_files(dir: &Path) -> Result<FeedFiles, Error> {
    let (files, missing) = read_present(dir)?;
    if missing.is_empty() { Ok(files) } else { Err(Error::Invalid { issues: missing }) }
}

/// The feed files of `dir` that are there (a missing one is empty), and an issue for each
/// missing one.
fn read_present(dir: &Path) -> Result<(FeedFiles, Vec<Issue>), Error> {
    let mut issues = Vec::new();
    let mut failure = None;
    let files = FeedFiles::from_fn(|feed| {
        let path = dir.join(feed.file_name());
        match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                issues.push(Issue {
                    feed: feed.file_name(),
                    pointer: String::new(),
                    message: format!("file {} is missing", path.display()),
                });
                Vec::new()
            }
            Err(source) => {
                failure.get_or_insert(Error::Io { path, source });
                Vec::new()
            }
        }
    });
    if let Some(err) = failure {
        return Err(err);
    }
    if !dir.is_dir() {
        return Err(Error::Io {
            path: dir.to_path_buf(),
            source: io::Error::new(io::ErrorKind::NotFound, "no such snapshot folder"),
        });
    }
    Ok((files, issues))
}

/// Reads and validates the snapshot in `dir`, reporting every problem: the missing feeds
/// and everything wrong with the others.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("dcx-doc-load-{}", std::process::id()));
/// datasets::fs::write_dir_atomic(&dir, &datasets::reference::embedded(), true)?;
/// let snapshot = datasets::fs::load_dir(&dir)?;
/// assert_eq!(snapshot.ts_text(), "2026-11-20T00:00:00Z");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// assert!(datasets::fs::load_dir(&dir).is_err()); // no such folder
/// # Ok::<(), datasets::Error>(())
/// ```
pub fn load_dir(dir: &Path) -> Result<Snapshot, Error> {
    let (files, missing) = read_present(dir)?;
    if missing.is_empty() {
        return Snapshot::parse(files);
    }
    // A missing feed does not hide the problems of the others: they are parsed and
    // checked too, and everything they say about the missing ones (empty here) is left
    // out.
    let absent: Vec<&str> = missing.iter().map(|issue| issue.feed).collect();
    let mut issues = missing;
    if let Err(err) = Snapshot::parse(files) {
        let found = err.issues().iter().filter(|issue| !absent.contains(&issue.feed));
        issues.extend(found.cloned());
    }
    Err(Error::Invalid { issues })
}

/// Writes the five feeds into a new folder `dir` atomically: into a temporary sibling
/// first, then renamed into place, so that readers see the whole snapshot or nothing.
/// An existing `dir` is replaced only when `force` is set.
pub fn write_dir_atomic(dir: &Path, files: &FeedFiles, force: bool) -> Result<(), Error> {
    write_dir_atomic_with(dir, files, &[], force)
}

/// [`write_dir_atomic`] with more files beside the feeds (`(file name, bytes)`), written
/// in the same atomic step; readers of snapshots ignore them (a build's `observed.json`).
/// A name must be a plain file name that is not a feed's.
pub fn write_dir_atomic_with(
    dir: &Path,
    files: &FeedFiles,
    extras: &[(&str, &[u8])],
    force: bool,
) -> Result<(), Error> {
    if let Some((name, _)) = extras.iter().find(|(name, _)| !is_extra_name(name)) {
        return Err(Error::Io {
            path: dir.join(name),
            source: io::Error::new(
                io::ErrorKind::InvalidInput,
                "an extra file needs a plain file name that is not a feed's",
            ),
        });
    }
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Io { path, source }
    };
    if dir.exists() && !force {
        return Err(Error::Io {
            path: dir.to_path_buf(),
            source: io::Error::new(
                io::ErrorKind::AlreadyExists,
                "already published; pass --force to replace it",
            ),
        });
    }
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(io_err(parent))?;
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp: PathBuf = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if temp.exists() {
        std::fs::remove_dir_all(&temp).map_err(io_err(&temp))?;
    }
    std::fs::create_dir(&temp).map_err(io_err(&temp))?;
    let feeds = Feed::ALL.iter().map(|&feed| (feed.file_name(), files.get(feed)));
    let written = feeds.chain(extras.iter().copied()).try_for_each(|(name, bytes)| {
        let path = temp.join(name);
        std::fs::write(&path, bytes).map_err(io_err(&path))
    });
    if let Err(err) = written {
        let _ = std::fs::remove_dir_all(&temp);
        return Err(err);
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(io_err(dir))?;
    }
    std::fs::rename(&temp, dir).map_err(io_err(dir))
}

/// A file written beside the feeds by [`write_dir_atomic_with`]; `None` when `dir` has
/// no such file.
pub fn read_extra(dir: &Path, name: &str) -> Result<Option<Vec<u8>>, Error> {
    let path = dir.join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Io { path, source }),
    }
}

fn is_extra_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !Feed::ALL.iter().any(|feed| feed.file_name() == name)
}
