//! npm packages as the bundle stage sees them: which package each bundled file belongs to, what a
//! bundle was built from (for the cache and for `--explain`), and the packages a bundle cannot carry
//! (native addons; code that reads files next to itself at run time).

use std::collections::{BTreeMap, BTreeSet};

use camino::{Utf8Path, Utf8PathBuf};

use super::plugin::Observed;
use super::run::Run;
use crate::io::stamp::{InputSet, Recorded};
use crate::vocabulary::digest::Sha256Hex;

/// An installed package: its folder (real path), name and version.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Package {
    pub dir: Utf8PathBuf,
    pub name: String,
    pub version: String,
}

impl Package {
    pub fn read(package_json: &Utf8Path) -> Option<Package> {
        let manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(package_json).ok()?).ok()?;
        let field = |key: &str| manifest.get(key).and_then(|v| v.as_str()).map(str::to_string);
        Some(Package {
            dir: package_json.parent()?.to_path_buf(),
            name: field("name").unwrap_or_else(|| "unnamed".to_string()),
            version: field("version").unwrap_or_else(|| "0.0.0".to_string()),
        })
    }

    /// `npm:<name>@<version>`: how `--explain` names a package among a hook's inputs.
    pub fn label(&self) -> String {
        format!("npm:{}@{}", self.name, self.version)
    }

    pub fn manifest(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&std::fs::read(self.dir.join("package.json")).ok()?).ok()
    }
}

use crate::vocabulary::npm::in_node_modules;

/// The package a module belongs to, from the package.json its resolution went through.
pub(super) fn package_of(observed: &Observed, module: &str) -> Option<Package> {
    observed.package_of.get(module).and_then(|json| Package::read(Utf8Path::new(json)))
}

/// Every file and folder a bundle depends on: the modules the bundler read (stamped at the read),
/// the package.json and tsconfig files that decided how they resolved and compiled, and the folders
/// whose listing decides resolution (a new `foo.ts` beside `foo.js`, a package installed or
/// removed); see [`super::resolution`]. What the bundler's resolver read itself comes from `pre`
/// (recorded before the run) when it is still as it was, else is recorded against the run's start.
pub(super) fn inputs(root: &Utf8Path, run: &Run, pre: &InputSet) -> InputSet {
    let observed = &run.observed;
    let mut set = InputSet::default();
    for (path, (recorded, _)) in &observed.modules {
        set.files.insert(path.clone(), recorded.clone());
    }
    let extra: BTreeSet<&String> = observed.package_of.values().chain(&run.watched).collect();
    for path in extra {
        if !set.files.contains_key(path) && !path.starts_with('\0') {
            let recorded = match pre.files.get(path) {
                Some(pre) => pre.clone().verified(Utf8Path::new(path), false),
                None => Recorded::read_file_since(Utf8Path::new(path), run.started_at),
            };
            set.files.insert(path.clone(), recorded);
        }
    }
    super::resolution::record(root, observed.modules.keys().map(String::as_str), pre, run.started_at, &mut set);
    set
}

/// What one handler's bundle was built from, for `--explain`: of the build's `inputs`, the `modules`
/// it is made of, the package.json files that governed them and the bundle's configuration; each of the
/// bundle's own files by its display path, each package as one entry (`npm:<name>@<version>`) with
/// a digest over its files.
pub(super) fn summary(
    root: &Utf8Path,
    inputs: &InputSet,
    run: &Run,
    modules: &BTreeSet<&str>,
) -> BTreeMap<String, String> {
    let observed = &run.observed;
    let governing: BTreeSet<&str> =
        modules.iter().filter_map(|m| observed.package_of.get(*m)).map(String::as_str).collect();
    // Its modules and their packages' package.json; of the rest, what configures every module of the
    // bundle (its tsconfig chain, its own package.json), but not other handlers' packages.
    let mine = |path: &str| {
        modules.contains(path)
            || governing.contains(path)
            || (!observed.modules.contains_key(path) && !in_node_modules(path))
    };
    let mut summary = BTreeMap::new();
    let mut packages: BTreeMap<String, Sha256Hex> = BTreeMap::new();
    for (path, recorded) in inputs.files.iter().filter(|(path, _)| mine(path)) {
        if in_node_modules(path) {
            let package = package_of(observed, path).or_else(|| nearest_package(Utf8Path::new(path)));
            let label = package.map_or_else(|| "npm:unknown".to_string(), |p| p.label());
            let hasher = packages.entry(label).or_default();
            hasher.update(path.as_bytes());
            hasher.update(recorded.sha256.as_bytes());
        } else {
            summary.insert(super::display_path(root, Utf8Path::new(path)).to_string(), recorded.sha256.clone());
        }
    }
    summary.extend(packages.into_iter().map(|(label, hasher)| (label, hasher.finish())));
    summary
}

