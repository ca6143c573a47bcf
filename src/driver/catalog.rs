//! Marketplace catalogs for a repository that publishes its built plugins: declared once in
//! `agent-bundle.marketplace.json` at the build's root, written after the bundles are built, one
//! file per catalog path of the distribution table (Claude Code's, which Codex reads too, and
//! Copilot CLI's), each listing the plugins of the build that target a host reading it, by their
//! artifact folder relative to the root. Users then install straight from the repository
//! (`claude plugin marketplace add owner/repo`, `copilot plugin marketplace add …`).
//!
//! A catalog file is agent-bundle's to replace only when it is missing or already describes the
//! declared marketplace (its `name` is the declared one): a catalog someone else wrote is never
//! overwritten.

use std::collections::{BTreeMap, BTreeSet};

use camino::{Utf8Path, Utf8PathBuf};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::artifact::ArtifactManifest;
use crate::diagnostic::{Diagnostic, messages};
use crate::hosts::distribution;
use crate::io::Disk;
use crate::vocabulary::target::Target;

/// The declaration's file name, at the root of a build (`--root`, with or without `--recursive`).
pub const DECLARATION: &str = "agent-bundle.marketplace.json";

/// What the author declares of the marketplace; every plugin's own facts come from its artifact.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declaration {
    /// The marketplace's name: lowercase letters, digits and dashes (what users type after `@`).
    pub name: String,
    /// Who publishes it: `{ "name": …, "email"?: …, "url"?: … }`.
    pub owner: Owner,
    pub description: String,
}

#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Owner {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// One built plugin the catalogs may list.
#[derive(Clone, Debug)]
pub struct Listed<'m> {
    /// Its artifact folder.
    pub artifact: Utf8PathBuf,
    pub manifest: &'m ArtifactManifest,
}

/// One catalog file as the build writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogFile {
    /// Relative to the root, `/`-separated.
    pub path: String,
    pub bytes: Vec<u8>,
    /// The hosts that read it.
    pub hosts: Vec<Target>,
    /// The plugins it lists, by name.
    pub plugins: Vec<String>,
}

/// The declaration at `root`, if there is one.
pub fn read_declaration(root: &Utf8Path, disk: &dyn Disk) -> Result<Option<Declaration>, Diagnostic> {
    let path = root.join(DECLARATION);
    if !disk.exists(&path) {
        return Ok(None);
    }
    let text = disk.read_to_string(&path).map_err(|e| messages::marketplace_unreadable(&path, &e))?;
    let declaration: Declaration =
        serde_json::from_str(&text).map_err(|e| messages::marketplace_invalid(&path, e.line(), e.column(), &e))?;
    if !is_kebab(&declaration.name) {
        return Err(messages::marketplace_name_invalid(&path, &declaration.name));
    }
    for (key, value) in [("owner.name", &declaration.owner.name), ("description", &declaration.description)] {
        if value.trim().is_empty() {
            return Err(messages::marketplace_key_empty(&path, key));
        }
    }
    Ok(Some(declaration))
}

fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && name
            .split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// The catalog files for `plugins` (in any order: entries are sorted by name), rooted at `root`.
pub fn render(
    root: &Utf8Path,
    declaration: &Declaration,
    plugins: &[Listed<'_>],
) -> Result<Vec<CatalogFile>, Diagnostic> {
    let mut by_name: BTreeMap<&str, &Listed<'_>> = BTreeMap::new();
    for plugin in plugins {
        let name = plugin.manifest.plugin.name.as_str();
        if let Some(first) = by_name.insert(name, plugin) {
            return Err(messages::marketplace_duplicate_plugin(name, &first.artifact, &plugin.artifact));
        }
    }
    let mut files = Vec::new();
    for (path, hosts) in distribution::catalog_paths() {
        let folder = distribution::catalog_entry_folder(path);
        let mut entries = Vec::new();
        let mut listed = Vec::new();
        for (name, plugin) in &by_name {
            if !plugin.manifest.hosts.keys().any(|built| hosts.contains(built)) {
                continue;
            }
            let Some(relative) = crate::io::relative_to(&plugin.artifact, root) else {
                return Err(messages::marketplace_plugin_outside(name, &plugin.artifact, root));
            };
            let parts: Vec<&str> = [relative.as_str(), folder].into_iter().filter(|p| !p.is_empty()).collect();
            let source = format!("./{}", parts.join("/"));
            let mut entry = json!({ "name": name, "source": source });
            let facts = &plugin.manifest.plugin;
            for (key, value) in [
                ("description", facts.description.clone().map(Value::String)),
                ("version", facts.version.clone().map(Value::String)),
                ("author", facts.author.clone()),
            ] {
                if let Some(value) = value {
                    entry[key] = value;
                }
            }
            entries.push(entry);
            listed.push((*name).to_string());
        }
        if entries.is_empty() {
            continue;
        }
        let document = json!({
            "name": declaration.name,
            "owner": declaration.owner,
            "description": declaration.description,
            "plugins": entries,
        });
        let mut bytes = crate::vocabulary::json::pretty_value(&document).into_bytes();
        bytes.push(b'\n');
        files.push(CatalogFile { path: path.to_string(), bytes, hosts: hosts.clone(), plugins: listed });
    }
    Ok(files)
}

/// The declared marketplace of a build rooted at `root`, with the catalogs listing `plugins`.
#[derive(Debug)]
pub struct Planned<'m> {
    /// `root`, canonical (the catalogs' `./` sources are relative to it).
    pub root: Utf8PathBuf,
    pub declaration: Declaration,
    pub listed: Vec<Listed<'m>>,
    pub files: Vec<CatalogFile>,
}

