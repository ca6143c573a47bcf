//! Packages shipped whole (`bundle.external`): the opt-out for what a bundle cannot carry, such as a
//! native addon or a package that reads files next to itself. The bundles keep importing such a
//! package by name; the package and its complete dependency closure are copied, file modes kept,
//! into `hooks/node_modules`, laid out so that Node resolves every importer to the very copy it
//! resolved to at build time (two versions of one package each keep their own), and a
//! `hooks/.gitignore` re-includes that folder so that publishing through git keeps it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use camino::{Utf8Path, Utf8PathBuf};

use super::packages::{self, Package};
use super::{BundledHandler, ExternalPackage};
use crate::artifact::ArtifactFile;
use crate::diagnostic::{Diagnostic, messages};
use crate::io::stamp::{InputSet, Recorded};

/// Where shipped packages go: the `node_modules` Node finds from every bundle in `hooks/handlers`;
/// and the `.gitignore` beside it: a plugin repository's own `node_modules/` rule must not drop it.
pub use crate::hosts::layout::{GITIGNORE_PATH, SHIPPED_DIR};
const GITIGNORE: &str =
    "# Written by agent-bundle: these packages are part of the plugin (bundle.external).\n!node_modules/\n";

pub use crate::artifact::ShippedPackage;

#[derive(Clone, Debug, Default)]
pub struct Shipped {
    pub files: BTreeMap<String, ArtifactFile>,
    pub packages: Vec<ShippedPackage>,
    /// Every file and folder read, for recognising an unchanged build.
    pub inputs: InputSet,
}

pub(super) fn ship(
    root: &Utf8Path,
    external: &[ExternalPackage],
    handlers: &BTreeMap<String, BundledHandler>,
) -> (Shipped, Vec<Diagnostic>) {
    let mut shipped = Shipped::default();
    let mut diagnostics = Vec::new();
    let mut queue: VecDeque<(Utf8PathBuf, String, Option<String>)> = VecDeque::new();
    for package in external {
        let Some(dir) = packages::installed(root, &package.name) else {
            diagnostics.push(messages::external_not_installed(&package.name, &package.declared_at));
            continue;
        };
        let imported = handlers.values().any(|h| {
            h.code.contains(&format!("\"{}\"", package.name)) || h.code.contains(&format!("\"{}/", package.name))
        });
        if !imported {
            diagnostics.push(messages::external_unused(&package.name, &package.declared_at));
            continue;
        }
        queue.push_back((dir, package.name.clone(), None));
    }

    // Placement, as npm hoists: each package goes to the top-level folder unless another copy of
    // the same name already sits on its importer's lookup path, in which case it nests under the
    // importer. Breadth first, in name order, so the layout is deterministic.
    let mut placed: BTreeMap<String, Utf8PathBuf> = BTreeMap::new();
    let mut done: BTreeSet<(Utf8PathBuf, String)> = BTreeSet::new();
    while let Some((dir, name, importer_slot)) = queue.pop_front() {
        let slot = match slot_for(&placed, &name, &dir, importer_slot.as_deref()) {
            Slot::Reuse => continue,
            Slot::New(slot) => slot,
        };
        placed.insert(slot.clone(), dir.clone());
        if !done.insert((dir.clone(), slot.clone())) {
            continue;
        }
        let Some(package) = Package::read(&dir.join("package.json")) else {
            let at = external.iter().find(|e| e.name == name).map(|e| &e.declared_at);
            diagnostics.push(messages::package_unreadable(&name, "its package.json cannot be read", at));
            continue;
        };
        let mut dependencies = dependencies_of(&package);
        dependencies.sort();
        for (dependency, optional) in dependencies {
            match packages::installed(&dir, &dependency) {
                Some(found) => queue.push_back((found, dependency, Some(slot.clone()))),
                None if optional => {}
                None => {
                    let at = external.iter().find(|e| e.name == name).map(|e| &e.declared_at);
                    let detail = format!("its dependency `{dependency}` is not installed");
                    diagnostics.push(messages::package_unreadable(&package.name, &detail, at));
                }
            }
        }
        let native = copy_package(&dir, &format!("{SHIPPED_DIR}/{slot}"), &mut shipped);
        let native = native || packages::native_addon(&package).is_some();
        shipped.packages.push(ShippedPackage {
            name: package.name.clone(),
            version: package.version.clone(),
            path: format!("{SHIPPED_DIR}/{slot}"),
            native_platform: native.then(node_platform),
        });
    }
    if !shipped.packages.is_empty() {
        shipped.files.insert(GITIGNORE_PATH.to_string(), ArtifactFile::new(GITIGNORE.as_bytes().to_vec()));
    }
    shipped.packages.sort_by(|a, b| a.path.cmp(&b.path));
    (shipped, diagnostics)
}

