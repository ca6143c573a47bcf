//! The I/O layer: the only module that touches the disk. Pipeline stages receive what they need
//! through [`Disk`], so they stay pure and testable, and the invariant "extraction never runs user
//! code; only the I/O layer touches the disk" holds by construction.

mod cache;

/// The permission bits an artifact keeps of a file: read, write and execute for owner, group and
/// others. The set-user-ID, set-group-ID and sticky bits are never carried into an artifact.
pub const MODE_MASK: u32 = 0o777;

/// The mode of every file agent-bundle generates (wrappers, bundles, documents, the manifest),
/// whatever the umask of the machine that builds it.
pub const GENERATED_MODE: u32 = 0o644;

/// One entry of an artifact: a file with its bytes and permission bits, or a symbolic link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtifactFile {
    /// The file's bytes; for a link, its target as written.
    pub bytes: Vec<u8>,
    pub kind: FileKind,
}

/// What an artifact entry is on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file with exactly these permission bits (within [`MODE_MASK`]).
    Regular { mode: u32 },
    /// A symbolic link, kept as a link because the config opted in (`keepOutsideLinks`).
    Symlink,
}

impl ArtifactFile {
    /// A generated file ([`GENERATED_MODE`]).
    pub fn new(bytes: Vec<u8>) -> Self {
        ArtifactFile::with_mode(bytes, GENERATED_MODE)
    }

    /// A copied file that keeps its source's permission bits.
    pub fn with_mode(bytes: Vec<u8>, mode: u32) -> Self {
        ArtifactFile { bytes, kind: FileKind::Regular { mode: mode & MODE_MASK } }
    }

    /// A symbolic link to `target`, written as it was read.
    pub fn symlink(target: &str) -> Self {
        ArtifactFile { bytes: target.as_bytes().to_vec(), kind: FileKind::Symlink }
    }

    /// The permission bits of a regular file (`None` for a link).
    pub fn mode(&self) -> Option<u32> {
        match self.kind {
            FileKind::Regular { mode } => Some(mode),
            FileKind::Symlink => None,
        }
    }
}
pub mod memory;
mod recording;
pub mod stamp;
pub mod tree;
mod writer;

pub use recording::RecordingDisk;

use camino::{Utf8Path, Utf8PathBuf};

pub use cache::{CacheStore, Lookup};
pub use writer::{Conflict, WriteError, WriteOutcome, write_artifact};

/// What the pipeline asks of the file system.
pub trait Disk {
    fn is_file(&self, path: &Utf8Path) -> bool;
    fn is_dir(&self, path: &Utf8Path) -> bool;
    /// Whether anything is at `path`, following links: also a FIFO, a socket or a device, which
    /// are neither files nor folders to the build (and are never read).
    fn exists(&self, path: &Utf8Path) -> bool {
        self.is_file(path) || self.is_dir(path)
    }
    /// The path with symlinks resolved, if it exists.
    fn canonicalize(&self, path: &Utf8Path) -> Option<Utf8PathBuf>;
    fn read_to_string(&self, path: &Utf8Path) -> std::io::Result<String>;
    /// File names in a directory, sorted so that results never depend on directory order.
    fn list_dir(&self, path: &Utf8Path) -> std::io::Result<Vec<String>>;
    fn read(&self, path: &Utf8Path) -> std::io::Result<Vec<u8>>;
    /// Every file under `dir` (following symlinks), as `/`-separated paths relative to it, sorted.
    fn walk_files(&self, dir: &Utf8Path) -> std::io::Result<Vec<String>>;
    /// A folder to ship, walked without leaving `within` (see [`tree::walk`]).
    fn walk_tree(
        &self,
        dir: &Utf8Path,
        within: &[Utf8PathBuf],
        decide: &dyn Fn(&str, bool) -> tree::Decision,
    ) -> std::io::Result<tree::Walked>;
    /// The target of a symbolic link, as written (`None` when `path` is not a link).
    fn read_link(&self, path: &Utf8Path) -> Option<String>;
    /// Every folder under `dir` (itself included) that `rules` do not skip, sorted, each with the
    /// names of its entries that are not folders (links are not followed: a link to a folder is one
    /// of them). A folder below `dir` that [`WalkRules::skip`] names is never listed; one whose
    /// listing [`WalkRules::prune`] takes is listed once and returned marked `pruned`, and nothing
    /// below it is looked at.
    fn walk_dirs(&self, dir: &Utf8Path, rules: &WalkRules<'_>) -> std::io::Result<Vec<WalkedDir>>;
    /// A file's bytes (a regular file's only), with the record of what was read for the build's
    /// inputs: stamped before it is read, so a write racing the read shows.
    fn read_recorded(&self, path: &Utf8Path) -> (stamp::Recorded, Option<Vec<u8>>);
    /// [`Disk::read_recorded`] with the file's permission bits, from the same `stat` as the stamp.
    fn read_recorded_with_mode(&self, path: &Utf8Path) -> (stamp::Recorded, Option<(Vec<u8>, u32)>);
    /// The record of a symbolic link itself (its target as written), for a link shipped as a link.
    fn record_link(&self, path: &Utf8Path) -> stamp::Recorded;
    /// The record of a folder's listing.
    fn record_dir(&self, path: &Utf8Path) -> stamp::Recorded;
    /// What this disk has already recorded of a file it read (a recording disk's, for a later
    /// reader to take instead of reading the file again); `None` for a disk that records nothing.
    fn recorded_file(&self, _path: &Utf8Path) -> Option<stamp::Recorded> {
        None
    }
}

/// What [`Disk::walk_dirs`] leaves out.
#[derive(Clone, Copy)]
pub struct WalkRules<'a> {
    /// A folder (below the walk's start) by its name: never listed.
    pub skip: &'a (dyn Fn(&str) -> bool + Sync),
    /// A folder by the names of its files: listed, and nothing below it looked at.
    pub prune: &'a (dyn Fn(&[String]) -> bool + Sync),
}

