//! The no-op record of a `build --recursive`: one cache entry per command that says, for a whole
//! monorepo at once, what its no-op build prints and every stamp that answer rests on. Without it, a
//! no-op of 200 bundles reads and parses 200 fingerprints and checks them one bundle at a time; with
//! it, the command reads one compact file, stats what it lists on every core, and prints.
//!
//! The record is only ever a shortcut to the answer the bundles' own fingerprints give
//! ([`super::incremental::unchanged`]): it is made from those fingerprints right after a run in which
//! every bundle was found unchanged by them (a run that wrote keeps none: what it wrote is too
//! recent to vouch for itself), and rests on
//!
//! - every input a fingerprint vouches for, by the stamp it was recorded with (under the same trust
//!   rule), or, where the per-bundle check would accept it by its content (a touched file, a folder
//!   that gained the artifact's subfolder), by the stamp it has now, taken before that content is
//!   read again and compared;
//! - every folder of each artifact a fingerprint vouches for, and each fingerprint's own cache entry
//!   (and, for `--json`, which prints from them, each artifact's manifest);
//! - every folder the walk listed and every file named like a config it judged, so that the same
//!   bundles would be found.
//!
//! It is kept only when every one of those stamps is settled (older than the file clock's
//! granularity) and holds at that moment, and replayed only while every stamp is exactly as
//! recorded; anything else falls back to the per-bundle check, which decides as it always did. Its
//! output is rendered, when it is made, by the same code from the same reports a no-op build of each
//! bundle produces.

use std::collections::{BTreeMap, HashSet};

use camino::Utf8Path;

use super::Vouched;
use crate::io::CacheStore;
use crate::io::stamp::{self, ABSENT, Content, Stamp};
use crate::pipeline::discover::FoundBundles;
use crate::vocabulary::digest::sha256_hex;

/// The cache kind records are kept under.
const KIND: &str = "noop";

/// The first bytes of a record's body: its format, bumped when the layout changes.
const MAGIC: &[u8] = b"agent-bundle no-op record 1\n";

/// What a record's key is made of besides the compiler and host tables: everything the command's
/// output depends on that the tree does not hold.
pub struct Request<'a> {
    /// The folder walked, as the user wrote it (the output names bundles by it).
    pub root: &'a Utf8Path,
    /// That folder, canonical.
    pub canonical_root: &'a Utf8Path,
    /// The `--target` narrowing, by name.
    pub targets: Vec<&'a str>,
    /// The flags that shape what is printed (`--json`, `--explain`, ...), as one string.
    pub flags: String,
}

/// The key of the record for `request`.
pub fn key(request: &Request<'_>) -> String {
    let parts = [
        crate::artifact::compiler_fingerprint(),
        crate::hosts::tables_revision(),
        request.root.to_string(),
        request.canonical_root.to_string(),
        request.targets.join(","),
        request.flags.clone(),
    ];
    sha256_hex(parts.join("\0").as_bytes())
}

/// One stamp a record rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    path: String,
    /// The stamp it had (`None`: it did not exist).
    expect: Option<Stamp>,
    /// Whether links are followed (`stat`) or not (`lstat`), as the fingerprint checks it.
    follow: bool,
    /// The length of the prefix of `path` that names the folder it is stat-ed from (0: none), so
    /// that the entries under one folder cost one path walk to it and short ones below it.
    anchor: u16,
}

/// A no-op's output and what it rests on.
#[derive(Debug, PartialEq, Eq)]
pub struct Record {
    /// Sorted by path.
    entries: Vec<Entry>,
    stdout: Vec<u8>,
}

/// Why no record is kept for a run: then the next no-op checks bundle by bundle, as without one.
#[derive(Debug, PartialEq, Eq)]
pub enum NotKept {
    /// A stamp is too recent to vouch for its entry (it was written within the file clock's
    /// granularity); the next no-op, a moment later, keeps the record.
    Unsettled(String),
    /// A folder the walk listed without a stamp (a disk that has none).
    Unstamped(String),
    /// Two bundles recorded one entry differently.
    Disagrees(String),
    /// A path too long for the record's layout.
    TooLong(String),
    /// Something changed between the run and the record.
    Changed,
    /// The walked folder declares a marketplace: every run writes its catalogs.
    Catalog,
    /// The tree no longer walks to the bundles the run built.
    Walk,
    /// A bundle was built, not found unchanged: what it wrote is too recent to vouch for itself.
    Built,
}

