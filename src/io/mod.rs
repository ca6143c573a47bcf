//! The I/O layer: the only module that touches the disk. Pipeline stages receive what they need
//! through [`Disk`], so they stay pure and testable, and the invariant "extraction never runs user
//! code; only the I/O layer touches the disk" holds by construction.

mod cache;

/// One file of an artifact: its bytes, and whether it is executable (payload scripts, binaries of
/// packages shipped whole keep their mode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtifactFile {
    pub bytes: Vec<u8>,
    pub executable: bool,
}

impl ArtifactFile {
    pub fn new(bytes: Vec<u8>) -> Self {
        ArtifactFile { bytes, executable: false }
    }
}
mod recording;
pub mod stamp;
mod writer;

pub use recording::RecordingDisk;

use camino::{Utf8Path, Utf8PathBuf};

pub use cache::{CacheStore, Lookup};
pub use writer::{Conflict, WriteError, WriteOutcome, write_artifact};

/// What the pipeline asks of the file system.
pub trait Disk {
    fn is_file(&self, path: &Utf8Path) -> bool;
    fn is_dir(&self, path: &Utf8Path) -> bool;
    /// The path with symlinks resolved, if it exists.
    fn canonicalize(&self, path: &Utf8Path) -> Option<Utf8PathBuf>;
    fn read_to_string(&self, path: &Utf8Path) -> std::io::Result<String>;
    /// File names in a directory, sorted so that results never depend on directory order.
    fn list_dir(&self, path: &Utf8Path) -> std::io::Result<Vec<String>>;
    fn read(&self, path: &Utf8Path) -> std::io::Result<Vec<u8>>;
    /// Whether a file has an execute bit set.
    fn is_executable(&self, path: &Utf8Path) -> bool;
    /// Every file under `dir` (following symlinks), as `/`-separated paths relative to it, sorted.
    fn walk_files(&self, dir: &Utf8Path) -> std::io::Result<Vec<String>>;
    /// Every folder under `dir` (itself included) that `prune` does not cut off, sorted; `prune`
    /// sees each folder and decides whether to skip it and everything below.
    fn walk_dirs(&self, dir: &Utf8Path, prune: &dyn Fn(&Utf8Path) -> bool) -> std::io::Result<Vec<Utf8PathBuf>>;
}

/// The real file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealDisk;

impl Disk for RealDisk {
    fn is_file(&self, path: &Utf8Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Utf8Path) -> bool {
        path.is_dir()
    }

    fn canonicalize(&self, path: &Utf8Path) -> Option<Utf8PathBuf> {
        let canonical = fs_err::canonicalize(path).ok()?;
        Utf8PathBuf::from_path_buf(canonical).ok()
    }

    fn read_to_string(&self, path: &Utf8Path) -> std::io::Result<String> {
        // Plain std errors: callers name the file themselves.
        std::fs::read_to_string(path)
    }

    fn list_dir(&self, path: &Utf8Path) -> std::io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in fs_err::read_dir(path)? {
            if let Ok(name) = entry?.file_name().into_string() {
                names.push(name);
            }
        }
        names.sort();
        Ok(names)
    }

    fn read(&self, path: &Utf8Path) -> std::io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn is_executable(&self, path: &Utf8Path) -> bool {
        is_executable(path)
    }

    fn walk_files(&self, dir: &Utf8Path) -> std::io::Result<Vec<String>> {
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(dir).follow_links(true).sort_by_file_name() {
            let entry = entry.map_err(std::io::Error::other)?;
            if !entry.file_type().is_file() {
                continue;
            }
            let relative = entry.path().strip_prefix(dir).map_err(std::io::Error::other)?;
            let parts: Vec<String> =
                relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            files.push(parts.join("/"));
        }
        files.sort();
        Ok(files)
    }

    fn walk_dirs(&self, dir: &Utf8Path, prune: &dyn Fn(&Utf8Path) -> bool) -> std::io::Result<Vec<Utf8PathBuf>> {
        let mut dirs = Vec::new();
        let walker = walkdir::WalkDir::new(dir).sort_by_file_name().into_iter().filter_entry(|entry| {
            !entry.file_type().is_dir()
                || Utf8Path::from_path(entry.path()).is_none_or(|path| entry.depth() == 0 || !prune(path))
        });
        for entry in walker {
            let entry = entry.map_err(std::io::Error::other)?;
            if entry.file_type().is_dir()
                && let Some(path) = Utf8Path::from_path(entry.path())
            {
                dirs.push(path.to_path_buf());
            }
        }
        Ok(dirs)
    }
}

/// Whether a file has an execute bit set (following symlinks).
pub fn is_executable(path: &Utf8Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// Joins `relative` onto `base` and removes `.` and `..` segments without touching the disk, so that
/// "does this stay inside the bundle?" can be answered for paths that do not exist yet.
pub fn lexical_join(base: &Utf8Path, relative: &str) -> Utf8PathBuf {
    let relative = relative.replace('\\', "/");
    let mut parts: Vec<&str> = if relative.starts_with('/') {
        Vec::new()
    } else {
        base.as_str().split('/').filter(|p| !p.is_empty()).collect()
    };
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    Utf8PathBuf::from(format!("/{}", parts.join("/")))
}

/// `path` relative to `root` with `/` separators, or `None` when it lies outside `root`.
pub fn relative_to(path: &Utf8Path, root: &Utf8Path) -> Option<String> {
    let rest = path.strip_prefix(root).ok()?;
    Some(rest.components().map(|c| c.as_str()).collect::<Vec<_>>().join("/"))
}

/// `path` relative to `root`, with `..` where it lies outside (`/w/shared/x.ts` from `/w/bundle`
/// is `../shared/x.ts`): how output and cache keys name a file without depending on where the
/// bundle sits on disk. [`lexical_join`] turns it back.
pub fn relative_with_dots(path: &Utf8Path, root: &Utf8Path) -> Utf8PathBuf {
    if let Some(relative) = relative_to(path, root) {
        return relative.into();
    }
    let mut up = Utf8PathBuf::new();
    for ancestor in root.ancestors().skip(1) {
        up.push("..");
        if let Some(rest) = relative_to(path, ancestor) {
            return up.join(rest);
        }
    }
    path.to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_with_dots_turn_back() {
        for path in ["/w/bundle/src/x.ts", "/w/shared/x.ts", "/etc/hosts", "/w/bundle"] {
            let relative = relative_with_dots(path.into(), "/w/bundle".into());
            assert_eq!(lexical_join("/w/bundle".into(), relative.as_str()), Utf8PathBuf::from(path), "{relative}");
        }
        assert_eq!(relative_with_dots("/w/shared/x.ts".into(), "/w/bundle".into()), "../shared/x.ts");
    }

    #[test]
    fn lexical_join_resolves_dots() {
        assert_eq!(lexical_join("/a/b".into(), "./src/x.ts"), Utf8PathBuf::from("/a/b/src/x.ts"));
        assert_eq!(lexical_join("/a/b".into(), "../c/x.ts"), Utf8PathBuf::from("/a/c/x.ts"));
        assert_eq!(lexical_join("/a/b".into(), "src\\x.ts"), Utf8PathBuf::from("/a/b/src/x.ts"));
        assert_eq!(lexical_join("/a/b".into(), "/etc/x"), Utf8PathBuf::from("/etc/x"));
        assert_eq!(relative_to("/a/b/src/x.ts".into(), "/a/b".into()).as_deref(), Some("src/x.ts"));
        assert_eq!(relative_to("/a/c".into(), "/a/b".into()), None);
    }
}
