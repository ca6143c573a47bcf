//! Writing an artifact incrementally and atomically. The new artifact is assembled in a sibling
//! staging folder: files whose bytes did not change are hard-linked from the current artifact (so they
//! keep their inode and mtime), the others are written; then the staging folder and the artifact are
//! exchanged in one `renameat2(RENAME_EXCHANGE)`. A reader, or a host, sees the old artifact or the new
//! one, never a mix, whenever the build is killed. When nothing changed, nothing is written at all.
//! Builds of the same output serialise on a lock file beside it.
//!
//! Only what the previous build wrote (its manifest lists it) is ever removed or replaced. Anything
//! else found in the artifact (a file put there by hand, a symlink, an empty folder) is carried into
//! the new artifact as it is and reported; one that stands where the new build writes a file or
//! needs a folder makes the write refuse, before anything is touched.

use std::collections::BTreeMap;
use std::fs::File;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::AsRawFd;

use camino::{Utf8Path, Utf8PathBuf};

use super::{ArtifactFile, FileKind};
use crate::vocabulary::digest::sha256_hex;

/// What a write did, file by file (artifact-relative paths, sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteOutcome {
    /// Files whose bytes were written (new or changed).
    pub written: Vec<String>,
    /// Files kept as they were (same bytes; not rewritten).
    pub kept: Vec<String>,
    /// Files the previous build wrote that the new one no longer has.
    pub removed: Vec<String>,
    /// What no build wrote (not in the previous manifest) and this build does not write: files,
    /// symlinks and empty folders (ending in `/`), kept as they were.
    pub untracked: Vec<String>,
}

/// Why an artifact could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The output folder holds files agent-bundle did not write; nothing was touched.
    NotAnArtifact,
    /// Something no build wrote stands where this build writes a file or needs a folder; nothing
    /// was touched.
    InTheWay {
        path: String,
        conflict: Conflict,
    },
    Io(std::io::Error),
}

/// How an untracked path is in the new artifact's way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// The build writes other bytes (or a file where this is a symlink) at the same path.
    Replaced,
    /// The build needs a folder here, for `inner`.
    NeedsFolder { inner: String },
    /// The build writes the file `file`, where this lies inside a folder.
    InsideFile { file: String },
}

/// What the artifact folder holds at a path, found without following symlinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    File,
    Symlink,
    EmptyDir,
}

impl From<std::io::Error> for WriteError {
    fn from(error: std::io::Error) -> Self {
        WriteError::Io(error)
    }
}

/// Test hook: abort the process after this many files were written into the staging folder, to
/// prove a killed build leaves the previous artifact whole.
const FAULT_AFTER_WRITES: &str = "AGENT_BUNDLE_FAULT_AFTER_WRITES";

