//! Walking a folder that is shipped (a payload, a package shipped whole) without leaving the folders
//! an artifact may draw on. A symbolic link is followed only when its real target lies inside them
//! (its target's content is then shipped, as if the link were the file or folder it names); a link
//! that leads outside is reported and never followed, so nothing outside is ever read. The caller's
//! rule can leave entries out: those are only measured (`lstat`), never followed or read.

use camino::{Utf8Path, Utf8PathBuf};

use super::{Disk, lexical_join};

/// What the caller's rule decides for an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Ship,
    /// Not shipped, and reported (measured) as left out.
    LeaveOut,
    /// Not shipped, and not reported (a package's own `node_modules`, whose packages ship on their own).
    Skip,
}

/// What a walk found, every list sorted by path (`/`-separated, relative to the walked folder).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// Files to ship, with where their bytes are (a link's real target, when it is one).
    pub files: Vec<WalkedFile>,
    /// Symbolic links whose target lies outside the allowed folders: not followed.
    pub outside: Vec<Link>,
    /// Symbolic links whose target does not exist, or leads back into a folder that holds it.
    pub broken: Vec<Link>,
    /// Entries the caller's rule left out (each file of a folder left out whole), with their size;
    /// sockets, pipes and devices, which are never shipped, too.
    pub left_out: Vec<LeftOut>,
    /// Every folder listed (real paths), in the order listed.
    pub dirs: Vec<Utf8PathBuf>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkedFile {
    pub path: String,
    /// The file's real path: what is read.
    pub real: Utf8PathBuf,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub path: String,
    /// Where the link itself is (its folder's real path and its name).
    pub at: Utf8PathBuf,
    /// Its target as written.
    pub target: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    pub path: String,
    /// Where the entry is (not followed when it is a link).
    pub at: Utf8PathBuf,
    /// Its size as `lstat` reports it (a link's: the length of its target).
    pub bytes: u64,
}

/// The folders whose files a bundle rooted at `root` may ship: the root itself and every
/// `node_modules` folder Node would search from it (the root's and each ancestor's: a workspace
/// installs its packages at its own root), all as real paths, so that a pnpm layout's
/// `node_modules/.pnpm` store counts as inside.
pub fn confinement(root: &Utf8Path, disk: &dyn Disk) -> Vec<Utf8PathBuf> {
    let root = disk.canonicalize(root).unwrap_or_else(|| root.to_path_buf());
    let mut within = vec![root.clone()];
    for ancestor in root.ancestors() {
        let node_modules = ancestor.join("node_modules");
        if disk.is_dir(&node_modules)
            && let Some(real) = disk.canonicalize(&node_modules)
            && !within.iter().any(|w| real.starts_with(w))
        {
            within.push(real);
        }
    }
    within
}

/// Walks `dir` (made real first). `within` are the real folders files may come from;
/// `decide(path, is_dir)` decides, before anything is followed, what becomes of each entry
/// (`is_dir` is whether the entry, or the folder a link names, is a folder).
pub fn walk(
    dir: &Utf8Path,
    within: &[Utf8PathBuf],
    decide: &dyn Fn(&str, bool) -> Decision,
) -> std::io::Result<Walked> {
    let real = fs_err::canonicalize(dir)?;
    let real = Utf8PathBuf::from_path_buf(real).map_err(|_| std::io::Error::other("non-UTF-8 path"))?;
    let mut walker = Walker { within, decide, walked: Walked::default(), stack: Vec::new() };
    walker.visit(&real, "")?;
    let mut walked = walker.walked;
    walked.files.sort_by(|a, b| a.path.cmp(&b.path));
    walked.outside.sort_by(|a, b| a.path.cmp(&b.path));
    walked.broken.sort_by(|a, b| a.path.cmp(&b.path));
    walked.left_out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(walked)
}

struct Walker<'a> {
    within: &'a [Utf8PathBuf],
    decide: &'a dyn Fn(&str, bool) -> Decision,
    walked: Walked,
    /// The real folders being walked, outermost first: a link back into one is a loop.
    stack: Vec<Utf8PathBuf>,
}