/// One folder of [`Disk::walk_dirs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkedDir {
    pub path: Utf8PathBuf,
    /// The names of its entries that are not folders, sorted.
    pub files: Vec<String>,
    /// Its stamp, taken before it was listed (`None` on a disk without stamps): while it is
    /// unchanged, so is the listing.
    pub stamp: Option<stamp::Stamp>,
    /// Whether [`WalkRules::prune`] took it (nothing below it was looked at).
    pub pruned: bool,
}

/// A folder a walk looked into, with the folders below it to look into next.
type Looked = (WalkedDir, Vec<Utf8PathBuf>);

/// How many folders one level of a walk must hold before they are listed on several threads.
const WALK_PARALLEL_FROM: usize = 64;

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

    fn exists(&self, path: &Utf8Path) -> bool {
        path.exists()
    }

    fn canonicalize(&self, path: &Utf8Path) -> Option<Utf8PathBuf> {
        let canonical = fs_err::canonicalize(path).ok()?;
        Utf8PathBuf::from_path_buf(canonical).ok()
    }

    fn read_to_string(&self, path: &Utf8Path) -> std::io::Result<String> {
        // Plain std errors: callers name the file themselves.
        String::from_utf8(read_regular(path)?)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8 text"))
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
        read_regular(path)
    }

    fn walk_tree(
        &self,
        dir: &Utf8Path,
        within: &[Utf8PathBuf],
        decide: &dyn Fn(&str, bool) -> tree::Decision,
    ) -> std::io::Result<tree::Walked> {
        tree::walk(dir, within, decide)
    }

    fn read_link(&self, path: &Utf8Path) -> Option<String> {
        let target = std::fs::read_link(path).ok()?;
        target.into_os_string().into_string().ok()
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

    fn walk_dirs(&self, dir: &Utf8Path, rules: &WalkRules<'_>) -> std::io::Result<Vec<WalkedDir>> {
        // Each folder is stamped and listed once, and its entries' types come from the listing
        // itself: no entry is stat-ed (`build --recursive` walks every folder of a monorepo on
        // every build). Stamped first, so a change racing the listing shows in the next stamp.
        let listed = |path: &Utf8Path, below_start: bool| -> std::io::Result<Looked> {
            let stamp = stamp::stamp(path);
            let (mut dirs, mut files) = (Vec::new(), Vec::new());
            for entry in std::fs::read_dir(path)? {
                let entry = entry?;
                let Ok(name) = entry.file_name().into_string() else { continue };
                if entry.file_type()?.is_dir() {
                    if !(rules.skip)(&name) {
                        dirs.push(path.join(name));
                    }
                } else {
                    files.push(name);
                }
            }
            dirs.sort();
            files.sort();
            let pruned = below_start && (rules.prune)(&files);
            if pruned {
                dirs.clear();
            }
            Ok((WalkedDir { path: path.to_path_buf(), files, stamp, pruned }, dirs))
        };
        // Level by level, a wide level's folders listed on every core: a monorepo's walk comes
        // before any of its builds can start.
        let (start, mut level) = listed(dir, false)?;
        let mut walked = vec![start];
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        while !level.is_empty() {
            let look = |sub: &Utf8PathBuf| listed(sub, true);
            let looked: Vec<std::io::Result<Looked>> = if level.len() < WALK_PARALLEL_FROM || threads == 1 {
                level.iter().map(look).collect()
            } else {
                let share = level.len().div_ceil(threads);
                std::thread::scope(|scope| {
                    let parts: Vec<_> = level
                        .chunks(share)
                        .map(|part| scope.spawn(move || part.iter().map(look).collect::<Vec<_>>()))
                        .collect();
                    parts
                        .into_iter()
                        .flat_map(|part| part.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                        .collect()
                })
            };
            let mut next = Vec::new();
            for found in looked {
                let (walked_dir, below) = found?;
                walked.push(walked_dir);
                next.extend(below);
            }
            level = next;
        }
        walked.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(walked)
    }

    fn read_recorded(&self, path: &Utf8Path) -> (stamp::Recorded, Option<Vec<u8>>) {
        stamp::Recorded::read_file(path)
    }

    fn read_recorded_with_mode(&self, path: &Utf8Path) -> (stamp::Recorded, Option<(Vec<u8>, u32)>) {
        stamp::Recorded::read_file_with_mode(path)
    }

    fn record_link(&self, path: &Utf8Path) -> stamp::Recorded {
        stamp::Recorded::read_link(path)
    }

    fn record_dir(&self, path: &Utf8Path) -> stamp::Recorded {
        stamp::Recorded::read_dir(path)
    }
}

/// What a caught panic said.
pub fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "it panicked".to_string())
}

