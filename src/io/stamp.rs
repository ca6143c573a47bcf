//! File stamps: what git's index trusts about a file without reading it (size, mtime, ctime, inode),
//! kept next to the SHA-256 of its bytes. An input whose stamp is unchanged is trusted unread; a
//! changed stamp means re-hashing it, so a `touch` costs one read and never a rebuild.
//!
//! A stamp taken in the same clock tick as the record it sits in cannot be trusted: the file may be
//! rewritten within that tick without its stamp changing ("racily clean" in git's words). Callers
//! therefore pass the modification time of the record itself (`trusted_before`), and only stamps
//! strictly older than it are taken at their word.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;

use camino::Utf8Path;
use serde::{Deserialize, Serialize};

use crate::vocabulary::digest::sha256_hex;

/// Stored as `[len, mtime_ns, ctime_ns, ino]`: fingerprints hold one per input and are read on every
/// build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(u64, i128, i128, u64)", into = "(u64, i128, i128, u64)")]
pub struct Stamp {
    pub len: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
    pub ino: u64,
}

impl From<(u64, i128, i128, u64)> for Stamp {
    fn from((len, mtime_ns, ctime_ns, ino): (u64, i128, i128, u64)) -> Stamp {
        Stamp { len, mtime_ns, ctime_ns, ino }
    }
}

impl From<Stamp> for (u64, i128, i128, u64) {
    fn from(stamp: Stamp) -> Self {
        (stamp.len, stamp.mtime_ns, stamp.ctime_ns, stamp.ino)
    }
}

impl Stamp {
    fn of(metadata: &std::fs::Metadata) -> Stamp {
        Stamp {
            len: metadata.len(),
            mtime_ns: i128::from(metadata.mtime()) * 1_000_000_000 + i128::from(metadata.mtime_nsec()),
            ctime_ns: i128::from(metadata.ctime()) * 1_000_000_000 + i128::from(metadata.ctime_nsec()),
            ino: metadata.ino(),
        }
    }
}

/// The stamp of a file or folder, following symlinks; `None` when it does not exist.
pub fn stamp(path: &Utf8Path) -> Option<Stamp> {
    std::fs::metadata(path).ok().map(|m| Stamp::of(&m))
}

/// Stamps shared by the builds of one `build --recursive` (each of its worker threads holds the
/// same): taken once, the first time any build asks. Only for what no build writes.
pub type SharedStamps = std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, Option<Stamp>>>>;

thread_local! {
    static SHARED: std::cell::RefCell<Option<SharedStamps>> = const { std::cell::RefCell::new(None) };
}

/// Makes this thread's stamp checks of what lies above a bundle root go through `shared` (`None`:
/// each check stats anew).
pub fn share_stamps_on_this_thread(shared: Option<SharedStamps>) {
    SHARED.with(|cell| *cell.borrow_mut() = shared);
}

fn shared_stamp(path: &Utf8Path) -> Option<Stamp> {
    SHARED.with(|cell| match &*cell.borrow() {
        Some(shared) => {
            let mut stamps = shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *stamps.entry(path.to_string()).or_insert_with(|| stamp(path))
        }
        None => stamp(path),
    })
}

/// The stamp of an entry itself (`lstat`: a link is not followed).
pub fn own_stamp(path: &Utf8Path) -> Option<Stamp> {
    std::fs::symlink_metadata(path).ok().map(|m| Stamp::of(&m))
}

/// A file's modification time in nanoseconds, for `trusted_before`.
pub fn mtime_ns(path: &Utf8Path) -> Option<i128> {
    stamp(path).map(|s| s.mtime_ns)
}

/// What a build read of one input: its stamp when read (`None`: it did not exist) and a digest of
/// its content (the bytes of a file; the sorted entry names of a folder, or of those of its entries
/// that can change how an import resolves).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stamp: Option<Stamp>,
    pub sha256: String,
    /// For files whose mode is part of what the build produces (payloads, packages shipped whole):
    /// their permission bits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
    /// For folders: which of their entries the digest covers.
    #[serde(default, skip_serializing_if = "Listing::is_all")]
    pub listing: Listing,
    /// What the digest covers, for entries that are not read (links are not followed).
    #[serde(default, skip_serializing_if = "Content::is_bytes")]
    pub content: Content,
}

