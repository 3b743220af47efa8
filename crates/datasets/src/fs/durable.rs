//! Publishing like a database commits: every file written and synced in a temporary
//! sibling folder, the folder synced, renamed into place (or exchanged with the day it
//! replaces), the parent synced; one writer at a time through [`HistoryLock`].

use std::{
    fs::File,
    io::{self, Read, Seek, Write},
    path::{Path, PathBuf},
};

use super::{is_extra_name, load_dir};
use crate::{
    error::Error,
    snapshot::{Feed, FeedFiles},
};

/// What [`publish_dir`] does when the folder it publishes exists already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Leave it and fail: nothing published is deleted without being asked.
    Refuse,
    /// Replace it only if it does not hold a valid snapshot (a day a power cut zeroed,
    /// an empty folder): a valid one is left and the call fails.
    ReplaceInvalid,
    /// Replace it whatever it holds (`--force`).
    Replace,
}

/// The name of the lock file of a history folder.
const LOCK_FILE: &str = ".dcx-build.lock";

/// One writer at a time: an exclusive lock on a history folder's lock file, held until
/// dropped (the operating system releases it when the process dies, however it dies).
/// Taking it sweeps the temporary folders that killed writers left behind.
#[derive(Debug)]
pub struct HistoryLock {
    file: File,
}

impl HistoryLock {
    /// Locks the history folder `dir` (created if missing). When another process holds
    /// the lock, fails at once (`wait` false) with the holder's process id, or waits for
    /// it (`wait` true).
    pub fn acquire(dir: &Path, wait: bool) -> Result<HistoryLock, Error> {
        create_dir_durably(dir)?;
        let path = dir.join(LOCK_FILE);
        let io_err = |source| Error::Io { path: path.clone(), source };
        let mut file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) if wait => file.lock().map_err(io_err)?,
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let by = if holder.is_empty() { String::new() } else { format!(" (pid {holder})") };
                return Err(Error::Io {
                    path,
                    source: io::Error::new(
                        io::ErrorKind::WouldBlock,
                        format!(
                            "another build holds this history's lock{by}; one build writes a history at a time (--wait waits for it)"
                        ),
                    ),
                });
            }
            Err(std::fs::TryLockError::Error(source)) => return Err(io_err(source)),
        }
        // The holder's process id, for the message of a build refused meanwhile.
        file.set_len(0).map_err(io_err)?;
        file.rewind().map_err(io_err)?;
        write!(file, "{}", std::process::id()).map_err(io_err)?;
        sweep_temporaries(dir)?;
        Ok(HistoryLock { file })
    }
}