/// How many threads a pool gets: `per_core` per core the machine has, unless the environment
/// variable `name` sets a number (for measuring; the defaults are what measured best).
pub fn threads(name: &str, per_core: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::env::var(name).ok().and_then(|v| v.parse().ok()).filter(|n: &usize| *n > 0).unwrap_or(cores * per_core)
}

/// A file's permission bits within [`MODE_MASK`] (following symlinks), if it exists.
pub fn mode(path: &Utf8Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).ok().map(|m| m.permissions().mode() & MODE_MASK)
}

/// The most a build reads of any one input file: sources, configs and payload files larger than
/// this are refused rather than read into memory (a config linked to `/dev/zero` would be read
/// forever).
pub const MAX_INPUT_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Reads a regular file, and only a regular file: a FIFO, a socket or a device (or a link to one) is
/// refused without blocking on it, and so is a file over [`MAX_INPUT_FILE_BYTES`]. The error says
/// which, for the caller to name the file.
pub fn read_regular(path: &Utf8Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    // Non-blocking, so that opening a FIFO with no writer returns at once; the mode is checked on
    // the opened file itself, so the answer cannot change between the check and the read.
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    let metadata = file.metadata()?;
    let kind = metadata.file_type();
    let refuse =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("it is {what}, not a regular file"));
    if kind.is_fifo() {
        return Err(refuse("a FIFO"));
    }
    if kind.is_char_device() || kind.is_block_device() {
        return Err(refuse("a device"));
    }
    if kind.is_socket() {
        return Err(refuse("a socket"));
    }
    if !kind.is_file() {
        return Err(refuse("a folder"));
    }
    if metadata.len() > MAX_INPUT_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "it is {} bytes, over the {} MiB a build reads of one file",
                metadata.len(),
                MAX_INPUT_FILE_BYTES >> 20
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    // A file that grows while it is read stops at the limit too.
    file.take(MAX_INPUT_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it grew past the limit a build reads of one file",
        ));
    }
    Ok(bytes)
}

/// The import specifier leading from one artifact file to another (`./x.mjs`, `../lib/y.mjs`).
pub fn relative_specifier(from_file: &str, to_file: &str) -> String {
    let from_dirs: Vec<&str> = from_file.split('/').collect::<Vec<_>>()[..from_file.split('/').count() - 1].to_vec();
    let to_parts: Vec<&str> = to_file.split('/').collect();
    let common = from_dirs.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    let ups = from_dirs.len() - common;
    let rest = to_parts[common..].join("/");
    if ups == 0 { format!("./{rest}") } else { format!("{}{rest}", "../".repeat(ups)) }
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
