//! What decides how a module resolves and compiles besides its own bytes (D14): the folders whose
//! listing decides what a relative or bare import finds, the package.json that governs the module
//! (`type`, `exports`, `imports`, `main`), and the tsconfig that compiles it with its `extends`
//! chain (`paths`, `baseUrl`, decorators, JSX). The bundler's resolver reads these itself, so they
//! are recorded after the run, each against the moment the run started: one that changed since is
//! recorded as unknown, never as seen.
//!
//! Above the bundle root only the names that can matter are recorded (`package.json`,
//! `tsconfig.json`, `node_modules` of each ancestor), not whole listings: a busy `/tmp` must not
//! make every bundle below it stale.

use std::collections::BTreeSet;

use camino::{Utf8Path, Utf8PathBuf};

use crate::io::stamp::{InputSet, Listing, Recorded};
use crate::vocabulary::npm::in_node_modules;

/// How many `extends` a tsconfig chain may follow (TypeScript's own limit is lower in practice).
const EXTENDS_DEPTH: usize = 16;

/// What can decide resolution and compilation that is known before the bundler runs, recorded
/// then (exact: the bundler reads after): every folder of the bundle's own tree (by the names that
/// can change resolution), its package.json and tsconfig files, and above the root each ancestor's
/// `package.json`, `tsconfig.json` and `node_modules`; the root's installed packages by their
/// package.json. Built artifacts, `node_modules` and hidden folders are not walked. A file `disk`
/// has already recorded (the loader read the root's package.json) is taken from its record, not
/// read again.
pub(super) fn preread(root: &Utf8Path, disk: &dyn crate::io::Disk) -> InputSet {
    let mut set = InputSet::default();
    let walker = walkdir::WalkDir::new(root).sort_by_file_name().into_iter().filter_entry(|entry| {
        let name = entry.file_name().to_string_lossy();
        entry.depth() == 0
            || !entry.file_type().is_dir()
            || !(name.starts_with('.')
                || name == "node_modules"
                || name == "target"
                || entry.path().join(crate::artifact::MANIFEST_PATH).is_file())
    });
    for entry in walker.flatten() {
        let Some(path) = Utf8Path::from_path(entry.path()) else { continue };
        if entry.file_type().is_dir() {
            set.dirs.insert(path.to_string(), Recorded::read_listing(path, Listing::Resolution));
        } else if is_config_file(path.file_name().unwrap_or_default()) {
            let recorded = disk.recorded_file(path).unwrap_or_else(|| Recorded::read_file(path).0);
            set.files.insert(path.to_string(), recorded);
        }
    }
    // The installed packages the bundle's own modules find first: the folder's listing and each
    // package's package.json (most of what a resolution reads in node_modules).
    let node_modules = root.join("node_modules");
    set.dirs.insert(node_modules.to_string(), Recorded::read_listing(&node_modules, Listing::All));
    for name in std::fs::read_dir(&node_modules).into_iter().flatten().flatten() {
        let name = name.file_name().to_string_lossy().into_owned();
        let packages: Vec<Utf8PathBuf> = if name.starts_with('@') {
            let scope = node_modules.join(&name);
            std::fs::read_dir(&scope)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| scope.join(e.file_name().to_string_lossy().as_ref()))
                .collect()
        } else if name.starts_with('.') {
            Vec::new()
        } else {
            vec![node_modules.join(&name)]
        };
        for package in packages {
            let manifest = package.join("package.json");
            set.files.insert(manifest.to_string(), Recorded::read_file(&manifest).0);
        }
    }
    for dir in root.ancestors().skip(1) {
        for name in ["package.json", "tsconfig.json"] {
            let path = dir.join(name);
            set.files.insert(path.to_string(), Recorded::read_file(&path).0);
        }
        let node_modules = dir.join("node_modules");
        set.dirs.insert(node_modules.to_string(), Recorded::read_listing(&node_modules, Listing::All));
    }
    set
}

/// The files besides modules that steer how modules resolve and compile.
fn is_config_file(name: &str) -> bool {
    name == "package.json" || name == "jsconfig.json" || (name.starts_with("tsconfig") && name.ends_with(".json"))
}

