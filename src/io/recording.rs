//! A [`Disk`] that records what it is asked (D14): every file read is stamped just before the read
//! and hashed from the very bytes handed out; every listing and walk records the folders it saw;
//! every existence check records what it found. A build's no-op fingerprint is made of these
//! records, so what the loader and the emitter read is what the next build checks, with stamps
//! taken no later than the reads.

use std::sync::Mutex;

use camino::{Utf8Path, Utf8PathBuf};

use super::Disk;
use super::stamp::{InputSet, Listing, Recorded, stamp};

pub struct RecordingDisk<'a> {
    inner: &'a dyn Disk,
    recorded: Mutex<InputSet>,
    /// Files found to exist but not (yet) read: recorded when [`RecordingDisk::recorded`] is asked,
    /// unless a read recorded them meanwhile, so that a file checked and then read is read once.
    found: Mutex<std::collections::BTreeSet<Utf8PathBuf>>,
    /// When this disk started recording: a file recorded late is trusted only if it has not
    /// changed since.
    since: i128,
    /// Relative paths are recorded from here: a later build may run from another folder.
    cwd: Utf8PathBuf,
}

impl<'a> RecordingDisk<'a> {
    pub fn new(inner: &'a dyn Disk) -> Self {
        let cwd = std::env::current_dir().ok().and_then(|cwd| Utf8PathBuf::from_path_buf(cwd).ok()).unwrap_or_default();
        RecordingDisk {
            inner,
            recorded: Mutex::new(InputSet::default()),
            found: Mutex::new(Default::default()),
            since: super::stamp::now_ns(),
            cwd,
        }
    }