/// Makes `output` hold exactly `files`, each regular file with exactly its mode and each link as a
/// link, besides what no build wrote. `marker` is the file that identifies a folder as ours;
/// `previous` maps the files the previous build wrote to their recorded SHA-256 and kind (from its
/// manifest, which is `marker`).
/// `on_wait` is called once if another build holds the lock.
pub fn write_artifact(
    output: &Utf8Path,
    files: &BTreeMap<String, ArtifactFile>,
    marker: &str,
    previous: &BTreeMap<String, (String, FileKind)>,
    on_wait: &mut dyn FnMut(&Utf8Path),
) -> Result<WriteOutcome, WriteError> {
    let parent = output.parent().filter(|p| !p.as_str().is_empty()).unwrap_or(Utf8Path::new(".")).to_path_buf();
    fs_err::create_dir_all(&parent)?;
    let name = output.file_name().unwrap_or("artifact").to_string();
    let _lock = lock(&parent.join(format!(".{name}.lock")), on_wait)?;

    remove_stale_staging(&parent, &name)?;
    let exists = output.exists();
    if exists {
        let ours = output.join(marker).is_file();
        let empty = output.is_dir() && fs_err::read_dir(output)?.next().is_none();
        if !ours && !empty {
            return Err(WriteError::NotAnArtifact);
        }
    }

    // Which current files can be kept: recorded with the same hash and kind, and still holding
    // those bytes with that mode (or that link).
    let mut outcome = WriteOutcome::default();
    let mut keep = BTreeMap::new();
    for (path, file) in files {
        // Hashed only where there is something to compare with (not in a first build).
        let candidate = exists && (previous.contains_key(path) || path == marker);
        let unchanged = candidate && {
            let new_hash = sha256_hex(&file.bytes);
            let recorded = previous.get(path).is_some_and(|(hash, kind)| hash == &new_hash && *kind == file.kind);
            (recorded || path == marker) && holds(&output.join(path), file, &new_hash)
        };
        if unchanged {
            keep.insert(path.clone(), ());
            outcome.kept.push(path.clone());
        } else {
            outcome.written.push(path.clone());
        }
    }
    let mut untracked: BTreeMap<String, Found> = BTreeMap::new();
    if exists {
        for (path, found) in walk_unfollowed(output)? {
            let ours = previous.contains_key(&path) || path == marker;
            if ours && found != Found::EmptyDir {
                if !files.contains_key(&path) {
                    outcome.removed.push(path);
                }
                continue;
            }
            if let Some(conflict) = in_the_way(output, &path, found, files) {
                return Err(WriteError::InTheWay { path, conflict });
            }
            // An empty folder the build now writes into needs no carrying.
            let absorbed = found == Found::EmptyDir && first_inside(files, &path).is_some();
            if !files.contains_key(&path) && !absorbed {
                outcome.untracked.push(if found == Found::EmptyDir { format!("{path}/") } else { path.clone() });
                untracked.insert(path, found);
            }
        }
    }
    if exists && outcome.written.is_empty() && outcome.removed.is_empty() {
        return Ok(outcome);
    }

    let staging = parent.join(format!(".{name}.staging-{}", std::process::id()));
    let fault_after: Option<usize> = std::env::var(FAULT_AFTER_WRITES).ok().and_then(|n| n.parse().ok());
    let mut writes = 0usize;
    let assembled = (|| -> std::io::Result<()> {
        fs_err::create_dir_all(&staging)?;
        for (path, file) in files {
            let target = staging.join(path);
            if let Some(dir) = target.parent() {
                fs_err::create_dir_all(dir)?;
            }
            if keep.contains_key(path) && std::fs::hard_link(output.join(path), &target).is_ok() {
                continue;
            }
            match file.kind {
                FileKind::Regular { mode } => {
                    use std::os::unix::fs::PermissionsExt;
                    fs_err::write(&target, &file.bytes)?;
                    // Set, not masked by the umask: the mode is the file's own, exactly.
                    fs_err::set_permissions(&target, std::fs::Permissions::from_mode(mode))?;
                }
                FileKind::Symlink => {
                    let link = std::ffi::OsStr::from_bytes(&file.bytes);
                    fs_err::os::unix::fs::symlink(link, &target)?;
                }
            }
            writes += 1;
            if fault_after.is_some_and(|n| writes >= n) {
                std::process::abort();
            }
        }
        for (path, found) in &untracked {
            carry(&output.join(path), &staging.join(path), *found)?;
        }
        Ok(())
    })();
    if let Err(error) = assembled {
        let _ = fs_err::remove_dir_all(&staging);
        return Err(error.into());
    }

    if exists {
        exchange(&staging, output)?;
        // The staging path now holds the previous artifact.
        fs_err::remove_dir_all(&staging)?;
    } else {
        fs_err::rename(&staging, output)?;
    }
    Ok(outcome)
}

/// Whether `path` is `file` as it should be: a regular file with its bytes (`hash`) and exactly its
/// mode, or a link with its target. Nothing is followed.
fn holds(path: &Utf8Path, file: &ArtifactFile, hash: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(metadata) = std::fs::symlink_metadata(path) else { return false };
    match file.kind {
        FileKind::Regular { mode } => {
            metadata.is_file()
                && metadata.permissions().mode() & 0o7777 == mode
                && std::fs::read(path).is_ok_and(|old| sha256_hex(&old) == hash)
        }
        FileKind::Symlink => {
            metadata.file_type().is_symlink()
                && std::fs::read_link(path).is_ok_and(|target| target.as_os_str().as_bytes() == file.bytes.as_slice())
        }
    }
}