/// What a file's digest covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Content {
    /// Its bytes (following a link).
    #[default]
    Bytes,
    /// Its `lstat` size only: what a package shipped whole leaves out, measured and never read.
    Size,
    /// The target of a link, which is not followed: a link shipped as a link.
    Link,
}

impl Content {
    fn is_bytes(&self) -> bool {
        *self == Content::Bytes
    }
}

/// Which entries of a folder its digest covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Listing {
    /// Every name (payload folders, whose every file is shipped).
    #[default]
    All,
    /// What can change how an import resolves from the folder: its files and its `node_modules`.
    /// Other folders (the artifact a build writes beside its sources, say) and hidden entries (the
    /// output's lock file) cannot, since a file always wins over a folder of the same stem.
    Resolution,
}

impl Listing {
    fn is_all(&self) -> bool {
        *self == Listing::All
    }
}

/// The digest recorded for an input that does not exist.
pub const ABSENT: &str = "absent";

/// The digest recorded for an input whose content at the moment it was read is not known (it
/// changed while the build ran): it never matches, so the next build reads it again.
pub const UNKNOWN: &str = "unknown";

/// How far a file system's timestamps may lag the clock a build reads its start time from: file
/// times come from the kernel's coarse clock, up to one scheduler tick (10 ms at 100 Hz) behind.
const FILE_CLOCK_LAG_NS: i128 = 20_000_000;

/// The wall clock, in nanoseconds since the epoch, as file stamps count.
pub fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| i128::try_from(elapsed.as_nanos()).unwrap_or(i128::MAX))
}

/// Whether a stamp is as new as the file clock's granularity allows at `now`: a write in the same
/// tick would keep it, so it cannot vouch for content ("racily clean" in git's words).
fn racy(stamp: Stamp, now: i128) -> bool {
    stamp.ctime_ns.max(stamp.mtime_ns) >= now - FILE_CLOCK_LAG_NS
}

/// Whether a stamp taken at `now` vouches for what its entry holds: it is older than the file
/// clock's granularity, so a later change cannot keep it.
pub fn settled(stamp: Stamp, now: i128) -> bool {
    !racy(stamp, now)
}

impl Recorded {
    /// Records `bytes`, read from a file whose stamp, taken just before the read, is `stamp`. A racy
    /// stamp is left out, so the record is checked by content.
    pub fn of_bytes(stamp: Option<Stamp>, bytes: &[u8]) -> Recorded {
        let stamp = stamp.filter(|stamp| !racy(*stamp, now_ns()));
        Recorded { stamp, sha256: sha256_hex(bytes), mode: None, listing: Listing::All, content: Content::Bytes }
    }

    pub fn absent() -> Recorded {
        Recorded { stamp: None, sha256: ABSENT.to_string(), mode: None, listing: Listing::All, content: Content::Bytes }
    }

    /// A record that never matches: what was read is not known.
    pub fn unknown() -> Recorded {
        Recorded { sha256: UNKNOWN.to_string(), ..Recorded::absent() }
    }

    /// A file another reader (the bundler's resolver) read at some moment since `read_since`,
    /// stamped and hashed now. A stamp taken later than the read cannot vouch for what was read:
    /// when the file (or, for a file that is not there, the nearest folder that is) changed since
    /// `read_since`, or changes while it is read here, the record is [`Recorded::unknown`].
    pub fn read_file_since(path: &Utf8Path, read_since: i128) -> Recorded {
        let before = stamp(path);
        let bytes = crate::io::read_regular(path);
        if stamp(path) != before {
            return Recorded::unknown();
        }
        match (before, bytes) {
            (Some(stamp), Ok(bytes)) if !racy(stamp, read_since) => Recorded::of_bytes(Some(stamp), &bytes),
            (None, Err(_)) if absent_since(path, read_since) => Recorded::absent(),
            _ => Recorded::unknown(),
        }
    }

