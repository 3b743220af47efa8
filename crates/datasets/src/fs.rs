//! Reading and writing snapshot folders: the five feed files side by side, read with
//! bounds and published durably (the day whole or not at all, even after a power cut).

mod durable;

use std::{
    io::{self, Read},
    path::Path,
};

pub use self::durable::{Existing, HistoryLock, publish_dir, write_file_atomic};
use crate::{
    error::{Error, Issue},
    snapshot::{Feed, FeedFiles, Snapshot},
};

/// The most bytes a feed file, or a file beside the feeds, may hold: 4 MiB, about 250
/// times the largest feed of the reference snapshot. A bigger file is refused before it
/// is read, so a runaway or sparse file costs nothing.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// Reads one file of a snapshot folder with bounds: it must be a regular file (a FIFO, a
/// device or a folder is refused, and opening never waits for a writer) of at most
/// [`MAX_FILE_BYTES`]. A symbolic link is followed to what it names.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("dcx-doc-read-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("a.json"), b"{}")?;
/// assert_eq!(datasets::fs::read_bounded(&dir.join("a.json"))?, b"{}");
/// assert!(datasets::fs::read_bounded(&dir).is_err()); // a folder, not a file
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_bounded(path: &Path) -> io::Result<Vec<u8>> {
    let file = open_nonblocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file (a {}); a feed must be a regular file", kind(&metadata)),
        ));
    }
    let too_big = |len: u64| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{len} bytes, more than the {MAX_FILE_BYTES} a feed file may hold"),
        )
    };
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_big(metadata.len()));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Opens `path` for reading without waiting: opening a FIFO with no writer returns at
/// once instead of blocking until one appears.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
    std::fs::OpenOptions::new().read(true).custom_flags(flags.bits() as i32).open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// What a file that is not a regular file is, in a word.
fn kind(metadata: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "device";
        }
        if kind.is_socket() {
            return "socket";
        }
    }
    if metadata.is_dir() { "folder" } else { "special file" }
}

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
        if failure.is_some() {
            return Vec::new();
        }
        match read_bounded(&path) {
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
                failure = Some(Error::Io { path, source });
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
        return with_stats(dir, Snapshot::parse(files)?);
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

/// `snapshot`, read from `dir`, with the folder's `matrix_stats.json` when it has one
/// ([`Snapshot::with_stats`]); a folder without one gives the snapshot as it is.
pub fn with_stats(dir: &Path, snapshot: Snapshot) -> Result<Snapshot, Error> {
    match read_extra(dir, crate::MATRIX_STATS_FILE)? {
        Some(bytes) => snapshot.with_stats(bytes),
        None => Ok(snapshot),
    }
}

/// Writes the five feeds into a new folder `dir` durably and atomically (see
/// [`publish_dir`]): readers see the whole snapshot or nothing, and once this returns the
/// folder survives a power cut. An existing `dir` is replaced only when `force` is set.
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
    let existing = if force { Existing::Replace } else { Existing::Refuse };
    publish_dir(dir, files, extras, existing)
}

/// A file written beside the feeds by [`write_dir_atomic_with`], read with the bounds of
/// [`read_bounded`]; `None` when `dir` has no such file.
pub fn read_extra(dir: &Path, name: &str) -> Result<Option<Vec<u8>>, Error> {
    let path = dir.join(name);
    match read_bounded(&path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Io { path, source }),
    }
}

/// Whether `name` may be written beside the feeds.
fn is_extra_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.starts_with('.')
        && !name.contains(['/', '\\'])
        && !Feed::ALL.iter().any(|feed| feed.file_name() == name)
}
