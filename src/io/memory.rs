//! A file system in memory, behind the same [`Disk`] door as the real one: for tests that run the
//! pipeline's stages (loading, the bundle stage for prebuilt handlers, emitting) without touching
//! the disk. Paths are absolute and `/`-separated; folders exist where something lies inside them
//! or where [`MemoryDisk::dir`] put them; a link names its target as written (relative to its
//! folder, or absolute). Nothing here has a stamp: every record carries only its digest.

use std::collections::BTreeMap;

use camino::{Utf8Path, Utf8PathBuf};

use super::stamp::{Content, Recorded};
use super::tree::{Decision, Link, Walked, WalkedFile};
use super::{Disk, WalkRules, WalkedDir, lexical_join};
use crate::vocabulary::digest::sha256_hex;

/// One entry of a [`MemoryDisk`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    File { bytes: Vec<u8>, mode: u32 },
    Dir,
    Link(String),
}

/// How many links a path may pass through before it is taken as a loop.
const MAX_LINKS: usize = 40;

#[derive(Clone, Debug, Default)]
pub struct MemoryDisk {
    entries: BTreeMap<Utf8PathBuf, Entry>,
}

impl MemoryDisk {
    pub fn new() -> Self {
        Self::default()
    }

    /// Puts a file (mode 0644) at `path`, and the folders above it.
    pub fn file(&mut self, path: impl AsRef<Utf8Path>, bytes: impl Into<Vec<u8>>) -> &mut Self {
        self.file_with_mode(path, bytes, 0o644)
    }

    pub fn file_with_mode(&mut self, path: impl AsRef<Utf8Path>, bytes: impl Into<Vec<u8>>, mode: u32) -> &mut Self {
        let path = path.as_ref();
        self.parents(path);
        self.entries.insert(path.to_path_buf(), Entry::File { bytes: bytes.into(), mode });
        self
    }

    /// Puts an (empty) folder at `path`, and the folders above it.
    pub fn dir(&mut self, path: impl AsRef<Utf8Path>) -> &mut Self {
        let path = path.as_ref();
        self.parents(path);
        self.entries.insert(path.to_path_buf(), Entry::Dir);
        self
    }

    /// Puts a symbolic link at `path` naming `target`.
    pub fn link(&mut self, path: impl AsRef<Utf8Path>, target: &str) -> &mut Self {
        let path = path.as_ref();
        self.parents(path);
        self.entries.insert(path.to_path_buf(), Entry::Link(target.to_string()));
        self
    }

    fn parents(&mut self, path: &Utf8Path) {
        for ancestor in path.ancestors().skip(1) {
            self.entries.entry(ancestor.to_path_buf()).or_insert(Entry::Dir);
        }
    }

    /// `path` with every link along it followed, if it leads somewhere that exists.
    fn resolve(&self, path: &Utf8Path) -> Option<Utf8PathBuf> {
        let mut resolved = Utf8PathBuf::from("/");
        let mut pending: Vec<String> = path.components().rev().map(|c| c.as_str().to_string()).collect();
        let mut links = 0;
        while let Some(part) = pending.pop() {
            match part.as_str() {
                "/" | "." => continue,
                ".." => {
                    resolved.pop();
                    continue;
                }
                _ => resolved.push(&part),
            }
            match self.entries.get(&resolved)? {
                Entry::Link(target) => {
                    links += 1;
                    if links > MAX_LINKS {
                        return None;
                    }
                    resolved.pop();
                    let target = lexical_join(&resolved, target);
                    resolved = Utf8PathBuf::from("/");
                    pending.extend(target.components().rev().map(|c| c.as_str().to_string()));
                }
                Entry::File { .. } if !pending.is_empty() => return None,
                _ => {}
            }
        }
        Some(resolved)
    }

    fn entry(&self, path: &Utf8Path) -> Option<&Entry> {
        self.entries.get(&self.resolve(path)?)
    }

    fn children(&self, dir: &Utf8Path) -> impl Iterator<Item = (&Utf8PathBuf, &Entry)> {
        self.entries
            .range(dir.to_path_buf()..)
            .skip(1)
            .take_while(move |(p, _)| p.starts_with(dir))
            .filter(move |(p, _)| p.parent() == Some(dir))
    }

