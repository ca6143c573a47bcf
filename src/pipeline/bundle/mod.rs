//! Bundling handlers (D10 in docs/decisions.md): each handler module, with every module and npm package it
//! imports, becomes one self-contained ES module for Node 18+, tree-shaken, with a source map, by
//! rolldown (the bundler behind Vite). Everything is resolved at build time the way Node would
//! resolve it at run time; what would fail there is a diagnostic here, at the importing line.
//!
//! Per handler: look up the cache (valid while every file and folder the bundler read is as it
//! was), else bundle ([`run`], watched by [`plugin`]), check what the bundle cannot carry
//! ([`scan`] for the bundle's own modules, [`packages`] for npm packages), turn the bundler's
//! findings into diagnostics ([`findings`]) and keep the result ([`cache`]). Packages the config
//! lists in `bundle.external` are not bundled but shipped whole ([`ship`]), each only with what it
//! needs at run time ([`closure`]).

mod cache;
mod closure;
mod findings;
mod packages;
mod plugin;
mod resolution;
mod run;
mod scan;
mod ship;
pub(crate) use ship::GITIGNORE_PATH;
mod sourcemap;

use std::collections::BTreeMap;

use camino::{Utf8Path, Utf8PathBuf};

pub use ship::SHIPPED_DIR;

use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::io::CacheStore;
use crate::io::stamp::{InputSet, Recorded};
use crate::io::{Disk, lexical_join};
use crate::pipeline::Bundle;
use crate::pipeline::normalise::ExternalPackage;
use crate::pipeline::normalise::Handler;
use crate::vocabulary::source::{Location, SourceFile};
use crate::vocabulary::target::Target;

/// Extensions of the files the bundler takes as modules (and reads as text).
const MODULE_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "json"];

/// Whether a path's extension is one of a module's.
fn is_module_extension(extension: &str) -> bool {
    MODULE_EXTENSIONS.contains(&extension)
}

/// Where handler bundles go in the artifact.
pub use crate::hosts::layout::HANDLERS_DIR;

/// A handler to bundle: its root-relative path and where the config declares it.
#[derive(Clone, Debug)]
pub struct HandlerEntry {
    pub path: String,
    pub declared_at: Location,
}

/// One handler, bundled.
#[derive(Clone, Debug)]
pub struct BundledHandler {
    /// The bundle's artifact path (`hooks/handlers/src/hooks/guard.mjs`); its map is beside it.
    pub path: String,
    pub code: String,
    pub map: String,
    /// Every file and folder the bundler read for it, by absolute path.
    pub inputs: InputSet,
    /// What it was built from, for `--explain`: root-relative modules and `npm:<name>@<version>`
    /// packages, each with a digest of what was read of it.
    pub summary: BTreeMap<String, String>,
}

impl BundledHandler {
    pub fn map_path(&self) -> String {
        format!("{}.map", self.path)
    }
}

/// How bundles were obtained, for `--explain` and the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BundleStats {
    pub bundled: usize,
    pub cached: usize,
    /// Cache entries found corrupt (and replaced).
    pub corrupt: usize,
}

/// The bundle stage's result: what every hook runs. Each handler module bundled (or the
/// diagnostics that say why not), each prebuilt handler as it was read, packages shipped whole.
#[derive(Debug, Default)]
pub struct Bundled {
    /// By handler path.
    pub handlers: BTreeMap<String, BundledHandler>,
    /// Prebuilt handlers (root-relative path), as read for the build's inputs.
    pub prebuilt: BTreeMap<String, Recorded>,
    /// Whether the stage reported an error: then not every hook has what it runs, and nothing is
    /// emitted.
    pub failed: bool,
    /// Packages shipped whole, with their files (artifact path → bytes and mode).
    pub shipped: ship::Shipped,
    pub stats: BundleStats,
    /// The sources diagnostics point into.
    pub sources: Vec<SourceFile>,
}

/// The artifact path of a handler's bundle: its path under [`HANDLERS_DIR`], extension `.mjs`.
/// Two handlers that differ only in extension keep theirs (`a.ts.mjs`, `a.js.mjs`).
pub fn bundle_path(handler: &str, all: &[HandlerEntry]) -> String {
    let stem = |path: &str| path.rsplit_once('.').map_or(path.to_string(), |(stem, _)| stem.to_string());
    let clashes = all.iter().filter(|h| stem(&h.path) == stem(handler)).count() > 1;
    let name = if clashes { handler.to_string() } else { stem(handler) };
    format!("{HANDLERS_DIR}/{name}.mjs")
}