    /// [`Recorded::read_file_since`] for a folder's listing.
    pub fn read_listing_since(path: &Utf8Path, listing: Listing, read_since: i128) -> Recorded {
        let before = stamp(path);
        let digest = listing_digest(path, listing);
        if stamp(path) != before {
            return Recorded::unknown();
        }
        match before {
            Some(stamp) if !racy(stamp, read_since) => Recorded {
                stamp: Some(stamp).filter(|s| !racy(*s, now_ns())),
                sha256: digest,
                listing,
                ..Recorded::absent()
            },
            None if absent_since(path, read_since) => Recorded { listing, ..Recorded::absent() },
            _ => Recorded::unknown(),
        }
    }

    /// This record, taken before another reader read the input, if the input is still exactly as
    /// recorded (the same stamp; by content when the record has none); otherwise
    /// [`Recorded::unknown`], since the reader may have seen something in between.
    pub fn verified(self, path: &Utf8Path, is_dir: bool) -> Recorded {
        let now = stamp(path);
        let same = match (self.stamp, now) {
            (Some(then), Some(now)) => then == now,
            (None, None) => self.sha256 == ABSENT,
            (None, Some(_)) if is_dir => listing_digest(path, self.listing) == self.sha256,
            (None, Some(_)) => crate::io::read_regular(path).is_ok_and(|bytes| sha256_hex(&bytes) == self.sha256),
            (Some(_), None) => false,
        };
        if same { self } else { Recorded::unknown() }
    }

    /// Stats, then reads a file (in that order, so a write racing the read shows in the next stamp).
    pub fn read_file(path: &Utf8Path) -> (Recorded, Option<Vec<u8>>) {
        let stamp = stamp(path);
        match crate::io::read_regular(path) {
            Ok(bytes) => (Recorded::of_bytes(stamp, &bytes), Some(bytes)),
            Err(_) => (Recorded::absent(), None),
        }
    }

    /// [`Recorded::read_file`] for a file shipped with its mode: the permission bits come from the
    /// same `stat` as the stamp, so a `chmod` racing the build shows in the next stamp.
    pub fn read_file_with_mode(path: &Utf8Path) -> (Recorded, Option<(Vec<u8>, u32)>) {
        use std::os::unix::fs::PermissionsExt;
        let Ok(metadata) = std::fs::metadata(path) else { return (Recorded::absent(), None) };
        let mode = metadata.permissions().mode() & crate::io::MODE_MASK;
        match crate::io::read_regular(path) {
            Ok(bytes) => {
                let mut recorded = Recorded::of_bytes(Some(Stamp::of(&metadata)), &bytes);
                recorded.mode = Some(mode);
                (recorded, Some((bytes, mode)))
            }
            Err(_) => (Recorded::absent(), None),
        }
    }

    /// Records an entry by its own size, without following or reading it.
    pub fn measure(path: &Utf8Path) -> Recorded {
        Recorded::unread(path, Content::Size)
    }

    /// Records a link by its target, without following it.
    pub fn read_link(path: &Utf8Path) -> Recorded {
        Recorded::unread(path, Content::Link)
    }

    fn unread(path: &Utf8Path, content: Content) -> Recorded {
        let stamp = own_stamp(path);
        Recorded { stamp, sha256: unread_digest(path, content), content, ..Recorded::absent() }
    }

    /// Records a folder by the names it holds.
    pub fn read_dir(path: &Utf8Path) -> Recorded {
        Recorded::read_listing(path, Listing::All)
    }

    /// Records a folder by the names that can change how an import resolves from it.
    pub fn read_resolution_dir(path: &Utf8Path) -> Recorded {
        Recorded::read_listing(path, Listing::Resolution)
    }

    /// Stamps, then lists a folder; a racy stamp is left out, so the record is checked by listing.
    pub fn read_listing(path: &Utf8Path, listing: Listing) -> Recorded {
        let stamp = stamp(path);
        let sha256 = listing_digest(path, listing);
        Recorded { stamp: stamp.filter(|s| !racy(*s, now_ns())), sha256, mode: None, listing, content: Content::Bytes }
    }