impl Walker<'_> {
    fn inside(&self, path: &Utf8Path) -> bool {
        self.within.iter().any(|w| path.starts_with(w))
    }

    fn visit(&mut self, dir: &Utf8Path, prefix: &str) -> std::io::Result<()> {
        self.walked.dirs.push(dir.to_path_buf());
        self.stack.push(dir.to_path_buf());
        for name in names(dir)? {
            let path = if prefix.is_empty() { name.clone() } else { format!("{prefix}/{name}") };
            let at = dir.join(&name);
            let own = fs_err::symlink_metadata(&at)?;
            let link = own.file_type().is_symlink();
            // A link's target is only stat-ed here: nothing of it is read before it is judged.
            let seen = if link { std::fs::metadata(&at).ok() } else { Some(own.clone()) };
            let is_dir = seen.as_ref().is_some_and(|m| m.is_dir());
            match (self.decide)(&path, is_dir) {
                Decision::Ship => {}
                Decision::Skip => continue,
                Decision::LeaveOut if is_dir && !link => {
                    self.measure(&at, &path)?;
                    continue;
                }
                Decision::LeaveOut => {
                    self.walked.left_out.push(LeftOut { path, at, bytes: own.len() });
                    continue;
                }
            }
            let real = if link {
                let target = fs_err::read_link(&at)?.to_string_lossy().into_owned();
                let Ok(real) = std::fs::canonicalize(&at) else {
                    // It leads nowhere: outside if its target, as written, would be outside.
                    let leads = lexical_join(dir, &target);
                    let entry = Link { path, at, target };
                    if self.inside(&leads) {
                        self.walked.broken.push(entry);
                    } else {
                        self.walked.outside.push(entry);
                    }
                    continue;
                };
                let real = Utf8PathBuf::from_path_buf(real).map_err(|_| std::io::Error::other("non-UTF-8 path"))?;
                if !self.inside(&real) {
                    self.walked.outside.push(Link { path, at, target });
                    continue;
                }
                if is_dir && self.stack.iter().any(|open| open.starts_with(&real)) {
                    self.walked.broken.push(Link { path, at, target });
                    continue;
                }
                real
            } else {
                at.clone()
            };
            match seen {
                Some(metadata) if metadata.is_dir() => self.visit(&real, &path)?,
                Some(metadata) if metadata.is_file() => self.walked.files.push(WalkedFile { path, real }),
                _ => self.walked.left_out.push(LeftOut { path, at, bytes: own.len() }),
            }
        }
        self.stack.pop();
        Ok(())
    }

    /// Records every entry under a folder left out whole, by `lstat`, following nothing.
    fn measure(&mut self, dir: &Utf8Path, prefix: &str) -> std::io::Result<()> {
        self.walked.dirs.push(dir.to_path_buf());
        for name in names(dir)? {
            let path = format!("{prefix}/{name}");
            let at = dir.join(&name);
            let own = fs_err::symlink_metadata(&at)?;
            if own.is_dir() {
                self.measure(&at, &path)?;
            } else {
                self.walked.left_out.push(LeftOut { path, at, bytes: own.len() });
            }
        }
        Ok(())
    }
}

/// A folder's entry names, sorted (names that are not UTF-8 are an error: they cannot be shipped
/// under a name the manifest can record).
fn names(dir: &Utf8Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs_err::read_dir(dir)? {
        let name = entry?.file_name();
        let name = name.into_string().map_err(|name| {
            std::io::Error::other(format!("{dir}/{} is not a UTF-8 file name", name.to_string_lossy()))
        })?;
        names.push(name);
    }
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn tree() -> (tempfile::TempDir, Utf8PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let root = Utf8PathBuf::from_path_buf(temp.path().canonicalize().unwrap()).unwrap();
        std::fs::create_dir_all(root.join("pkg/lib")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::fs::write(root.join("pkg/lib/a.js"), "a").unwrap();
        std::fs::write(root.join("outside/secret"), "s").unwrap();
        (temp, root)
    }

    #[test]
    fn links_inside_are_followed_and_links_outside_are_not() {
        let (_temp, root) = tree();
        symlink("a.js", root.join("pkg/lib/b.js")).unwrap();
        symlink("lib", root.join("pkg/alias")).unwrap();
        symlink("../../outside", root.join("pkg/lib/out")).unwrap();
        symlink("/etc", root.join("pkg/lib/etc-link")).unwrap();
        symlink("missing.js", root.join("pkg/lib/gone.js")).unwrap();
        symlink("..", root.join("pkg/lib/up")).unwrap();
        let walked = walk(&root.join("pkg"), &[root.join("pkg")], &|_, _| Decision::Ship).unwrap();
        let files: Vec<&str> = walked.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(files, ["alias/a.js", "alias/b.js", "lib/a.js", "lib/b.js"]);
        assert_eq!(walked.files[1].real, root.join("pkg/lib/a.js"));
        let outside: Vec<(&str, &str)> = walked.outside.iter().map(|l| (l.path.as_str(), l.target.as_str())).collect();
        assert!(outside.contains(&("lib/etc-link", "/etc")) && outside.contains(&("lib/out", "../../outside")));
        let broken: Vec<&str> = walked.broken.iter().map(|l| l.path.as_str()).collect();
        assert!(broken.contains(&"lib/gone.js") && broken.contains(&"lib/up"));
        // Nothing outside was listed, let alone read.
        assert!(walked.dirs.iter().all(|dir| dir.starts_with(root.join("pkg"))));
    }

    #[test]
    fn what_is_left_out_is_measured_and_never_followed() {
        let (_temp, root) = tree();
        std::fs::create_dir_all(root.join("pkg/build/obj")).unwrap();
        std::fs::write(root.join("pkg/build/obj/x.o"), "12345").unwrap();
        symlink("/usr/bin/python3", root.join("pkg/build/python3")).unwrap();
        let decide = |path: &str, _| if path == "build" { Decision::LeaveOut } else { Decision::Ship };
        let walked = walk(&root.join("pkg"), &[root.join("pkg")], &decide).unwrap();
        let left: Vec<(&str, u64)> = walked.left_out.iter().map(|l| (l.path.as_str(), l.bytes)).collect();
        assert_eq!(left, [("build/obj/x.o", 5), ("build/python3", "/usr/bin/python3".len() as u64)]);
        assert!(walked.outside.is_empty());
    }
}