    fn file_bytes(&self, path: &Utf8Path) -> std::io::Result<(&[u8], u32)> {
        match self.entry(path) {
            Some(Entry::File { bytes, mode }) => Ok((bytes, *mode)),
            Some(_) => Err(std::io::Error::other(format!("{path} is not a regular file"))),
            None => Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
        }
    }

    fn walk(
        &self,
        dir: &Utf8Path,
        prefix: &str,
        within: &[Utf8PathBuf],
        decide: &dyn Fn(&str, bool) -> Decision,
        walked: &mut Walked,
        ancestors: &mut Vec<Utf8PathBuf>,
    ) {
        let Some(real) = self.resolve(dir) else { return };
        // A link back into a folder that holds it would never end.
        if ancestors.contains(&real) {
            return;
        }
        ancestors.push(real.clone());
        walked.dirs.push(real.clone());
        let children: Vec<(Utf8PathBuf, Entry)> =
            self.children(&real).map(|(path, entry)| (path.clone(), entry.clone())).collect();
        for (path, entry) in children {
            let name = path.file_name().unwrap_or_default();
            let relative = if prefix.is_empty() { name.to_string() } else { format!("{prefix}/{name}") };
            let target = match &entry {
                Entry::Link(written) => match self.resolve(&path) {
                    Some(target) if within.iter().any(|w| target.starts_with(w)) => Some(target),
                    Some(_) => {
                        let link = Link { path: relative, at: path.clone(), target: written.clone() };
                        walked.outside.push(link);
                        continue;
                    }
                    None => {
                        let link = Link { path: relative, at: path.clone(), target: written.clone() };
                        walked.broken.push(link);
                        continue;
                    }
                },
                _ => Some(path.clone()),
            };
            let target = target.expect("set above");
            let is_dir = matches!(self.entries.get(&target), Some(Entry::Dir));
            match decide(&relative, is_dir) {
                Decision::Ship if is_dir => self.walk(&target, &relative, within, decide, walked, ancestors),
                Decision::Ship => walked.files.push(WalkedFile { path: relative, real: target }),
                Decision::LeaveOut | Decision::Skip => {}
            }
        }
        ancestors.pop();
    }
}

impl Disk for MemoryDisk {
    fn is_file(&self, path: &Utf8Path) -> bool {
        matches!(self.entry(path), Some(Entry::File { .. }))
    }

    fn is_dir(&self, path: &Utf8Path) -> bool {
        matches!(self.entry(path), Some(Entry::Dir))
    }

    fn canonicalize(&self, path: &Utf8Path) -> Option<Utf8PathBuf> {
        self.resolve(path).filter(|resolved| self.entries.contains_key(resolved) || resolved == "/")
    }

    fn read_to_string(&self, path: &Utf8Path) -> std::io::Result<String> {
        let (bytes, _) = self.file_bytes(path)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8 text"))
    }