impl std::fmt::Display for NotKept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotKept::Unsettled(path) => write!(f, "`{path}` changed too recently to vouch for it"),
            NotKept::Unstamped(path) => write!(f, "`{path}` was walked without a stamp"),
            NotKept::Disagrees(path) => write!(f, "two bundles recorded `{path}` differently"),
            NotKept::TooLong(path) => write!(f, "`{path}` does not fit the record"),
            NotKept::Changed => write!(f, "something changed while the record was made"),
            NotKept::Catalog => write!(f, "a marketplace is declared, and its catalogs are written on every run"),
            NotKept::Walk => write!(f, "the tree no longer walks to the bundles built"),
            NotKept::Built => write!(f, "a bundle was built (the next no-op keeps the record)"),
        }
    }
}

impl Record {
    /// The record of a no-op run whose walk of `walked` (canonical) found `found` and whose bundles
    /// were each vouched for by `vouched` (in any order), printing `stdout`; with `manifests`, what
    /// it prints was read from each artifact's manifest (`--json`), whose stamps it then rests on
    /// too.
    pub fn of(
        walked: &Utf8Path,
        found: &FoundBundles,
        vouched: &[&Vouched],
        stdout: Vec<u8>,
        manifests: bool,
    ) -> Result<Record, NotKept> {
        let now = stamp::now_ns();
        let mut entries: BTreeMap<(String, bool), Option<Stamp>> = BTreeMap::new();
        // Folders whose unchanged stamp means nothing was added to, removed from or renamed in
        // them: what is recorded absent in one of them is still absent, unlooked-at.
        let mut steady: HashSet<String> = HashSet::new();
        let mut add = |path: &str, follow: bool, expect: Option<Stamp>| -> Result<(), NotKept> {
            match entries.entry((path.to_string(), follow)) {
                std::collections::btree_map::Entry::Vacant(vacant) => {
                    vacant.insert(expect);
                    Ok(())
                }
                std::collections::btree_map::Entry::Occupied(held) if *held.get() == expect => Ok(()),
                std::collections::btree_map::Entry::Occupied(_) => Err(NotKept::Disagrees(path.to_string())),
            }
        };
        let settled = |path: &Utf8Path, found: Stamp| {
            if stamp::settled(found, now) { Ok(Some(found)) } else { Err(NotKept::Unsettled(path.to_string())) }
        };
        for dir in &found.listed {
            let found = dir.stamp.ok_or_else(|| NotKept::Unstamped(dir.path.to_string()))?;
            add(dir.path.as_str(), true, settled(&dir.path, found)?)?;
            steady.insert(dir.path.to_string());
        }
        for candidate in &found.candidates {
            let expect = match stamp::stamp(candidate) {
                Some(found) => settled(candidate, found)?,
                None => None,
            };
            add(candidate.as_str(), true, expect)?;
        }
        for built in vouched {
            let fingerprint = &built.fingerprint;
            for (path, recorded) in &fingerprint.inputs.dirs {
                let expect = vouching(path, recorded, true, fingerprint.written_at)?;
                add(path, true, expect)?;
                if expect.is_some() {
                    steady.insert(path.clone());
                }
            }
            for (path, recorded) in &fingerprint.inputs.files {
                let expect = vouching(path, recorded, false, fingerprint.written_at)?;
                add(path, recorded.content == Content::Bytes, expect)?;
            }
            for (dir, then) in &fingerprint.output_dirs {
                let path =
                    if dir.is_empty() { built.canonical_output.clone() } else { built.canonical_output.join(dir) };
                add(path.as_str(), true, Some(*then))?;
            }
            let entry = stamp::stamp(&built.entry).ok_or(NotKept::Changed)?;
            add(built.entry.as_str(), true, Some(entry))?;
            if manifests {
                let manifest = built.canonical_output.join(crate::artifact::MANIFEST_PATH);
                let found = stamp::stamp(&manifest).ok_or(NotKept::Changed)?;
                add(manifest.as_str(), true, settled(&manifest, found)?)?;
            }
        }
        let entries = entries
            .into_iter()
            .filter(|((path, _), expect)| {
                expect.is_some() || !Utf8Path::new(path).parent().is_some_and(|parent| steady.contains(parent.as_str()))
            })
            .map(|((path, follow), expect)| {
                let anchor = anchor(walked, &path).map_or(Ok(0), |a| u16::try_from(a.len()));
                Ok(Entry { anchor: anchor.map_err(|_| NotKept::TooLong(path.clone()))?, path, expect, follow })
            })
            .collect::<Result<_, NotKept>>()?;
        Ok(Record { entries, stdout })
    }

