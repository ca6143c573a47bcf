//! Packages shipped whole (`bundle.external`): the opt-out for what a bundle cannot carry, such as a
//! native addon or a package that reads files next to itself. The bundles keep importing such a
//! package by name; the package and its complete dependency closure are copied into
//! `hooks/node_modules`, laid out so that Node resolves every importer to the very copy it resolved
//! to at build time (two versions of one package each keep their own), and a `hooks/.gitignore`
//! re-includes that folder so that publishing through git keeps it.
//!
//! Of each package only what it needs at run time ships ([`closure`](super::closure)), with its
//! files' modes exactly; the manifest records what was left out. Nothing outside the bundle root,
//! the `node_modules` folders Node searches from it and the package's own folder is read: a symlink
//! leading outside is an error (AB4851), or with `bundle.keepOutsideLinks` shipped as that link.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use camino::{Utf8Path, Utf8PathBuf};

use super::ExternalPackage;
use super::closure::Closure;
use super::packages::{self, Package};
use crate::artifact::{ArtifactFile, LeftOut, NativeBinary};
use crate::diagnostic::{Diagnostic, messages};
use crate::io::stamp::{InputSet, Recorded};
use crate::io::tree::{self, Decision};
use crate::vocabulary::source::Location;

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

/// Copies `external` packages with their dependencies. `keep_outside_links`: `bundle.keepOutsideLinks`.
pub(super) fn ship(
    root: &Utf8Path,
    external: &[ExternalPackage],
    bundled_code: &[&str],
    keep_outside_links: bool,
) -> (Shipped, Vec<Diagnostic>) {
    let mut shipped = Shipped::default();
    let mut diagnostics = Vec::new();
    // Per package: its folder, its name, the slot of its importer, and the `bundle.external` entry
    // that brought it in (where its diagnostics point).
    let mut queue: VecDeque<(Utf8PathBuf, String, Option<String>, usize)> = VecDeque::new();
    for (index, package) in external.iter().enumerate() {
        let Some(dir) = packages::installed(root, &package.name) else {
            diagnostics.push(messages::external_not_installed(&package.name, &package.declared_at));
            continue;
        };
        let imported = bundled_code.iter().any(|code| {
            code.contains(&format!("\"{}\"", package.name)) || code.contains(&format!("\"{}/", package.name))
        });
        if !imported {
            diagnostics.push(messages::external_unused(&package.name, &package.declared_at));
            continue;
        }
        queue.push_back((dir, package.name.clone(), None, index));
    }
    let within = tree::confinement(root, &crate::io::RealDisk);

    // Placement, as npm hoists: each package goes to the top-level folder unless another copy of
    // the same name already sits on its importer's lookup path, in which case it nests under the
    // importer. Breadth first, in name order, so the layout is deterministic.
    let mut placed: BTreeMap<String, Utf8PathBuf> = BTreeMap::new();
    let mut done: BTreeSet<(Utf8PathBuf, String)> = BTreeSet::new();
    while let Some((dir, name, importer_slot, origin)) = queue.pop_front() {
        let slot = match slot_for(&placed, &name, &dir, importer_slot.as_deref()) {
            Slot::Reuse => continue,
            Slot::New(slot) => slot,
        };
        placed.insert(slot.clone(), dir.clone());
        if !done.insert((dir.clone(), slot.clone())) {
            continue;
        }
        let at = &external[origin].declared_at;
        let Some(package) = Package::read(&dir.join("package.json")) else {
            diagnostics.push(messages::package_unreadable(&name, "its package.json cannot be read", Some(at)));
            continue;
        };
        let mut dependencies = dependencies_of(&package);
        dependencies.sort();
        for (dependency, optional) in dependencies {
            match packages::installed(&dir, &dependency) {
                Some(found) => queue.push_back((found, dependency, Some(slot.clone()), origin)),
                None if optional => {}
                None => {
                    let detail = format!("its dependency `{dependency}` is not installed");
                    diagnostics.push(messages::package_unreadable(&package.name, &detail, Some(at)));
                }
            }
        }
        // A package linked from elsewhere (a workspace sibling) keeps its own folder as well.
        let mut allowed = within.clone();
        allowed.push(dir.clone());
        let copy = Copy { root, package: &package, within: &allowed, keep_outside_links, declared_at: at };
        let folder = format!("{SHIPPED_DIR}/{slot}");
        let (native, left_out) = copy.run(&folder, &mut shipped, &mut diagnostics);
        let binaries: Vec<NativeBinary> = shipped
            .files
            .iter()
            .filter_map(|(path, file)| {
                let inside = path.strip_prefix(&format!("{folder}/"))?;
                (inside.ends_with(".node") && !inside.contains("/node_modules/"))
                    .then(|| super::native::read(inside, &file.bytes))?
            })
            .collect();
        if native || packages::native_addon(&package).is_some() {
            diagnostics.extend(native_coverage(&package.name, &binaries, at));
        }
        shipped.packages.push(ShippedPackage {
            name: package.name.clone(),
            version: package.version.clone(),
            path: folder,
            native: binaries,
            left_out,
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

/// Copying one package's run-time files.
struct Copy<'a> {
    root: &'a Utf8Path,
    package: &'a Package,
    /// The real folders its files may come from.
    within: &'a [Utf8PathBuf],
    keep_outside_links: bool,
    declared_at: &'a Location,
}

impl Copy<'_> {
    /// Copies the package's run-time closure (not its nested `node_modules`, whose packages are
    /// placed on their own) to `to`, modes exactly; returns whether it holds compiled `.node` files
    /// and what it left out, by top-level entry.
    fn run(&self, to: &str, shipped: &mut Shipped, diagnostics: &mut Vec<Diagnostic>) -> (bool, Vec<LeftOut>) {
        let dir = &self.package.dir;
        let manifest = self.package.manifest().unwrap_or_default();
        let closure = Closure::of(&manifest, dir.join("binding.gyp").is_file());
        let decide = |path: &str, is_dir: bool| {
            if is_dir && path.rsplit('/').next() == Some("node_modules") {
                Decision::Skip
            } else if closure.leaves_out(path, is_dir) {
                Decision::LeaveOut
            } else {
                Decision::Ship
            }
        };
        let name = &self.package.name;
        let walked = match tree::walk(dir, self.within, &decide) {
            Ok(walked) => walked,
            Err(error) => {
                let detail = format!("its folder cannot be read: {error}");
                diagnostics.push(messages::package_unreadable(name, &detail, Some(self.declared_at)));
                return (false, Vec::new());
            }
        };
        let mut native = false;
        for file in &walked.files {
            let (recorded, read) = Recorded::read_file_with_mode(&file.real);
            let Some((bytes, mode)) = read else {
                let detail = format!("its file `{}` cannot be read", file.path);
                diagnostics.push(messages::package_unreadable(name, &detail, Some(self.declared_at)));
                continue;
            };
            native |= file.path.ends_with(".node");
            shipped.files.insert(format!("{to}/{}", file.path), ArtifactFile::with_mode(bytes, mode));
            shipped.inputs.files.insert(file.real.to_string(), recorded);
        }
        for link in &walked.outside {
            if self.keep_outside_links {
                shipped.files.insert(format!("{to}/{}", link.path), ArtifactFile::symlink(&link.target));
                shipped.inputs.files.insert(link.at.to_string(), Recorded::read_link(&link.at));
            } else {
                let shown = super::display_path(self.root, &link.at);
                diagnostics.push(messages::package_link_outside(name, shown.as_str(), &link.target, self.declared_at));
            }
        }
        // A link that leads nowhere cannot run either: it is left out, like what the closure leaves.
        let mut left_out: BTreeMap<String, LeftOut> = BTreeMap::new();
        let measured = walked.left_out.iter().map(|l| (&l.path, &l.at, l.bytes));
        let broken = walked.broken.iter().map(|l| (&l.path, &l.at, l.target.len() as u64));
        for (path, at, bytes) in measured.chain(broken) {
            let top = match path.split_once('/') {
                Some((first, _)) => format!("{first}/"),
                None => path.clone(),
            };
            let entry = left_out.entry(top.clone()).or_insert(LeftOut { path: top, files: 0, bytes: 0 });
            entry.files += 1;
            entry.bytes += bytes;
            shipped.inputs.files.insert(at.to_string(), Recorded::measure(at));
        }
        for folder in &walked.dirs {
            shipped.inputs.dirs.insert(folder.to_string(), Recorded::read_dir(folder));
        }
        (native, left_out.into_values().collect())
    }
}

/// AB4857: a shipped package's compiled addons cover less than the systems hosts run on, or tie
/// the hook to one Node release line (or there is none: it builds at install); nothing when its
/// binaries are Node-API ones for every host system.
fn native_coverage(name: &str, binaries: &[NativeBinary], at: &Location) -> Option<Diagnostic> {
    let (missing, tied) = super::native::missing(binaries);
    if !binaries.is_empty() && missing.is_empty() && !tied {
        return None;
    }
    let mut built: Vec<String> = binaries
        .iter()
        .map(|b| format!("{} ({})", b.systems.join(", "), super::native::describe_abi(&b.abi)))
        .collect();
    built.sort();
    built.dedup();
    Some(messages::native_addon_coverage(name, &built, &missing, at))
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