    /// Whether the file still holds what was recorded: trusted by its stamp when that is unchanged
    /// and older than `trusted_before`, otherwise read and hashed again.
    pub fn file_unchanged(&self, path: &Utf8Path, trusted_before: i128) -> bool {
        self.file_unchanged_as(path, trusted_before, false)
    }

    fn file_unchanged_as(&self, path: &Utf8Path, trusted_before: i128, shared: bool) -> bool {
        if self.stamp_trusted_as(path, trusted_before, shared) {
            return true;
        }
        if self.content != Content::Bytes {
            return unread_digest(path, self.content) == self.sha256;
        }
        if self.mode.is_some() && self.mode != crate::io::mode(path) {
            return false;
        }
        match crate::io::read_regular(path) {
            Ok(bytes) => sha256_hex(&bytes) == self.sha256,
            Err(_) => self.sha256 == ABSENT,
        }
    }

    /// Whether the folder still holds the same names (see [`Recorded::file_unchanged`]).
    pub fn dir_unchanged(&self, path: &Utf8Path, trusted_before: i128) -> bool {
        self.stamp_trusted(path, trusted_before) || listing_digest(path, self.listing) == self.sha256
    }

    fn stamp_trusted(&self, path: &Utf8Path, trusted_before: i128) -> bool {
        self.stamp_trusted_as(path, trusted_before, false)
    }

    /// [`Recorded::stamp_trusted`], with the stamp from this thread's [`SharedStamps`] when `shared`.
    fn stamp_trusted_as(&self, path: &Utf8Path, trusted_before: i128, shared: bool) -> bool {
        let now = match self.content {
            Content::Bytes if shared => shared_stamp(path),
            Content::Bytes => stamp(path),
            _ => own_stamp(path),
        };
        match (self.stamp, now) {
            (Some(then), Some(now)) => then == now && then.mtime_ns < trusted_before,
            (None, None) => self.sha256 == ABSENT,
            _ => false,
        }
    }
}

/// The digest of an entry that is not read: its `lstat` size, or its link target.
fn unread_digest(path: &Utf8Path, content: Content) -> String {
    let digest = match content {
        Content::Size => std::fs::symlink_metadata(path).ok().map(|m| format!("size {}", m.len())),
        Content::Link => std::fs::read_link(path).ok().map(|t| sha256_hex(t.as_os_str().as_encoded_bytes())),
        Content::Bytes => crate::io::read_regular(path).ok().map(|bytes| sha256_hex(&bytes)),
    };
    digest.unwrap_or_else(|| ABSENT.to_string())
}

/// Whether a path that does not exist now did not exist at `since` either: the nearest folder that
/// exists has not changed since (a removal changes the folder that held the path).
fn absent_since(path: &Utf8Path, since: i128) -> bool {
    path.ancestors().skip(1).find_map(stamp).is_some_and(|folder| !racy(folder, since))
}

fn listing_digest(path: &Utf8Path, listing: Listing) -> String {
    let Ok(entries) = std::fs::read_dir(path) else { return ABSENT.to_string() };
    let counts = |entry: &std::fs::DirEntry| match listing {
        Listing::All => true,
        Listing::Resolution => {
            let name = entry.file_name();
            name == "node_modules" || (!name.to_string_lossy().starts_with('.') && !entry.path().is_dir())
        }
    };
    let mut names: Vec<String> =
        entries.flatten().filter(|e| counts(e)).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    sha256_hex(names.join("\n").as_bytes())
}

/// Files and folders a build read, by absolute path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputSet {
    #[serde(default)]
    pub files: BTreeMap<String, Recorded>,
    #[serde(default)]
    pub dirs: BTreeMap<String, Recorded>,
}