/// The bundle stage: what every hook that reaches one of `hosts` runs. Its handler module bundled,
/// or its prebuilt handler read (and found); packages the config ships whole, shipped. `root` is
/// the canonical bundle root.
pub fn bundle(
    bundle: &Bundle,
    root: &Utf8Path,
    hosts: &[Target],
    disk: &dyn Disk,
    cache: Option<&CacheStore>,
) -> Staged<Bundled> {
    let mut diagnostics = Vec::new();
    // In document order (canonical event, then id), so each module is declared where it first is.
    let mut hooks: Vec<_> = bundle.normalised.hooks.iter().collect();
    hooks.sort_by(|a, b| (a.event, &a.id).cmp(&(b.event, &b.id)));
    let mut modules: Vec<HandlerEntry> = Vec::new();
    let mut prebuilt = BTreeMap::new();
    for hook in hooks {
        if crate::pipeline::plan::delivered(&bundle.plans, &hook.id, hosts).is_empty() {
            continue;
        }
        match &hook.handler {
            Handler::Module { path } if !modules.iter().any(|m| &m.path == path) => {
                modules.push(HandlerEntry { path: path.clone(), declared_at: hook.declared_at.clone() })
            }
            Handler::Prebuilt { path, .. } if !prebuilt.contains_key(path) => {
                let absolute = lexical_join(root, path);
                if !disk.is_file(&absolute) {
                    diagnostics.push(messages::prebuilt_missing_at_build(path, &hook.declared_at));
                    continue;
                }
                prebuilt.insert(path.clone(), disk.read_recorded(&absolute).0);
            }
            _ => {}
        }
    }
    let normalised = &bundle.normalised;
    let mut bundled =
        bundle_handlers(root, &modules, &normalised.external, normalised.keep_outside_links, cache, &mut diagnostics);
    bundled.prebuilt = prebuilt;
    bundled.failed = diagnostics.iter().any(Diagnostic::is_error);
    Staged { value: bundled, diagnostics }
}

/// Bundles every handler of a bundle rooted at `root` (canonical), and ships `external` packages
/// (`keep_outside_links`: `bundle.keepOutsideLinks`).
fn bundle_handlers(
    root: &Utf8Path,
    handlers: &[HandlerEntry],
    external: &[ExternalPackage],
    keep_outside_links: bool,
    cache: Option<&CacheStore>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Bundled {
    let mut out = Bundled::default();
    let external_names: Vec<String> = external.iter().map(|e| e.name.clone()).collect();
    let mut pending = Vec::new();
    for handler in handlers {
        let key = cache::key(&handler.path, &external_names);
        match cache.map(|store| cache::lookup(store, &key, root)) {
            Some(cache::Found::Fresh(entry)) => {
                out.stats.cached += 1;
                diagnostics.extend(entry.warnings());
                out.sources.extend(entry.sources());
                out.handlers.insert(handler.path.clone(), entry.into_bundled(bundle_path(&handler.path, handlers)));
                continue;
            }
            Some(cache::Found::Corrupt) => out.stats.corrupt += 1,
            _ => {}
        }
        pending.push((handler, key));
    }

    let jobs = pending
        .iter()
        .map(|(handler, _)| run::Job {
            root: root.to_path_buf(),
            entry: handler.path.clone(),
            external: external_names.clone(),
        })
        .collect();
    // Recorded before the bundlers read: what decides resolution that is known in advance.
    let pre = if pending.is_empty() { Default::default() } else { resolution::preread(root) };
    let runs = run::run_all(jobs);
    for ((handler, key), run) in pending.into_iter().zip(runs) {
        out.stats.bundled += 1;
        let path = bundle_path(&handler.path, handlers);
        let mut run = run;
        let found = findings::judge(root, handler, &mut run, &external_names);
        let errors = found.diagnostics.iter().any(Diagnostic::is_error);
        diagnostics.extend(found.diagnostics.iter().cloned());
        out.sources.extend(found.sources.iter().cloned());
        let Some(chunk) = run.chunk.as_ref().filter(|_| !errors) else {
            // A bundler failure every finding above missed is still a failure of this handler, never
            // a handler without a bundle.
            if !errors {
                diagnostics.push(messages::bundler_error(
                    "the bundler produced no bundle and reported nothing a finding explains",
                    Some(&handler.declared_at),
                ));
            }
            continue;
        };
        let inputs = packages::inputs(root, &run, &pre);
        let summary = packages::summary(root, &inputs, &run.observed);
        let map = sourcemap::finish(&chunk.map, &path);
        let code = sourcemap::finish_code(&chunk.code);
        let bundled = BundledHandler { path, code, map, inputs, summary };
        if let Some(store) = cache {
            cache::store(store, &key, root, &bundled, &found.diagnostics, &found.sources);
        }
        out.handlers.insert(handler.path.clone(), bundled);
    }

    if !external.is_empty() {
        let (shipped, found) = ship::ship(root, external, &out.handlers, keep_outside_links);
        out.shipped = shipped;
        diagnostics.extend(found);
    }
    out
}

/// A path as diagnostics and summaries show it: relative to the bundle root (with `..` where it lies
/// outside), so output never depends on where the bundle sits on disk.
pub(crate) fn display_path(root: &Utf8Path, path: &Utf8Path) -> Utf8PathBuf {
    crate::io::relative_with_dots(path, root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_paths_mirror_handler_paths() {
        let at = Location { file: "agent-bundle.config.ts".into(), line: 1, column: 1, span: Default::default() };
        let entry = |path: &str| HandlerEntry { path: path.to_string(), declared_at: at.clone() };
        let all = [entry("src/hooks/a.ts"), entry("src/hooks/b.ts"), entry("src/hooks/b.js")];
        assert_eq!(bundle_path("src/hooks/a.ts", &all), "hooks/handlers/src/hooks/a.mjs");
        assert_eq!(bundle_path("src/hooks/b.js", &all), "hooks/handlers/src/hooks/b.js.mjs");
        assert_eq!(display_path("/w/bundle".into(), "/w/shared/x.ts".into()), "../shared/x.ts");
        assert_eq!(display_path("/w/bundle".into(), "/w/bundle/src/x.ts".into()), "src/x.ts");
    }
}