enum Slot {
    Reuse,
    New(String),
}

/// Where a package goes: the first slot on the importer's lookup path that holds a copy decides
/// (the same copy: reuse it; another: nest under the importer); with none, the top level.
fn slot_for(placed: &BTreeMap<String, Utf8PathBuf>, name: &str, dir: &Utf8Path, importer: Option<&str>) -> Slot {
    let Some(importer) = importer else {
        return match placed.get(name) {
            Some(existing) if existing == dir => Slot::Reuse,
            _ => Slot::New(name.to_string()),
        };
    };
    // From `a/node_modules/b`: `a/node_modules/b/node_modules/<name>`, `a/node_modules/<name>`, `<name>`.
    let mut lookup = vec![format!("{importer}/node_modules/{name}")];
    let mut rest = importer;
    while let Some(index) = rest.rfind("/node_modules/") {
        rest = &rest[..index];
        lookup.push(format!("{rest}/node_modules/{name}"));
    }
    lookup.push(name.to_string());
    for slot in &lookup {
        match placed.get(slot) {
            Some(existing) if existing == dir => return Slot::Reuse,
            Some(_) => return Slot::New(lookup[0].clone()),
            None => {}
        }
    }
    Slot::New(name.to_string())
}

/// What a package needs installed beside it at run time, with whether it may be absent.
fn dependencies_of(package: &Package) -> Vec<(String, bool)> {
    let Some(manifest) = package.manifest() else { return Vec::new() };
    let mut out = BTreeMap::new();
    for (key, optional) in [("peerDependencies", true), ("optionalDependencies", true), ("dependencies", false)] {
        if let Some(object) = manifest.get(key).and_then(|v| v.as_object()) {
            for name in object.keys() {
                out.insert(name.clone(), optional);
            }
        }
    }
    out.into_iter().collect()
}

/// Copies a package's own files (not its nested `node_modules`, whose packages are placed on their
/// own) with their modes; returns whether it holds compiled `.node` files.
fn copy_package(dir: &Utf8Path, to: &str, shipped: &mut Shipped) -> bool {
    let mut native = false;
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || entry.file_name() != "node_modules");
    for entry in walker.flatten() {
        let Some(path) = Utf8Path::from_path(entry.path()) else { continue };
        if entry.file_type().is_dir() {
            shipped.inputs.dirs.insert(path.to_string(), Recorded::read_dir(path));
            continue;
        }
        let Ok(relative) = path.strip_prefix(dir) else { continue };
        let (mut recorded, bytes) = Recorded::read_file(path);
        let Some(bytes) = bytes else { continue };
        native |= path.extension() == Some("node");
        let executable = crate::io::is_executable(path);
        recorded.executable = Some(executable);
        shipped.files.insert(format!("{to}/{relative}"), ArtifactFile { bytes, executable });
        shipped.inputs.files.insert(path.to_string(), recorded);
    }
    native
}

/// This machine's platform as Node spells it (`process.platform`-`process.arch`).
fn node_platform() -> String {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        "x86" => "ia32",
        other => other,
    };
    format!("{os}-{arch}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_version_nests_under_its_importer() {
        let mut placed = BTreeMap::new();
        placed.insert("semver".to_string(), Utf8PathBuf::from("/p/node_modules/semver"));
        placed.insert("make-dir".to_string(), Utf8PathBuf::from("/p/node_modules/make-dir"));
        let nested = Utf8Path::new("/p/node_modules/make-dir/node_modules/semver");
        assert!(
            matches!(slot_for(&placed, "semver", nested, Some("make-dir")), Slot::New(s) if s == "make-dir/node_modules/semver")
        );
        let same = Utf8Path::new("/p/node_modules/semver");
        assert!(matches!(slot_for(&placed, "semver", same, Some("make-dir")), Slot::Reuse));
        assert!(
            matches!(slot_for(&placed, "bindings", Utf8Path::new("/p/node_modules/bindings"), Some("make-dir")), Slot::New(s) if s == "bindings")
        );
    }
}
