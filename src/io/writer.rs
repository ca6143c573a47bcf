//! Writing an artifact incrementally and atomically. The new artifact is assembled in a sibling
//! staging folder: files whose bytes did not change are hard-linked from the current artifact (so they
//! keep their inode and mtime), the others are written; then the staging folder and the artifact are
//! exchanged in one `renameat2(RENAME_EXCHANGE)`. A reader, or a host, sees the old artifact or the new
//! one, never a mix, whenever the build is killed. When nothing changed, nothing is written at all.
//! Builds of the same output serialise on a lock file beside it.

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
    /// Files of the previous artifact that the new one no longer has.
    pub removed: Vec<String>,
}

/// Why an artifact could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The output folder holds files agent-bundle did not write; nothing was touched.
    NotAnArtifact,
    Io(std::io::Error),
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
/// link. `marker` is the file that identifies a folder as ours; `previous` maps the current
/// artifact's files to their recorded SHA-256 and kind (from its manifest).
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
        let new_hash = sha256_hex(&file.bytes);
        let recorded = previous.get(path).is_some_and(|(hash, kind)| hash == &new_hash && *kind == file.kind);
        let unchanged = exists && (recorded || path == marker) && holds(&output.join(path), file, &new_hash);
        if unchanged {
            keep.insert(path.clone(), ());
            outcome.kept.push(path.clone());
        } else {
            outcome.written.push(path.clone());
        }
    }
    if exists {
        for path in entries(output)? {
            if !files.contains_key(&path) {
                outcome.removed.push(path);
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

/// Every file and link of an existing artifact, as `/`-separated relative paths, sorted. Links are
/// entries, never followed (a kept link may name a folder outside).
fn entries(output: &Utf8Path) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(output).follow_links(false).sort_by_file_name() {
        let entry = entry.map_err(std::io::Error::other)?;
        if entry.file_type().is_dir() {
            continue;
        }
        let relative = entry.path().strip_prefix(output).map_err(std::io::Error::other)?;
        let parts: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        found.push(parts.join("/"));
    }
    found.sort();
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