    /// Whether every entry is exactly as recorded, checked on every core.
    fn holds(&self) -> bool {
        use std::sync::atomic::{AtomicBool, Ordering};
        let differs = AtomicBool::new(false);
        let check = |part: &[Entry]| {
            let mut opened: Option<(&str, Option<rustix::fd::OwnedFd>)> = None;
            for entry in part {
                if differs.load(Ordering::Relaxed) {
                    return;
                }
                let anchor = &entry.path[..usize::from(entry.anchor)];
                if !anchor.is_empty() && opened.as_ref().is_none_or(|(held, _)| *held != anchor) {
                    let flags = rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC;
                    opened = Some((
                        anchor,
                        rustix::fs::openat(rustix::fs::CWD, anchor, flags, rustix::fs::Mode::empty()).ok(),
                    ));
                }
                let now = match &opened {
                    Some((_, Some(folder))) if !anchor.is_empty() => {
                        let below = &entry.path[anchor.len() + 1..];
                        let flags = if entry.follow {
                            rustix::fs::AtFlags::empty()
                        } else {
                            rustix::fs::AtFlags::SYMLINK_NOFOLLOW
                        };
                        rustix::fs::statat(folder, below, flags).ok().map(|found| Stamp {
                            len: found.st_size as u64,
                            mtime_ns: i128::from(found.st_mtime) * 1_000_000_000 + found.st_mtime_nsec as i128,
                            ctime_ns: i128::from(found.st_ctime) * 1_000_000_000 + found.st_ctime_nsec as i128,
                            ino: found.st_ino,
                        })
                    }
                    _ => {
                        let path = Utf8Path::new(&entry.path);
                        if entry.follow { stamp::stamp(path) } else { stamp::own_stamp(path) }
                    }
                };
                if now != entry.expect {
                    differs.store(true, Ordering::Relaxed);
                }
            }
        };
        // A thread costs about as much as a hundred stats: small records are checked on this one.
        let threads = crate::io::threads("AGENT_BUNDLE_NOOP_THREADS", 1).min(self.entries.len() / 256 + 1);
        let share = self.entries.len().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|scope| {
            let mut parts = self.entries.chunks(share);
            let first = parts.next();
            for part in parts {
                if std::thread::Builder::new().spawn_scoped(scope, || check(part)).is_err() {
                    check(part);
                }
            }
            if let Some(part) = first {
                check(part);
            }
        });
        !differs.load(Ordering::Relaxed)
    }

    /// The record's bytes: paths front-coded (each as the length it shares with the one before, then
    /// the rest), stamps as fixed-width integers, then the output.
    fn encode(&self) -> Result<Vec<u8>, NotKept> {
        let mut out = Vec::with_capacity(MAGIC.len() + self.entries.len() * 48 + self.stdout.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(
            &u32::try_from(self.entries.len()).map_err(|_| NotKept::TooLong(String::new()))?.to_le_bytes(),
        );
        let mut before = "";
        for entry in &self.entries {
            let shared = before.bytes().zip(entry.path.bytes()).take_while(|(a, b)| a == b).count();
            let rest = &entry.path.as_bytes()[shared..];
            let too_long = || NotKept::TooLong(entry.path.clone());
            out.extend_from_slice(&u16::try_from(shared).map_err(|_| too_long())?.to_le_bytes());
            out.extend_from_slice(&u16::try_from(rest.len()).map_err(|_| too_long())?.to_le_bytes());
            out.extend_from_slice(rest);
            out.extend_from_slice(&entry.anchor.to_le_bytes());
            out.push(u8::from(entry.expect.is_some()) | (u8::from(entry.follow) << 1));
            if let Some(found) = entry.expect {
                let time = |ns: i128| i64::try_from(ns).map_err(|_| too_long());
                out.extend_from_slice(&found.len.to_le_bytes());
                out.extend_from_slice(&time(found.mtime_ns)?.to_le_bytes());
                out.extend_from_slice(&time(found.ctime_ns)?.to_le_bytes());
                out.extend_from_slice(&found.ino.to_le_bytes());
            }
            before = &entry.path;
        }
        out.extend_from_slice(&(self.stdout.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.stdout);
        Ok(out)
    }

    /// [`Record::encode`]'s bytes read back; `None` for anything else.
    fn decode(bytes: &[u8]) -> Option<Record> {
        let mut rest = bytes.strip_prefix(MAGIC)?;
        let mut take = |n: usize| -> Option<&[u8]> {
            let (taken, left) = rest.split_at_checked(n)?;
            rest = left;
            Some(taken)
        };
        let count = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
        let mut entries: Vec<Entry> = Vec::with_capacity(count.min(1 << 20));
        for _ in 0..count {
            let shared = u16::from_le_bytes(take(2)?.try_into().ok()?) as usize;
            let length = u16::from_le_bytes(take(2)?.try_into().ok()?) as usize;
            let before = entries.last().map_or(Some(""), |e| e.path.get(..shared))?;
            let after = std::str::from_utf8(take(length)?).ok()?;
            let mut path = String::with_capacity(before.len() + after.len());
            path.push_str(before);
            path.push_str(after);
            let anchor = u16::from_le_bytes(take(2)?.try_into().ok()?);
            // An anchor is a folder above the entry: a prefix that ends where a name does.
            if anchor != 0 && path.as_bytes().get(usize::from(anchor)) != Some(&b'/') {
                return None;
            }
            let flags = take(1)?[0];
            let expect = if flags & 1 == 1 {
                let u64_at = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("eight bytes"));
                let fields = take(32)?;
                Some(Stamp {
                    len: u64_at(&fields[0..8]),
                    mtime_ns: i128::from(u64_at(&fields[8..16]) as i64),
                    ctime_ns: i128::from(u64_at(&fields[16..24]) as i64),
                    ino: u64_at(&fields[24..32]),
                })
            } else {
                None
            };
            entries.push(Entry { path, expect, follow: flags & 2 == 2, anchor });
        }
        let length = usize::try_from(u64::from_le_bytes(take(8)?.try_into().ok()?)).ok()?;
        let stdout = take(length)?.to_vec();
        rest.is_empty().then_some(Record { entries, stdout })
    }
}