    fn list_dir(&self, path: &Utf8Path) -> std::io::Result<Vec<String>> {
        let real = self.resolve(path).filter(|p| matches!(self.entries.get(p), Some(Entry::Dir)));
        let real = real.ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))?;
        Ok(self.children(&real).filter_map(|(p, _)| p.file_name().map(str::to_string)).collect())
    }

    fn read(&self, path: &Utf8Path) -> std::io::Result<Vec<u8>> {
        Ok(self.file_bytes(path)?.0.to_vec())
    }

    fn walk_files(&self, dir: &Utf8Path) -> std::io::Result<Vec<String>> {
        let walked = self.walk_tree(dir, &[Utf8PathBuf::from("/")], &|_, _| Decision::Ship)?;
        Ok(walked.files.into_iter().map(|f| f.path).collect())
    }

    fn walk_tree(
        &self,
        dir: &Utf8Path,
        within: &[Utf8PathBuf],
        decide: &dyn Fn(&str, bool) -> Decision,
    ) -> std::io::Result<Walked> {
        if !self.is_dir(dir) {
            return Err(std::io::Error::from(std::io::ErrorKind::NotFound));
        }
        let mut walked = Walked::default();
        self.walk(dir, "", within, decide, &mut walked, &mut Vec::new());
        walked.files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(walked)
    }

    fn read_link(&self, path: &Utf8Path) -> Option<String> {
        match self.entries.get(path)? {
            Entry::Link(target) => Some(target.clone()),
            _ => None,
        }
    }

    fn walk_dirs(&self, dir: &Utf8Path, rules: &WalkRules<'_>) -> std::io::Result<Vec<WalkedDir>> {
        let files_of = |dir: &Utf8Path| -> Vec<String> {
            let mut names: Vec<String> = self
                .children(dir)
                .filter(|(_, entry)| **entry != Entry::Dir)
                .filter_map(|(path, _)| path.file_name().map(str::to_string))
                .collect();
            names.sort();
            names
        };
        let mut walked = vec![WalkedDir { path: dir.to_path_buf(), files: files_of(dir), stamp: None, pruned: false }];
        let mut pending = vec![dir.to_path_buf()];
        while let Some(next) = pending.pop() {
            for (path, entry) in self.children(&next) {
                if *entry != Entry::Dir || (rules.skip)(path.file_name().unwrap_or("")) {
                    continue;
                }
                let files = files_of(path);
                let pruned = (rules.prune)(&files);
                if !pruned {
                    pending.push(path.clone());
                }
                walked.push(WalkedDir { path: path.clone(), files, stamp: None, pruned });
            }
        }
        walked.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(walked)
    }

    fn read_recorded(&self, path: &Utf8Path) -> (Recorded, Option<Vec<u8>>) {
        match self.file_bytes(path) {
            Ok((bytes, _)) => (Recorded::of_bytes(None, bytes), Some(bytes.to_vec())),
            Err(_) => (Recorded::absent(), None),
        }
    }

    fn read_recorded_with_mode(&self, path: &Utf8Path) -> (Recorded, Option<(Vec<u8>, u32)>) {
        match self.file_bytes(path) {
            Ok((bytes, mode)) => {
                let recorded = Recorded { mode: Some(mode), ..Recorded::of_bytes(None, bytes) };
                (recorded, Some((bytes.to_vec(), mode)))
            }
            Err(_) => (Recorded::absent(), None),
        }
    }

    fn record_link(&self, path: &Utf8Path) -> Recorded {
        match self.read_link(path) {
            Some(target) => Recorded { content: Content::Link, ..Recorded::of_bytes(None, target.as_bytes()) },
            None => Recorded::absent(),
        }
    }

    fn record_dir(&self, path: &Utf8Path) -> Recorded {
        match self.list_dir(path) {
            Ok(names) => Recorded { sha256: sha256_hex(names.join("\0").as_bytes()), ..Recorded::absent() },
            Err(_) => Recorded::absent(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_folders_and_links_read_as_on_a_real_disk() {
        let mut disk = MemoryDisk::new();
        disk.file("/w/b/src/a.ts", "export default 1;\n").link("/w/b/lib", "src").link("/w/b/out", "/elsewhere/x");
        assert!(disk.is_file("/w/b/src/a.ts".into()) && disk.is_dir("/w/b/src".into()) && disk.is_dir("/w".into()));
        assert!(disk.is_file("/w/b/lib/a.ts".into()), "followed through a link");
        assert_eq!(disk.canonicalize("/w/b/lib/a.ts".into()).unwrap(), "/w/b/src/a.ts");
        assert_eq!(disk.list_dir("/w/b".into()).unwrap(), ["lib", "out", "src"]);
        assert!(!disk.exists("/w/b/out".into()), "a dangling link leads nowhere");
        let walked = disk.walk_tree("/w/b".into(), &["/w/b".into()], &|_, _| Decision::Ship).unwrap();
        let files: Vec<&str> = walked.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(files, ["lib/a.ts", "src/a.ts"]);
        assert_eq!(walked.broken.len(), 1);
        assert_eq!(disk.read_recorded("/w/b/src/a.ts".into()).0.sha256, sha256_hex(b"export default 1;\n"));
    }
}