impl InputSet {
    /// Whether every recorded file and folder is as it was; stops at the first difference.
    ///
    /// A folder whose stamp is trusted unchanged has had no entry added, removed or renamed in it
    /// since (each of those changes its modification time), so what was recorded absent in it is
    /// still absent, unlooked-at: most of what a build records absent (the licence and readme
    /// candidates, the other config names, a `node_modules`) sits in a folder it also recorded.
    ///
    /// What lies directly in a folder above `root` (each ancestor's `package.json`, `tsconfig.json`
    /// and `node_modules`, which every bundle of a monorepo records) is stamped once per
    /// `build --recursive` where the thread shares its stamps ([`SharedStamps`]): no build writes
    /// there.
    pub fn unchanged(&self, trusted_before: i128, root: &Utf8Path) -> bool {
        let above_root = |path: &str| {
            Utf8Path::new(path)
                .parent()
                .is_some_and(|parent| root.strip_prefix(parent).is_ok_and(|rest| !rest.as_str().is_empty()))
        };
        // Parents sort before their children: a folder is judged before what it holds.
        let mut steady: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let absent_in_steady = |path: &str, recorded: &Recorded, steady: &std::collections::HashSet<&str>| {
            recorded.stamp.is_none()
                && recorded.sha256 == ABSENT
                && Utf8Path::new(path).parent().is_some_and(|parent| steady.contains(parent.as_str()))
        };
        for (path, recorded) in &self.dirs {
            if absent_in_steady(path, recorded, &steady) {
                continue;
            }
            if recorded.stamp_trusted_as(Utf8Path::new(path), trusted_before, above_root(path)) {
                steady.insert(path);
            } else if listing_digest(Utf8Path::new(path), recorded.listing) != recorded.sha256 {
                return false;
            }
        }
        self.files.iter().all(|(path, recorded)| {
            absent_in_steady(path, recorded, &steady)
                || recorded.file_unchanged_as(Utf8Path::new(path), trusted_before, above_root(path))
        })
    }

    /// The same records keyed relative to `root` (see [`crate::io::relative_with_dots`]): what a
    /// cache entry holds, so that two checkouts of one tree share it (D14).
    pub fn relative_to(&self, root: &Utf8Path) -> InputSet {
        let rekey = |map: &BTreeMap<String, Recorded>| {
            map.iter()
                .map(|(path, recorded)| {
                    (crate::io::relative_with_dots(Utf8Path::new(path), root).into_string(), recorded.clone())
                })
                .collect()
        };
        InputSet { files: rekey(&self.files), dirs: rekey(&self.dirs) }
    }

    /// The records of [`InputSet::relative_to`], keyed by absolute path under `root` again.
    pub fn resolved_under(&self, root: &Utf8Path) -> InputSet {
        let rekey = |map: &BTreeMap<String, Recorded>| {
            map.iter()
                .map(|(path, recorded)| (crate::io::lexical_join(root, path).into_string(), recorded.clone()))
                .collect()
        };
        InputSet { files: rekey(&self.files), dirs: rekey(&self.dirs) }
    }