/// Whether an untracked `path` stands where the new artifact writes a file or needs a folder. A file
/// with the bytes the build writes there is not in the way: nothing of it is lost.
fn in_the_way(output: &Utf8Path, path: &str, found: Found, files: &BTreeMap<String, ArtifactFile>) -> Option<Conflict> {
    if let Some(file) = files.get(path) {
        return match found {
            Found::File if std::fs::read(output.join(path)).is_ok_and(|old| old == file.bytes) => None,
            _ => Some(Conflict::Replaced),
        };
    }
    if found != Found::EmptyDir
        && let Some(inner) = first_inside(files, path)
    {
        return Some(Conflict::NeedsFolder { inner: inner.to_string() });
    }
    let mut folder = path;
    while let Some((parent, _)) = folder.rsplit_once('/') {
        folder = parent;
        if files.contains_key(folder) {
            return Some(Conflict::InsideFile { file: folder.to_string() });
        }
    }
    None
}

/// The first of `files` inside the folder `path`.
fn first_inside<'f>(files: &'f BTreeMap<String, ArtifactFile>, path: &str) -> Option<&'f str> {
    let prefix = format!("{path}/");
    files.range(prefix.clone()..).next().map(|(inner, _)| inner.as_str()).filter(|inner| inner.starts_with(&prefix))
}

/// Carries an untracked entry into the staging folder as it is: a hard link of the file or of the
/// symlink itself (Linux `link` does not follow it), a copy where linking fails, an empty folder.
fn carry(from: &Utf8Path, to: &Utf8Path, found: Found) -> std::io::Result<()> {
    if found == Found::EmptyDir {
        return fs_err::create_dir_all(to);
    }
    if let Some(dir) = to.parent() {
        fs_err::create_dir_all(dir)?;
    }
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    match found {
        Found::Symlink => std::os::unix::fs::symlink(fs_err::read_link(from)?, to),
        _ => fs_err::copy(from, to).map(|_| ()),
    }
}

/// Every file, symlink and empty folder under `dir`, without following symlinks, as `/`-separated
/// relative paths, sorted.
fn walk_unfollowed(dir: &Utf8Path) -> std::io::Result<BTreeMap<String, Found>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, relative)) = pending.pop() {
        let mut empty = true;
        for entry in fs_err::read_dir(&folder)? {
            let entry = entry?;
            empty = false;
            let name = entry.file_name().into_string().map_err(|_| std::io::Error::other("non-UTF-8 file name"))?;
            let path = if relative.is_empty() { name.clone() } else { format!("{relative}/{name}") };
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push((folder.join(&name), path));
            } else if kind.is_symlink() {
                found.insert(path, Found::Symlink);
            } else {
                found.insert(path, Found::File);
            }
        }
        if empty && !relative.is_empty() {
            found.insert(relative, Found::EmptyDir);
        }
    }
    Ok(found)
}

/// Swaps two directories in one step (Linux `renameat2` with `RENAME_EXCHANGE`).
fn exchange(a: &Utf8Path, b: &Utf8Path) -> std::io::Result<()> {
    let a = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let b = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both are valid NUL-terminated paths; AT_FDCWD resolves them like open(2) would.
    let result =
        unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if result == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}

/// An exclusive lock held until dropped (`flock` on the lock file, released when the file closes,
/// also when the process dies).
struct Lock(#[allow(dead_code)] File);

fn lock(path: &Utf8Path, on_wait: &mut dyn FnMut(&Utf8Path)) -> std::io::Result<Lock> {
    let file = File::options().create(true).truncate(false).write(true).open(path)?;
    // SAFETY: flock on a file descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        on_wait(path);
        // SAFETY: as above; this call blocks until the other build releases the lock.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(Lock(file))
}

/// Staging folders a killed build left behind (safe to remove: we hold the lock).
fn remove_stale_staging(parent: &Utf8Path, name: &str) -> std::io::Result<()> {
    let prefix = format!(".{name}.staging-");
    for entry in fs_err::read_dir(parent)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let path = Utf8PathBuf::from_path_buf(entry.path()).map_err(|_| std::io::Error::other("non-UTF-8 path"))?;
            fs_err::remove_dir_all(path)?;
        }
    }
    Ok(())
}