/// Reads the declaration at `root` and renders its catalogs for `plugins` (each built artifact
/// folder with its manifest); `None` when `root` declares no marketplace.
pub fn plan<'m>(
    root: &Utf8Path,
    plugins: impl IntoIterator<Item = (&'m Utf8Path, &'m ArtifactManifest)>,
    disk: &dyn Disk,
) -> Result<Option<Planned<'m>>, Diagnostic> {
    let Some(declaration) = read_declaration(root, disk)? else { return Ok(None) };
    let canonical = |path: &Utf8Path| disk.canonicalize(path).unwrap_or_else(|| path.to_path_buf());
    let listed: Vec<Listed<'m>> =
        plugins.into_iter().map(|(artifact, manifest)| Listed { artifact: canonical(artifact), manifest }).collect();
    let root = canonical(root);
    let files = render(&root, &declaration, &listed)?;
    Ok(Some(Planned { root, declaration, listed, files }))
}

/// Whether the file at `path` may be replaced by the declared marketplace's catalog: it is missing,
/// or it is a catalog of that marketplace.
fn ours(path: &Utf8Path, declaration: &Declaration) -> bool {
    match fs_err::read(path) {
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        Ok(bytes) => serde_json::from_slice::<Value>(&bytes)
            .ok()
            .is_some_and(|v| v.get("name").and_then(Value::as_str) == Some(declaration.name.as_str())),
    }
}

/// How a catalog file compares with what is on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    Written,
    Unchanged,
}

/// Writes each catalog under `root` (each file whole, through a temporary file renamed into
/// place), after checking that every one of them is agent-bundle's to write: either all are
/// written or none is.
pub fn write(root: &Utf8Path, declaration: &Declaration, files: &[CatalogFile]) -> Result<Vec<Placed>, Diagnostic> {
    for file in files {
        let path = root.join(&file.path);
        if !ours(&path, declaration) {
            return Err(messages::catalog_not_ours(&path, &declaration.name));
        }
    }
    let mut placed = Vec::with_capacity(files.len());
    for file in files {
        let path = root.join(&file.path);
        if fs_err::read(&path).is_ok_and(|bytes| bytes == file.bytes) {
            placed.push(Placed::Unchanged);
            continue;
        }
        let write = || -> std::io::Result<()> {
            let parent = path.parent().expect("a catalog path has a folder");
            fs_err::create_dir_all(parent)?;
            let mut temporary = tempfile::NamedTempFile::new_in(parent)?;
            std::io::Write::write_all(&mut temporary, &file.bytes)?;
            temporary.persist(&path).map_err(|e| e.error)?;
            Ok(())
        };
        write().map_err(|e| messages::catalog_write_failed(&path, &e))?;
        placed.push(Placed::Written);
    }
    Ok(placed)
}

/// The catalog files that differ from what is on disk under `root` (for `build --check`), each
/// with whether it is missing.
pub fn drift(root: &Utf8Path, files: &[CatalogFile]) -> Vec<(String, bool)> {
    files
        .iter()
        .filter_map(|file| match fs_err::read(root.join(&file.path)) {
            Ok(bytes) if bytes == file.bytes => None,
            Ok(_) => Some((file.path.clone(), false)),
            Err(_) => Some((file.path.clone(), true)),
        })
        .collect()
}

/// The hosts a catalog cannot reach, each with the reason (for the build summary).
pub fn hosts_without_catalog(built: &BTreeSet<Target>) -> Vec<(Target, &'static str)> {
    built
        .iter()
        .filter_map(|t| distribution::distribution(*t).and_then(|d| d.catalog.supported().err()).map(|r| (*t, r)))
        .collect()
}
