//! Cached bundle builds. An entry is keyed by what decides a build besides the files it reads (the
//! compiler build, which covers the bundler, its options and the Node target; the bundle's handlers;
//! the packages shipped whole) and holds every handler's bundle, the chunks they share, and the list
//! of every file and folder the bundler read, with their stamps and digests. It is used while all of them are as they were; an entry can vanish or rot
//! without changing a byte of output. Keys and the paths in an entry are relative to the bundle
//! root, never absolute (D14): two checkouts of one tree share entries, each checking the files of
//! its own tree.

use std::collections::BTreeMap;

use camino::Utf8Path;
use serde::{Deserialize, Serialize};

use super::run::NODE_TARGET;
use super::{Bundled, BundledChunk, BundledHandler};
use crate::diagnostic::Diagnostic;
use crate::io::stamp::InputSet;
use crate::io::{CacheStore, Lookup};
use crate::vocabulary::digest::sha256_hex;
use crate::vocabulary::source::{SourceFile, Span};

const KIND: &str = "bundles";

pub(super) fn key<'h>(
    handlers: impl Iterator<Item = &'h str>,
    external: &[String],
    define: &[(String, String)],
) -> String {
    let compiler = crate::artifact::compiler_fingerprint();
    let mut handlers: Vec<&str> = handlers.collect();
    handlers.sort_unstable();
    let mut text = format!("{compiler}\0{NODE_TARGET}\0{}\0\0{}", handlers.join("\0"), external.join("\0"));
    // Only when set, so that bundles without defines keep their keys.
    for (name, code) in define {
        text.push_str(&format!("\0\0define\0{name}\0{code}"));
    }
    sha256_hex(text.as_bytes())
}

/// A cached build.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Entry {
    /// Keyed by root-relative path.
    inputs: InputSet,
    /// By handler path.
    handlers: BTreeMap<String, BundledHandler>,
    chunks: BTreeMap<String, BundledChunk>,
    warnings: Vec<StoredDiagnostic>,
    /// The texts warnings point into, by display path.
    sources: BTreeMap<String, String>,
}

/// A diagnostic with the byte spans of its labels, which its JSON form leaves out.
#[derive(Debug, Serialize, Deserialize)]
struct StoredDiagnostic {
    diagnostic: Diagnostic,
    spans: Vec<Span>,
}

pub(super) enum Found {
    Fresh(Box<Entry>),
    /// An entry exists but something it read changed.
    Stale,
    Missing,
    Corrupt,
}

impl Entry {
    /// The warnings the bundle was built with, their spans restored.
    pub fn warnings(&self) -> Vec<Diagnostic> {
        self.warnings
            .iter()
            .map(|stored| {
                let mut diagnostic = stored.diagnostic.clone();
                for (label, span) in diagnostic.labels.iter_mut().zip(&stored.spans) {
                    label.location.span = *span;
                }
                diagnostic
            })
            .collect()
    }

    pub fn sources(&self) -> Vec<SourceFile> {
        self.sources.iter().map(|(path, text)| SourceFile::new(path.as_str(), text.clone())).collect()
    }

    /// Moves the build into `bundled`, its inputs keyed by absolute path (as [`lookup`] resolved
    /// them).
    pub fn into_bundled(self, bundled: &mut Bundled) {
        (bundled.handlers, bundled.chunks, bundled.inputs) = (self.handlers, self.chunks, self.inputs);
    }
}

/// The entry of `key`, fresh when every input it records is as it was under `root`.
pub(super) fn lookup(store: &CacheStore, key: &str, root: &Utf8Path) -> Found {
    let (found, written_at) = store.read_with_mtime(KIND, key);
    match found {
        Lookup::Hit(body) => match serde_json::from_value::<Entry>(body) {
            Ok(mut entry) => {
                entry.inputs = entry.inputs.resolved_under(root);
                // Stamps are trusted only when older than the entry that recorded them (see stamp.rs).
                if entry.inputs.unchanged(written_at, root) { Found::Fresh(Box::new(entry)) } else { Found::Stale }
            }
            Err(_) => Found::Corrupt,
        },
        Lookup::Miss => Found::Missing,
        Lookup::Corrupt => Found::Corrupt,
    }
}

pub(super) fn store(
    store: &CacheStore,
    key: &str,
    root: &Utf8Path,
    bundled: &Bundled,
    warnings: &[Diagnostic],
    sources: &[SourceFile],
) {
    let warnings: Vec<StoredDiagnostic> = warnings
        .iter()
        .map(|d| StoredDiagnostic { diagnostic: d.clone(), spans: d.labels.iter().map(|l| l.location.span).collect() })
        .collect();
    let shown: Vec<String> =
        warnings.iter().flat_map(|w| w.diagnostic.labels.iter().map(|l| l.location.file.to_string())).collect();
    let sources: BTreeMap<String, String> = sources
        .iter()
        .filter(|s| shown.iter().any(|p| p == s.path().as_str()))
        .map(|s| (s.path().to_string(), s.text.clone()))
        .collect();
    let entry = Entry {
        inputs: bundled.inputs.relative_to(root),
        handlers: bundled.handlers.clone(),
        chunks: bundled.chunks.clone(),
        warnings,
        sources,
    };
    store.write(KIND, key, &entry);
}