/// The stamp that vouches, from now on, for an input as a fingerprint recorded it (`None`: that it
/// is absent). Its recorded stamp while the entry still has it (and it is older than the
/// fingerprint, the per-bundle check's trust rule); otherwise, where the per-bundle check would
/// accept the entry by its content (a touched file, a folder that gained a subfolder), the stamp it
/// has now, taken before its content is read again and compared.
fn vouching(
    path: &str,
    recorded: &stamp::Recorded,
    is_dir: bool,
    trusted_before: i128,
) -> Result<Option<Stamp>, NotKept> {
    let at = Utf8Path::new(path);
    let follow = is_dir || recorded.content == Content::Bytes;
    let now = if follow { stamp::stamp(at) } else { stamp::own_stamp(at) };
    match (recorded.stamp, now) {
        (Some(then), Some(now)) if then == now && then.mtime_ns < trusted_before => return Ok(Some(then)),
        (None, None) if recorded.sha256 == ABSENT => return Ok(None),
        (_, None) => return Err(NotKept::Changed),
        _ => {}
    }
    let again = match (is_dir, recorded.content) {
        (true, _) => stamp::Recorded::read_listing(at, recorded.listing),
        (false, Content::Size) => stamp::Recorded::measure(at),
        (false, Content::Link) => stamp::Recorded::read_link(at),
        (false, Content::Bytes) if recorded.mode.is_some() => stamp::Recorded::read_file_with_mode(at).0,
        (false, Content::Bytes) => stamp::Recorded::read_file(at).0,
    };
    if again.sha256 != recorded.sha256 || (recorded.mode.is_some() && again.mode != recorded.mode) {
        return Err(NotKept::Changed);
    }
    match again.stamp {
        // `read_*` leave out a stamp too recent to vouch; a link or a measured entry keeps its own.
        Some(found) if stamp::settled(found, stamp::now_ns()) => Ok(Some(found)),
        _ => Err(NotKept::Unsettled(path.to_string())),
    }
}