/// Records into `set` what decides how each of `modules` (absolute paths) resolves and compiles:
/// from `pre` (recorded before the run) where it holds the input and the input is still as it was
/// then, else read now against the run's start.
pub(super) fn record<'a>(
    root: &Utf8Path,
    modules: impl IntoIterator<Item = &'a str>,
    pre: &InputSet,
    read_since: i128,
    set: &mut InputSet,
) {
    let mut recorder = Recorder { root, pre, read_since, set, seen_dirs: BTreeSet::new() };
    for module in modules {
        recorder.module(Utf8Path::new(module));
    }
}

struct Recorder<'a> {
    root: &'a Utf8Path,
    pre: &'a InputSet,
    read_since: i128,
    set: &'a mut InputSet,
    seen_dirs: BTreeSet<Utf8PathBuf>,
}

impl Recorder<'_> {
    fn module(&mut self, module: &Utf8Path) {
        let own = !in_node_modules(module.as_str());
        // Where a listing of every folder counts: the bundle root for the bundle's own modules, the
        // package's folder for a package's (a new file there shadows, a nested node_modules
        // changes what its imports find).
        let boundary = if own { self.root.to_path_buf() } else { package_dir(module) };
        for prefix in node_modules_prefixes(module) {
            self.dir(&prefix, Listing::All);
        }
        let Some(parent) = module.parent() else { return };
        if !self.seen_dirs.insert(parent.to_path_buf()) {
            return;
        }
        // The module's own folder, wherever it lies: a new file there can shadow an import of it.
        self.dir(parent, Listing::Resolution);
        let mut package_json = None;
        let mut tsconfig = None;
        for dir in parent.ancestors() {
            if dir.starts_with(&boundary) {
                self.dir(dir, Listing::Resolution);
            } else if own {
                // Above the root: a package.json, tsconfig.json or node_modules appearing here
                // can change resolution or compilation.
                self.file(&dir.join("package.json"));
                self.file(&dir.join("tsconfig.json"));
                self.dir(&dir.join("node_modules"), Listing::All);
            } else {
                break;
            }
            if package_json.is_none() && dir.join("package.json").is_file() {
                package_json = Some(dir.join("package.json"));
            }
            if tsconfig.is_none() && dir.join("tsconfig.json").is_file() {
                tsconfig = Some(dir.join("tsconfig.json"));
            }
        }
        // The nearest package.json governs the module, whatever folder it sits in.
        if let Some(package_json) = package_json.or_else(|| nearest(parent, "package.json")) {
            self.file(&package_json);
        }
        if let Some(tsconfig) = tsconfig.or_else(|| nearest(parent, "tsconfig.json")) {
            self.tsconfig(&tsconfig, 0);
        }
    }

    fn file(&mut self, path: &Utf8Path) {
        if self.set.files.contains_key(path.as_str()) {
            return;
        }
        let recorded = match self.pre.files.get(path.as_str()) {
            Some(pre) => pre.clone().verified(path, false),
            None => Recorded::read_file_since(path, self.read_since),
        };
        self.set.files.insert(path.to_string(), recorded);
    }

    fn dir(&mut self, path: &Utf8Path, listing: Listing) {
        // A folder recorded by all its names covers a record of some of them.
        let covers = |r: &Recorded| r.listing == Listing::All || listing == Listing::Resolution;
        if self.set.dirs.get(path.as_str()).is_some_and(covers) {
            return;
        }
        let recorded = match self.pre.dirs.get(path.as_str()).filter(|r| covers(r)) {
            Some(pre) => pre.clone().verified(path, true),
            None => Recorded::read_listing_since(path, listing, self.read_since),
        };
        self.set.dirs.insert(path.to_string(), recorded);
    }

    /// A tsconfig file and every file its `extends` names, with the candidates tried before them.
    fn tsconfig(&mut self, path: &Utf8Path, depth: usize) {
        if depth > EXTENDS_DEPTH {
            return;
        }
        self.file(path);
        let Some(parsed) = std::fs::read_to_string(path).ok().and_then(|text| parse_jsonc(&text)) else { return };
        let Some(dir) = path.parent() else { return };
        let extends: Vec<String> = match parsed.get("extends") {
            Some(serde_json::Value::String(one)) => vec![one.clone()],
            Some(serde_json::Value::Array(many)) => {
                many.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()
            }
            _ => Vec::new(),
        };
        for specifier in extends {
            if let Some(next) = self.extends_target(dir, &specifier) {
                self.tsconfig(&next, depth + 1);
            }
        }
    }

    /// Where an `extends` specifier leads, recording every candidate tried (present or not).
    fn extends_target(&mut self, dir: &Utf8Path, specifier: &str) -> Option<Utf8PathBuf> {
        let relative = specifier.starts_with("./") || specifier.starts_with("../") || specifier.starts_with('/');
        let candidates = |base: Utf8PathBuf| -> Vec<Utf8PathBuf> {
            let mut list = vec![base.clone()];
            if base.extension() != Some("json") {
                list.push(Utf8PathBuf::from(format!("{base}.json")));
                list.push(base.join("tsconfig.json"));
            }
            list
        };
        if relative {
            return self.first_file(candidates(crate::io::lexical_join(dir, specifier)));
        }
        // A package's config: `node_modules/<specifier>` from the tsconfig's folder up, the
        // package's package.json included (its `exports` or `tsconfig` field may point elsewhere).
        for ancestor in dir.ancestors() {
            let base = ancestor.join("node_modules").join(specifier);
            let package = ancestor.join("node_modules").join(crate::vocabulary::npm::package_name(specifier));
            self.file(&package.join("package.json"));
            if let Some(found) = self.first_file(candidates(base)) {
                return Some(found);
            }
        }
        None
    }

    fn first_file(&mut self, candidates: Vec<Utf8PathBuf>) -> Option<Utf8PathBuf> {
        for candidate in candidates {
            self.file(&candidate);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        None
    }
}