/// The package `name` as Node finds it from files in `dir`: `dir/node_modules/<name>` or the
/// nearest ancestor's, followed to its real folder (pnpm links).
pub(super) fn installed(dir: &Utf8Path, name: &str) -> Option<Utf8PathBuf> {
    dir.ancestors().find_map(|ancestor| {
        let candidate = ancestor.join("node_modules").join(name);
        if !candidate.join("package.json").is_file() {
            return None;
        }
        let real = std::fs::canonicalize(&candidate).ok()?;
        Utf8PathBuf::from_path_buf(real).ok()
    })
}

/// The package whose folder holds `path`: the nearest package.json above it.
pub(super) fn nearest_package(path: &Utf8Path) -> Option<Package> {
    path.ancestors().skip(1).find_map(|dir| {
        let json = dir.join("package.json");
        json.is_file().then(|| Package::read(&json)).flatten()
    })
}

/// Why a package is a native addon, when it is one.
pub(super) fn native_addon(package: &Package) -> Option<String> {
    let manifest = package.manifest()?;
    if manifest.get("gypfile").and_then(|v| v.as_bool()) == Some(true) || package.dir.join("binding.gyp").is_file() {
        return Some("it builds a native addon (binding.gyp)".to_string());
    }
    const LOADERS: &[&str] =
        &["node-gyp-build", "bindings", "prebuild-install", "node-pre-gyp", "@mapbox/node-pre-gyp"];
    let dependencies = manifest.get("dependencies").and_then(|d| d.as_object());
    let loader = dependencies.and_then(|d| LOADERS.iter().find(|l| d.contains_key(**l)));
    loader.map(|loader| format!("it loads a native addon through `{loader}`"))
}

/// Where a package's module refers to its own location in a way that suggests it reads files next
/// to itself at run time: `__dirname`, `__filename` or `import.meta.url` together with a file read.
/// Returns the byte offset of the first such reference.
pub(super) fn reads_own_files(text: &str) -> Option<usize> {
    const READS: &[&str] = &["readFileSync", "readFile(", "readdirSync", "createReadStream", "WebAssembly."];
    if !READS.iter().any(|read| text.contains(read)) {
        return None;
    }
    ["__dirname", "__filename", "import.meta.url", "import.meta.dirname"]
        .iter()
        .filter_map(|needle| find_identifier(text, needle))
        .min()
}

/// The first occurrence of `needle` not inside a longer identifier (nor after a `.`).
pub(super) fn find_identifier(text: &str, needle: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(needle).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + needle.len()..].chars().next();
        !before.is_some_and(|c| is_ident(c) || c == '.') && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_reading_files_next_to_itself_is_recognised() {
        let figlet = "const fontDir = path.join(__dirname, '/../fonts/');\nfs.readFileSync(fontDir + name);";
        assert_eq!(reads_own_files(figlet), Some(26));
        assert_eq!(reads_own_files("module.exports = __dirname;"), None);
        assert_eq!(reads_own_files("x.__dirname; readFileSync(a)"), None);
    }
}