/// The folder an entry is stat-ed from: under the walked folder, the folder directly below it that
/// holds the entry (a bundle's, in most trees); elsewhere, the entry's own folder. `None` for an
/// entry that is that folder itself or lies directly in the walked one.
fn anchor<'a>(walked: &Utf8Path, path: &'a str) -> Option<&'a str> {
    let below = Utf8Path::new(path).strip_prefix(walked).ok();
    let anchor = match below {
        Some(below) => {
            let first = below.components().next()?.as_str();
            let anchor = &path[..path.len() - below.as_str().len() + first.len()];
            (anchor.len() < path.len()).then_some(anchor)?
        }
        None => Utf8Path::new(path).parent()?.as_str(),
    };
    (!anchor.is_empty() && path.as_bytes().get(anchor.len()) == Some(&b'/')).then_some(anchor)
}

/// What a no-op of the command keyed `key` prints, when its record holds: every stamp it rests on
/// is as it was. `None` sends the command down the per-bundle check.
pub fn replay(cache: &CacheStore, key: &str) -> Option<Vec<u8>> {
    let bytes = cache.read_bytes(KIND, key)?;
    let record = Record::decode(&bytes)?;
    record.holds().then_some(record.stdout)
}

/// Keeps `record` for the command keyed `key` if it holds now; otherwise removes any older one.
pub fn keep(cache: &CacheStore, key: &str, record: &Record) -> Result<(), NotKept> {
    let kept = record.encode().and_then(|bytes| if record.holds() { Ok(bytes) } else { Err(NotKept::Changed) });
    match kept {
        Ok(bytes) => {
            cache.write_bytes(KIND, key, &bytes);
            Ok(())
        }
        Err(why) => {
            cache.remove_bytes(KIND, key);
            Err(why)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, expect: Option<Stamp>, follow: bool) -> Entry {
        let anchor = anchor(Utf8Path::new("/a"), path).map_or(0, |a| a.len() as u16);
        Entry { path: path.to_string(), expect, follow, anchor }
    }

    #[test]
    fn entries_are_stat_ed_from_the_folder_below_the_walked_one_or_their_own() {
        let walked = Utf8Path::new("/w/repo");
        assert_eq!(anchor(walked, "/w/repo/b1/src/a.ts"), Some("/w/repo/b1"));
        assert_eq!(anchor(walked, "/w/repo/b1/src"), Some("/w/repo/b1"));
        assert_eq!(anchor(walked, "/w/repo/b1"), None);
        assert_eq!(anchor(walked, "/w/repo/package.json"), None);
        assert_eq!(anchor(walked, "/w/repo"), None);
        assert_eq!(anchor(walked, "/cache/v1/fingerprint/k.json"), Some("/cache/v1/fingerprint"));
        assert_eq!(anchor(walked, "/package.json"), None);
    }

    #[test]
    fn a_record_reads_back_as_written_and_nothing_else_reads_as_one() {
        let stamp = Stamp { len: 7, mtime_ns: 1_796_217_242_689_531_412, ctime_ns: -5, ino: u64::MAX };
        let record = Record {
            entries: vec![
                entry("/a/b", Some(stamp), true),
                entry("/a/b/c.ts", None, true),
                entry("/a/b/cé/d", Some(stamp), false),
                entry("/z", None, false),
            ],
            stdout: b"== a\nBuilt 1 of 1 bundles; 0 failed\n".to_vec(),
        };
        let bytes = record.encode().unwrap();
        assert_eq!(Record::decode(&bytes), Some(record));
        for cut in 0..bytes.len() {
            assert_eq!(Record::decode(&bytes[..cut]), None, "a record cut at {cut} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Record::decode(&longer), None);
    }

    #[test]
    fn a_record_holds_while_its_stamps_do() {
        let temp = tempfile::tempdir().unwrap();
        let dir = camino::Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        let file = dir.join("a.ts");
        std::fs::write(&file, "one").unwrap();
        let mut entries: Vec<Entry> =
            (0..600).map(|n| entry(dir.join(format!("missing-{n:03}")).as_str(), None, true)).collect();
        entries.push(entry(file.as_str(), stamp::stamp(&file), true));
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        let record = Record { entries, stdout: Vec::new() };
        assert!(record.holds());
        std::fs::write(dir.join("missing-599"), "").unwrap();
        assert!(!record.holds(), "an entry recorded absent appeared");
        std::fs::remove_file(dir.join("missing-599")).unwrap();
        assert!(record.holds());
        std::fs::write(&file, "two!").unwrap();
        assert!(!record.holds(), "an entry's stamp changed");
    }
}