/// The first `name` in `dir` or an ancestor.
fn nearest(dir: &Utf8Path, name: &str) -> Option<Utf8PathBuf> {
    dir.ancestors().map(|d| d.join(name)).find(|candidate| candidate.is_file())
}

/// The folder of the package a module in `node_modules` belongs to: the path up to the package
/// name after its last `node_modules` (`@scope/name` for a scoped package).
fn package_dir(module: &Utf8Path) -> Utf8PathBuf {
    let text = module.as_str();
    let Some(index) = text.rfind("/node_modules/") else { return module.to_path_buf() };
    let start = index + "/node_modules/".len();
    let rest = &text[start..];
    let mut parts = rest.split('/');
    let first = parts.next().unwrap_or_default();
    let name_len =
        if first.starts_with('@') { first.len() + 1 + parts.next().map_or(0, str::len) } else { first.len() };
    Utf8PathBuf::from(&text[..start + name_len])
}

/// Every `…/node_modules` folder on a module's path (a pnpm layout nests them).
fn node_modules_prefixes(module: &Utf8Path) -> Vec<Utf8PathBuf> {
    let text = module.as_str();
    text.match_indices("/node_modules/")
        .map(|(index, _)| Utf8PathBuf::from(&text[..index + "/node_modules".len()]))
        .collect()
}

/// JSON with comments and trailing commas, as tsconfig files are written.
fn parse_jsonc(text: &str) -> Option<serde_json::Value> {
    serde_json::from_str(&crate::vocabulary::json::strip_jsonc(text)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packages_folder_is_found_after_its_last_node_modules() {
        assert_eq!(package_dir("/r/node_modules/a/lib/x.js".into()), "/r/node_modules/a");
        assert_eq!(package_dir("/r/node_modules/@s/b/x.js".into()), "/r/node_modules/@s/b");
        assert_eq!(
            package_dir("/r/node_modules/.pnpm/a@1/node_modules/a/x.js".into()),
            "/r/node_modules/.pnpm/a@1/node_modules/a"
        );
        assert_eq!(
            node_modules_prefixes("/r/node_modules/.pnpm/a@1/node_modules/a/x.js".into()),
            vec![Utf8PathBuf::from("/r/node_modules"), Utf8PathBuf::from("/r/node_modules/.pnpm/a@1/node_modules")]
        );
    }
}