    pub fn extend(&mut self, other: &InputSet) {
        self.files.extend(other.files.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.dirs.extend(other.dirs.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_touched_file_is_rehashed_and_an_edited_one_is_changed() {
        let temp = tempfile::tempdir().unwrap();
        let path = camino::Utf8PathBuf::from_path_buf(temp.path().join("a.ts")).unwrap();
        std::fs::write(&path, "one").unwrap();
        let (recorded, _) = Recorded::read_file(&path);
        // Trusted by stamp when the record is newer than the file.
        assert!(recorded.file_unchanged(&path, i128::MAX));
        // Same bytes with a new stamp: re-hashed, unchanged.
        std::fs::write(&path, "one").unwrap();
        assert!(recorded.file_unchanged(&path, i128::MAX));
        // Same length, other bytes, and the stamp cannot be trusted (racy): changed.
        std::fs::write(&path, "two").unwrap();
        assert!(!recorded.file_unchanged(&path, i128::MIN));
        std::fs::remove_file(&path).unwrap();
        assert!(!recorded.file_unchanged(&path, i128::MAX));
        let (absent, _) = Recorded::read_file(&path);
        assert!(absent.file_unchanged(&path, i128::MAX));
    }

    #[test]
    fn a_file_recorded_absent_in_a_recorded_folder_is_seen_when_it_appears() {
        let temp = tempfile::tempdir().unwrap();
        let dir = camino::Utf8PathBuf::from_path_buf(temp.path().join("root")).unwrap();
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("a.ts"), "").unwrap();
        // Old enough that the folder's stamp is not racy.
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut set = InputSet::default();
        set.dirs.insert(dir.to_string(), Recorded::read_listing(&dir, Listing::Resolution));
        set.dirs.insert(
            dir.join("node_modules").to_string(),
            Recorded::read_listing(&dir.join("node_modules"), Listing::All),
        );
        set.files.insert(dir.join("LICENSE").to_string(), Recorded::read_file(&dir.join("LICENSE")).0);
        assert!(set.dirs[dir.as_str()].stamp.is_some(), "the folder is stamped");
        assert!(set.unchanged(i128::MAX, &dir));
        for appearing in ["LICENSE", "node_modules"] {
            let path = dir.join(appearing);
            if appearing == "LICENSE" {
                std::fs::write(&path, "MIT").unwrap()
            } else {
                std::fs::create_dir(&path).unwrap()
            }
            assert!(!set.unchanged(i128::MAX, &dir), "{appearing} appeared unseen");
            if appearing == "LICENSE" {
                std::fs::remove_file(&path).unwrap()
            } else {
                std::fs::remove_dir(&path).unwrap()
            }
        }
    }

    #[test]
    fn shared_stamps_cover_only_what_lies_above_the_root_and_only_one_build() {
        let temp = tempfile::tempdir().unwrap();
        let top = camino::Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        let root = top.join("bundle");
        std::fs::create_dir(&root).unwrap();
        let mut set = InputSet::default();
        for path in [top.join("package.json"), root.join("LICENSE")] {
            set.files.insert(path.to_string(), Recorded::read_file(&path).0);
        }
        share_stamps_on_this_thread(Some(SharedStamps::default()));
        assert!(set.unchanged(i128::MAX, &root));
        // Inside the root a change is seen within the same recursive build ...
        std::fs::write(root.join("LICENSE"), "MIT").unwrap();
        assert!(!set.unchanged(i128::MAX, &root));
        std::fs::remove_file(root.join("LICENSE")).unwrap();
        // ... above it, the stamp taken first stands for the rest of that build, and the next
        // build (new shared stamps) sees the change.
        std::fs::write(top.join("package.json"), "{}").unwrap();
        assert!(set.unchanged(i128::MAX, &root), "taken once per build");
        share_stamps_on_this_thread(Some(SharedStamps::default()));
        assert!(!set.unchanged(i128::MAX, &root));
        share_stamps_on_this_thread(None);
        assert!(!set.unchanged(i128::MAX, &root));
    }

    #[test]
    fn a_folder_changes_when_its_names_change() {
        let temp = tempfile::tempdir().unwrap();
        let dir = camino::Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        std::fs::write(dir.join("a.ts"), "").unwrap();
        let recorded = Recorded::read_dir(&dir);
        assert!(recorded.dir_unchanged(&dir, i128::MIN));
        std::fs::write(dir.join("a.js"), "").unwrap();
        assert!(!recorded.dir_unchanged(&dir, i128::MIN));
    }

    #[test]
    fn a_resolution_folder_ignores_subfolders_and_hidden_files_but_not_node_modules() {
        let temp = tempfile::tempdir().unwrap();
        let dir = camino::Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        std::fs::write(dir.join("a.ts"), "").unwrap();
        let recorded = Recorded::read_resolution_dir(&dir);
        std::fs::create_dir(dir.join("artifact")).unwrap();
        std::fs::write(dir.join(".artifact.lock"), "").unwrap();
        assert!(recorded.dir_unchanged(&dir, i128::MIN));
        std::fs::create_dir(dir.join("node_modules")).unwrap();
        assert!(!recorded.dir_unchanged(&dir, i128::MIN));
    }
}