impl Drop for HistoryLock {
    /// Releases the lock explicitly: closing the file alone would not while a child
    /// process forked meanwhile (by any thread) still shares the open file until it execs.
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Removes the temporary folders of `dir` (`.NAME.tmp-PID`) that killed writers left:
/// a half-written day, or a replaced day a crash kept from being removed.
fn sweep_temporaries(dir: &Path) -> Result<(), Error> {
    let io_err = |source| Error::Io { path: dir.to_path_buf(), source };
    for entry in std::fs::read_dir(dir).map_err(io_err)? {
        let entry = entry.map_err(io_err)?;
        let name = entry.file_name();
        if temporary_of(&name.to_string_lossy()).is_some() {
            let path = entry.path();
            let removed = match entry.file_type() {
                Ok(kind) if kind.is_dir() => std::fs::remove_dir_all(&path),
                _ => std::fs::remove_file(&path),
            };
            removed.map_err(|source| Error::Io { path, source })?;
        }
    }
    Ok(())
}

/// The name a temporary folder stands in for: `.NAME.tmp-PID` gives `NAME`.
fn temporary_of(name: &str) -> Option<&str> {
    let rest = name.strip_prefix('.')?;
    let (target, pid) = rest.rsplit_once(".tmp-")?;
    (!target.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        .then_some(target)
}

/// Publishes the five feeds (and `extras` beside them) as the folder `dir`, durably and
/// atomically, the way a database commits:
///
/// 1. every file is written into a temporary sibling folder and synced, then the folder;
/// 2. the folder is renamed into place: a new `dir` appears whole (a rename that never
///    replaces), or, when replacing, the two folders are exchanged in one step (Linux
///    `renameat2(RENAME_EXCHANGE)`), so there is no moment without a whole `dir`;
/// 3. the parent folder is synced, and only then does this return;
/// 4. a replaced folder, now under the temporary name, is removed (a crash before that
///    leaves it to the next [`HistoryLock`] to sweep).
///
/// What happens to an existing `dir` is `existing`'s to say. A failure leaves `dir` as
/// it was. Concurrent writers of one history take a [`HistoryLock`] first.
pub fn publish_dir(
    dir: &Path,
    files: &FeedFiles,
    extras: &[(&str, &[u8])],
    existing: Existing,
) -> Result<(), Error> {
    if let Some((name, _)) = extras.iter().find(|(name, _)| !is_extra_name(name)) {
        return Err(Error::Io {
            path: dir.join(name),
            source: io::Error::new(
                io::ErrorKind::InvalidInput,
                "an extra file needs a plain file name that is not a feed's and does not start with a dot",
            ),
        });
    }
    let replacing = dir.symlink_metadata().is_ok();
    if replacing {
        refuse_existing(dir, existing)?;
    }
    let parent = parent_of(dir);
    create_dir_durably(parent)?;
    let temp = temporary_for(dir);
    if temp.symlink_metadata().is_ok() {
        std::fs::remove_dir_all(&temp).map_err(io_err(&temp))?;
    }
    let written = write_temporary(&temp, files, extras)
        .and_then(|()| if replacing { exchange(&temp, dir) } else { rename_new(&temp, dir) });
    if let Err(err) = written {
        let _ = std::fs::remove_dir_all(&temp);
        return Err(err);
    }
    sync_dir(parent)?;
    // `temp` now holds the replaced folder, if there was one.
    if temp.symlink_metadata().is_ok() {
        std::fs::remove_dir_all(&temp).map_err(io_err(&temp))?;
        sync_dir(parent)?;
    }
    Ok(())
}

/// Fails when an existing `dir` may not be replaced, with what to do about it.
fn refuse_existing(dir: &Path, existing: Existing) -> Result<(), Error> {
    let refuse = |message: String| {
        Err(Error::Io {
            path: dir.to_path_buf(),
            source: io::Error::new(io::ErrorKind::AlreadyExists, message),
        })
    };
    if existing == Existing::Replace {
        return Ok(());
    }
    match (existing, load_dir(dir)) {
        (Existing::ReplaceInvalid, Err(_)) => Ok(()),
        (_, Ok(_)) => refuse("already published; pass --force to replace it".to_owned()),
        (_, Err(err)) => refuse(format!(
            "exists but is not a valid snapshot ({}); pass --replace-invalid to replace it (a valid day is never replaced that way), or --force",
            err.to_string().replace('\n', " ")
        )),
    }
}

/// The folder `dir` is in (`.` for a bare name).
fn parent_of(dir: &Path) -> &Path {
    dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The temporary sibling `dir` is written into: `.NAME.tmp-PID`.
fn temporary_for(dir: &Path) -> PathBuf {
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    parent_of(dir).join(format!(".{name}.tmp-{}", std::process::id()))
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> Error + use<> {
    let path = path.to_path_buf();
    move |source| Error::Io { path, source }
}

/// Creates `temp` with every file written and synced, then syncs the folder itself.
fn write_temporary(temp: &Path, files: &FeedFiles, extras: &[(&str, &[u8])]) -> Result<(), Error> {
    std::fs::create_dir(temp).map_err(io_err(temp))?;
    let feeds = Feed::ALL.iter().map(|&feed| (feed.file_name(), files.get(feed)));
    for (name, bytes) in feeds.chain(extras.iter().copied()) {
        let path = temp.join(name);
        write_synced(&path, bytes).map_err(io_err(&path))?;
    }
    sync_dir(temp)
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = File::create_new(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Flushes a folder's entries (the names created, renamed or removed in it) to disk.
fn sync_dir(dir: &Path) -> Result<(), Error> {
    File::open(dir).and_then(|folder| folder.sync_all()).map_err(io_err(dir))
}

/// Creates `dir` and any missing parents, syncing each parent that gained an entry.
fn create_dir_durably(dir: &Path) -> Result<(), Error> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_dir_durably(parent)?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => sync_dir(parent_of(dir)),
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(source) => Err(Error::Io { path: dir.to_path_buf(), source }),
    }
}

/// Renames `temp` to `dir`, failing if `dir` appeared meanwhile (never replacing it).
#[cfg(target_os = "linux")]
fn rename_new(temp: &Path, dir: &Path) -> Result<(), Error> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, temp, CWD, dir, RenameFlags::NOREPLACE).map_err(|errno| {
        let source = io::Error::from(errno);
        let source = if source.kind() == io::ErrorKind::AlreadyExists {
            io::Error::new(io::ErrorKind::AlreadyExists, "published meanwhile by another writer")
        } else {
            source
        };
        Error::Io { path: dir.to_path_buf(), source }
    })
}

#[cfg(not(target_os = "linux"))]
fn rename_new(temp: &Path, dir: &Path) -> Result<(), Error> {
    std::fs::rename(temp, dir).map_err(io_err(dir))
}

/// Exchanges `temp` and `dir` in one step: `dir` is the new folder, `temp` the old one.
#[cfg(target_os = "linux")]
fn exchange(temp: &Path, dir: &Path) -> Result<(), Error> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, temp, CWD, dir, RenameFlags::EXCHANGE)
        .map_err(|errno| Error::Io { path: dir.to_path_buf(), source: errno.into() })
}

/// Without an atomic exchange: the old folder is moved aside, then the new one in. A
/// crash between the two leaves the old folder under a temporary name.
#[cfg(not(target_os = "linux"))]
fn exchange(temp: &Path, dir: &Path) -> Result<(), Error> {
    let aside = temp.with_extension("old");
    std::fs::rename(dir, &aside).map_err(io_err(dir))?;
    std::fs::rename(temp, dir).map_err(io_err(dir))?;
    std::fs::rename(&aside, temp).map_err(io_err(temp))
}

/// Writes one file atomically and durably: into a temporary sibling, synced, renamed over
/// `path`, the folder synced. Readers see the old file or the new one, never a part.
pub fn write_file_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let parent = parent_of(path);
    let temp = temporary_for(path);
    let _ = std::fs::remove_file(&temp);
    let written = write_synced(&temp, bytes).and_then(|()| std::fs::rename(&temp, path));
    if let Err(source) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(Error::Io { path: path.to_path_buf(), source });
    }
    sync_dir(parent)
}
