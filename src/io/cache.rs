//! The on-disk cache: entries addressed by kind and key, each a line holding the SHA-256 of the
//! body followed by the body's JSON text (or, for the few read where parsing would cost more than
//! the work they save, the raw digest followed by bytes). The cache lives outside the artifact, may be deleted at any time, and is never trusted
//! blindly: an entry that does not parse or whose checksum does not match is reported as corrupt and
//! treated as missing.

use camino::{Utf8Path, Utf8PathBuf};
use serde_json::Value;

use crate::vocabulary::digest::sha256_hex;

/// The cache layout's version: a change of entry shapes bumps it, and old entries are then ignored.
const LAYOUT: &str = "v1";

#[derive(Clone, Debug)]
pub struct CacheStore {
    dir: Utf8PathBuf,
}

/// What reading an entry found.
#[derive(Debug, PartialEq)]
pub enum Lookup {
    Hit(Value),
    Miss,
    /// The entry exists but cannot be trusted (bad JSON, wrong checksum).
    Corrupt,
}

impl CacheStore {
    pub fn new(dir: impl Into<Utf8PathBuf>) -> Self {
        CacheStore { dir: dir.into() }
    }

    pub fn dir(&self) -> &Utf8Path {
        &self.dir
    }

    /// The file of a JSON entry.
    pub fn entry_path(&self, kind: &str, key: &str) -> Utf8PathBuf {
        self.path(kind, key)
    }

    fn path(&self, kind: &str, key: &str) -> Utf8PathBuf {
        self.dir.join(LAYOUT).join(kind).join(format!("{key}.json"))
    }

    pub fn read(&self, kind: &str, key: &str) -> Lookup {
        let Ok(text) = std::fs::read_to_string(self.path(kind, key)) else { return Lookup::Miss };
        // An entry is one line of checksum, then the body's JSON text, hashed as stored.
        let Some((checksum, body)) = text.split_once('\n') else { return Lookup::Corrupt };
        if checksum != sha256_hex(body.as_bytes()) {
            return Lookup::Corrupt;
        }
        match serde_json::from_str(body) {
            Ok(value) => Lookup::Hit(value),
            Err(_) => Lookup::Corrupt,
        }
    }

    /// [`CacheStore::read`], with when the entry was written (its modification time in nanoseconds;
    /// `i128::MIN` when unknown): stamps an entry records are trusted only when older than that.
    pub fn read_with_mtime(&self, kind: &str, key: &str) -> (Lookup, i128) {
        let written_at = crate::io::stamp::mtime_ns(&self.path(kind, key)).unwrap_or(i128::MIN);
        (self.read(kind, key), written_at)
    }

    /// An entry read straight into its type (no intermediate JSON tree: the no-op check reads one
    /// per bundle), with when it was written; `None` when missing, corrupt or of another shape.
    pub fn read_typed<T: serde::de::DeserializeOwned>(&self, kind: &str, key: &str) -> (Option<T>, i128) {
        use std::io::Read;
        use std::os::unix::fs::MetadataExt;
        let Ok(mut file) = std::fs::File::open(self.path(kind, key)) else { return (None, i128::MIN) };
        // The open file's own metadata: one call for both its mtime and its size.
        let Ok(metadata) = file.metadata() else { return (None, i128::MIN) };
        let written_at = i128::from(metadata.mtime()) * 1_000_000_000 + i128::from(metadata.mtime_nsec());
        // A read of the size the metadata gave (an entry rewritten meanwhile fails its checksum).
        let mut bytes = vec![0u8; metadata.len() as usize];
        if file.read_exact(&mut bytes).is_err() {
            return (None, written_at);
        }
        let Ok(text) = String::from_utf8(bytes) else { return (None, written_at) };
        let Some((checksum, body)) = text.split_once('\n') else { return (None, written_at) };
        if checksum != sha256_hex(body.as_bytes()) {
            return (None, written_at);
        }
        (serde_json::from_str(body).ok(), written_at)
    }

    /// The keys of every entry of a kind, in no particular order.
    pub fn keys(&self, kind: &str) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.dir.join(LAYOUT).join(kind)) else { return Vec::new() };
        entries
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter_map(|name| name.strip_suffix(".json").map(str::to_string))
            .filter(|key| !key.starts_with('.'))
            .collect()
    }

    /// Removes an entry (a missing one is fine).
    pub fn remove(&self, kind: &str, key: &str) {
        let _ = std::fs::remove_file(self.path(kind, key));
    }

    /// Writes an entry; failures are ignored (a cache that cannot be written only costs speed).
    pub fn write(&self, kind: &str, key: &str, body: &impl serde::Serialize) {
        let Ok(body) = serde_json::to_string(body) else { return };
        let entry = format!("{}\n{body}", sha256_hex(body.as_bytes()));
        place(&self.path(kind, key), key, entry.as_bytes());
    }

    fn binary_path(&self, kind: &str, key: &str) -> Utf8PathBuf {
        self.dir.join(LAYOUT).join(kind).join(format!("{key}.bin"))
    }

    /// Writes a binary entry: the SHA-256 of `body` (32 bytes), then `body`. For entries read on a
    /// path where parsing JSON would cost more than the work it saves.
    pub fn write_bytes(&self, kind: &str, key: &str, body: &[u8]) {
        use sha2::Digest;
        let mut entry = Vec::with_capacity(32 + body.len());
        entry.extend_from_slice(&sha2::Sha256::digest(body));
        entry.extend_from_slice(body);
        place(&self.binary_path(kind, key), key, &entry);
    }

    /// A binary entry's body; `None` when missing or corrupt.
    pub fn read_bytes(&self, kind: &str, key: &str) -> Option<Vec<u8>> {
        use sha2::Digest;
        let bytes = std::fs::read(self.binary_path(kind, key)).ok()?;
        let (checksum, body) = bytes.split_at_checked(32)?;
        (checksum == sha2::Sha256::digest(body).as_slice()).then(|| body.to_vec())
    }

    /// Removes a binary entry (a missing one is fine).
    pub fn remove_bytes(&self, kind: &str, key: &str) {
        let _ = std::fs::remove_file(self.binary_path(kind, key));
    }
}

/// Writes an entry's file whole: to a temporary file beside it, then renamed over it, so a reader
/// never sees half an entry. Failures are ignored (a cache that cannot be written only costs speed).
fn place(path: &Utf8Path, key: &str, entry: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let temporary = dir.join(format!(".{key}.{}.tmp", std::process::id()));
    if std::fs::write(&temporary, entry).is_ok() {
        let _ = std::fs::rename(&temporary, path);
    }
}