    /// Everything read so far.
    pub fn recorded(&self) -> InputSet {
        let found = std::mem::take(&mut *self.found.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        for path in found {
            // Read now, against the moment recording started: a file changed since then is
            // recorded as unknown, and the next build looks again.
            self.file(&path, || Recorded::read_file_since(&path, self.since));
        }
        self.lock().clone()
    }

    /// Records what a check found at `path`: a regular file is noted, to be read for its record
    /// only if no reader reads it; anything else (nothing, a folder, a FIFO) is recorded now, as
    /// what a read of it finds.
    fn checked(&self, path: &Utf8Path, regular_file: bool) {
        if regular_file {
            let key = Utf8PathBuf::from(self.key(path));
            if !self.lock().files.contains_key(key.as_str()) {
                self.found.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(key);
            }
        } else {
            self.file(path, || Recorded::read_file(path).0);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, InputSet> {
        self.recorded.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A file's content as this build saw it: the first record of a path wins (a later read of a
    /// changed file must not overwrite what an earlier reader saw).
    fn file(&self, path: &Utf8Path, recorded: impl FnOnce() -> Recorded) {
        let key = self.key(path);
        let mut set = self.lock();
        set.files.entry(key).or_insert_with(recorded);
    }

    fn key(&self, path: &Utf8Path) -> String {
        if path.is_absolute() { path.to_string() } else { super::lexical_join(&self.cwd, path.as_str()).into_string() }
    }

    fn dir(&self, path: &Utf8Path, listing: Listing) {
        let key = self.key(path);
        let mut set = self.lock();
        let recorded = set.dirs.get(&key);
        // A folder recorded by all its names covers a record of some of them.
        if recorded.is_none_or(|r| r.listing != Listing::All && listing == Listing::All) {
            set.dirs.insert(key, Recorded::read_listing(path, listing));
        }
    }

    /// Records every folder of a tree before it is walked: a change during the walk shows as a
    /// stamp newer than the record.
    fn tree(&self, dir: &Utf8Path) {
        for entry in walkdir::WalkDir::new(dir).follow_links(true).sort_by_file_name().into_iter().flatten() {
            if entry.file_type().is_dir()
                && let Some(path) = Utf8Path::from_path(entry.path())
            {
                self.dir(path, Listing::All);
            }
        }
        if !dir.is_dir() {
            self.file(dir, || Recorded::read_file(dir).0);
        }
    }
}

impl Disk for RecordingDisk<'_> {
    fn is_file(&self, path: &Utf8Path) -> bool {
        let is_file = self.inner.is_file(path);
        self.checked(path, is_file);
        is_file
    }

    fn is_dir(&self, path: &Utf8Path) -> bool {
        let is_dir = self.inner.is_dir(path);
        if is_dir || !self.inner.exists(path) {
            // Whether it exists, and what in it can change a build: not its every subfolder (the
            // bundle root holds the artifact a build writes).
            self.dir(path, Listing::Resolution);
        } else {
            // A file asked whether it is a folder (a handler, checked before it is read): recorded
            // once, as the file it is.
            self.file(path, || Recorded::read_file(path).0);
        }
        is_dir
    }

    fn exists(&self, path: &Utf8Path) -> bool {
        let exists = self.inner.exists(path);
        self.checked(path, exists && self.inner.is_file(path));
        exists
    }

    fn canonicalize(&self, path: &Utf8Path) -> Option<Utf8PathBuf> {
        self.inner.canonicalize(path)
    }

    fn read_to_string(&self, path: &Utf8Path) -> std::io::Result<String> {
        let before = stamp(path);
        let text = self.inner.read_to_string(path);
        match &text {
            Ok(text) => self.file(path, || Recorded::of_bytes(before, text.as_bytes())),
            Err(_) => self.file(path, || Recorded::read_file(path).0),
        }
        text
    }

    fn list_dir(&self, path: &Utf8Path) -> std::io::Result<Vec<String>> {
        self.dir(path, Listing::All);
        self.inner.list_dir(path)
    }

    fn read(&self, path: &Utf8Path) -> std::io::Result<Vec<u8>> {
        let before = stamp(path);
        let bytes = self.inner.read(path);
        match &bytes {
            Ok(bytes) => self.file(path, || Recorded::of_bytes(before, bytes)),
            Err(_) => self.file(path, || Recorded::read_file(path).0),
        }
        bytes
    }

    fn walk_tree(
        &self,
        dir: &Utf8Path,
        within: &[Utf8PathBuf],
        decide: &dyn Fn(&str, bool) -> super::tree::Decision,
    ) -> std::io::Result<super::tree::Walked> {
        // The folders, before the walk and without following a link (one may lead outside).
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name().into_iter().flatten() {
            if entry.file_type().is_dir()
                && let Some(path) = Utf8Path::from_path(entry.path())
            {
                self.dir(path, Listing::All);
            }
        }
        self.inner.walk_tree(dir, within, decide)
    }

    fn read_link(&self, path: &Utf8Path) -> Option<String> {
        self.inner.read_link(path)
    }

    fn walk_files(&self, dir: &Utf8Path) -> std::io::Result<Vec<String>> {
        self.tree(dir);
        self.inner.walk_files(dir)
    }

    // What these read is recorded by their callers, into the build's inputs.
    fn read_recorded(&self, path: &Utf8Path) -> (Recorded, Option<Vec<u8>>) {
        self.inner.read_recorded(path)
    }

    fn read_recorded_with_mode(&self, path: &Utf8Path) -> (Recorded, Option<(Vec<u8>, u32)>) {
        self.inner.read_recorded_with_mode(path)
    }

    fn record_link(&self, path: &Utf8Path) -> Recorded {
        self.inner.record_link(path)
    }

    fn record_dir(&self, path: &Utf8Path) -> Recorded {
        self.inner.record_dir(path)
    }

    fn recorded_file(&self, path: &Utf8Path) -> Option<Recorded> {
        self.lock().files.get(&self.key(path)).cloned()
    }

    fn walk_dirs(&self, dir: &Utf8Path, rules: &super::WalkRules<'_>) -> std::io::Result<Vec<super::WalkedDir>> {
        let dirs = self.inner.walk_dirs(dir, rules)?;
        for folder in dirs.iter().filter(|folder| !folder.pruned) {
            self.dir(&folder.path, Listing::All);
        }
        Ok(dirs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::RealDisk;

    #[test]
    fn what_is_read_is_recorded_as_it_was_read() {
        let temp = tempfile::tempdir().unwrap();
        let dir = Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        std::fs::write(dir.join("a.ts"), "one").unwrap();
        let disk = RecordingDisk::new(&RealDisk);
        assert_eq!(disk.read_to_string(&dir.join("a.ts")).unwrap(), "one");
        assert!(!disk.is_file(&dir.join("missing.ts")));
        assert_eq!(disk.list_dir(&dir).unwrap(), vec!["a.ts".to_string()]);
        // Saved after the read: the record keeps what was read, so it no longer matches.
        std::fs::write(dir.join("a.ts"), "two").unwrap();
        let _ = disk.read_to_string(&dir.join("a.ts"));
        let recorded = disk.recorded();
        assert!(!recorded.files[dir.join("a.ts").as_str()].file_unchanged(&dir.join("a.ts"), i128::MAX));
        assert!(recorded.files[dir.join("missing.ts").as_str()].file_unchanged(&dir.join("missing.ts"), i128::MAX));
        std::fs::write(dir.join("missing.ts"), "").unwrap();
        assert!(!recorded.files[dir.join("missing.ts").as_str()].file_unchanged(&dir.join("missing.ts"), i128::MAX));
        assert!(!recorded.dirs[dir.as_str()].dir_unchanged(&dir, i128::MIN));
    }
}
