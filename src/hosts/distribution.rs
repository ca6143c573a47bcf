//! How a plugin reaches each host beyond its own folder: the catalog (marketplace) file a
//! repository publishes for it. Data, like the hook tables, but kept apart from them: nothing here
//! changes what a host reads from a plugin, so editing it does not change the tables' revision
//! (which keys caches and is recorded in every artifact).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::Support;
use crate::vocabulary::target::Target;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distribution {
    /// The catalog file a repository publishes for this host, or why agent-bundle writes none.
    pub catalog: Support<Catalog>,
    /// How `cargo agent-bundle install` puts a built plugin where this host loads it, or why it
    /// does not.
    pub install: Support<Install>,
}

/// How a plugin is installed for a host.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Install {
    /// Through the host's own command line, from a local marketplace folder agent-bundle writes.
    Program(ProgramInstall),
    /// By placing a folder of the artifact where the host loads extensions from.
    Folder(FolderInstall),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProgramInstall {
    /// The program's name on `PATH`.
    pub program: String,
    /// The environment variable that names the program instead.
    pub program_variable: String,
    pub scopes: Vec<String>,
    /// The catalog file (of [`Catalog`]) the local marketplace needs for this host.
    pub catalog: String,
    /// The commands that register and enable the plugin, in order. Placeholders: `{marketplaceDir}`,
    /// `{marketplace}`, `{plugin}`, `{scope}`.
    pub steps: Vec<Vec<String>>,
    /// The commands that undo them, in order.
    pub undo: Vec<Vec<String>>,
    /// The command whose JSON output lists the installed plugins.
    pub list: Vec<String>,
    /// The host's own validator of a plugin folder (`{placed}`), when it has one offline: `doctor`'s
    /// "loaded". Without it, loaded is the version the listing shows read from the installed manifest.
    #[serde(default)]
    pub validate: Option<Vec<String>>,
    /// The host's own files that registering changes (its settings, its plugin and marketplace
    /// lists): install keeps what they held before, and uninstall takes out what is left of the
    /// plugin's entries once the host's own undo commands ran (Copilot CLI 1.0.102 keeps
    /// `enabledPlugins: { "<plugin>@<marketplace>": false }` after `plugin uninstall`).
    pub config: Vec<ConfigFile>,
    pub evidence: String,
}

/// A host's configuration file: `<root>/<file>`, the root being `$<variable>` when set, else
/// `~/<default>`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConfigFile {
    #[serde(default)]
    pub variable: Option<String>,
    pub default: String,
    pub file: String,
    /// The root on Windows when the variable is not set (`%USERPROFILE%\.claude`).
    pub windows: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FolderInstall {
    /// The variable naming the folder `folder` is relative to (`XDG_CONFIG_HOME`), when set.
    #[serde(default)]
    pub root_variable: Option<String>,
    /// Where that root is, relative to the home folder, when the variable is not set (`.config`);
    /// none: the home folder.
    #[serde(default)]
    pub root_default: Option<String>,
    /// Where the folder goes, relative to the root (`{plugin}` is the plugin's name).
    pub folder: String,
    /// Where the folder goes on Windows (`%USERPROFILE%\.gemini\extensions\{plugin}`).
    pub windows_folder: String,
    /// The artifact's folder that is placed there.
    pub from: String,
    /// A module written beside the folder, for a host that loads only the files directly in the
    /// folder it scans (OpenCode's `plugins/*.js`), which re-exports the placed folder's entry.
    #[serde(default)]
    pub entry: Option<FolderEntry>,
    /// Where `--scope project` places the folder and the entry, relative to the project, for a host
    /// that also loads them from there (`.opencode/plugins/{plugin}`).
    #[serde(default)]
    pub project: Option<ProjectPlace>,
    /// For a host that runs a file per event from a hooks folder (Cline CLI): where the artifact's
    /// hook files go, shared by every agent-bundle plugin placed there.
    #[serde(default)]
    pub hook_files: Option<Box<HookFilesPlace>>,
    pub scopes: Vec<String>,
    /// The host's program that lists what it loaded, for `doctor` (optional: install needs none).
    pub observe: Option<Observe>,
    pub evidence: String,
}

/// Where a host's hook files go (the files it runs per event from a hooks folder, its table's
/// `hookFiles`). A hooks folder holds one file of a name, so the file is shared: the same text in
/// every artifact, it runs the event's hooks of every agent-bundle plugin placed in the folder beside
/// it. Install writes it over another plugin's copy (one that starts with `marker`), never over a
/// file of anyone else's, and uninstall removes it only when no plugin left beside it takes the event.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HookFilesPlace {
    /// The hooks folder, relative to the install's root.
    pub folder: String,
    /// The hooks folder of `--scope project`, relative to the project.
    pub project_folder: Option<String>,
    /// The first line of agent-bundle's hook file, which tells a copy of it from anyone else's file.
    pub marker: String,
    pub evidence: String,
}

/// A project's place for a folder install: the folder and the entry file, relative to the project.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProjectPlace {
    pub folder: String,
    pub entry: Option<String>,
}

/// A file written beside a placed folder: its path relative to the install's root, and its text
/// (`{plugin}` is the plugin's name in both).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FolderEntry {
    pub file: String,
    pub text: String,
}

impl FolderInstall {
    /// The root `folder` and `entry` are relative to: `$<rootVariable>` when set, else
    /// `<home>/<rootDefault>`.
    pub fn root(&self, home: &camino::Utf8Path) -> camino::Utf8PathBuf {
        let from_variable = self.root_variable.as_deref().and_then(|v| std::env::var(v).ok()).filter(|v| !v.is_empty());
        match (from_variable, &self.root_default) {
            (Some(root), _) => camino::Utf8PathBuf::from(root),
            (None, Some(default)) => home.join(default),
            (None, None) => home.to_path_buf(),
        }
    }
}

/// A program whose text listing shows the extensions a host loaded (`✓ <name> (<version>)`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Observe {
    pub program: String,
    pub program_variable: String,
    pub list: Vec<String>,
    pub evidence: String,
}

impl Install {
    pub fn scopes(&self) -> &[String] {
        match self {
            Install::Program(p) => &p.scopes,
            Install::Folder(f) => &f.scopes,
        }
    }
}

/// A host's catalog of plugins: one file, at a path relative to the repository root.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    pub path: String,
    /// Whether an entry names the host's own folder of the artifact (its table's `hooks.folder`,
    /// such as `droid/`) rather than the artifact's root.
    #[serde(default)]
    pub folder: bool,
    /// What was observed of the host that says so.
    pub evidence: String,
}

/// The whole table: each host's distribution, and where the shared runtime keeps its endpoint.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Table {
    hosts: BTreeMap<Target, Distribution>,
    shared_runtime: SharedRuntimeFolder,
}

/// Where the shared runtime (D12) keeps its endpoint, per system.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedRuntimeFolder {
    pub posix: String,
    pub windows: String,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str(include_str!("distribution.json"))
            .unwrap_or_else(|e| panic!("embedded distribution table is invalid: {e}"))
    })
}

fn all() -> &'static BTreeMap<Target, Distribution> {
    &table().hosts
}

/// Where the shared runtime keeps its endpoint on each system.
pub fn shared_runtime_folder() -> &'static SharedRuntimeFolder {
    &table().shared_runtime
}

/// Where an install puts a host's files on Windows, in words: its configuration folders or the
/// folder it copies the plugin to; `None` where agent-bundle does not install for the host.
pub fn windows_places(target: Target) -> Option<Vec<&'static str>> {
    match distribution(target)?.install.supported().ok()? {
        Install::Program(install) => {
            let mut places: Vec<&str> = install.config.iter().map(|c| c.windows.as_str()).collect();
            places.dedup();
            Some(places)
        }
        Install::Folder(folder) => Some(vec![folder.windows_folder.as_str()]),
    }
}

/// What the table says of `target` (`None` for the portable target, which no host installs).
pub fn distribution(target: Target) -> Option<&'static Distribution> {
    all().get(&target)
}

/// Every catalog path, each with the hosts that read it, sorted by path.
pub fn catalog_paths() -> BTreeMap<&'static str, Vec<Target>> {
    let mut paths: BTreeMap<&str, Vec<Target>> = BTreeMap::new();
    for (target, distribution) in all() {
        if let Ok(catalog) = distribution.catalog.supported() {
            paths.entry(catalog.path.as_str()).or_default().push(*target);
        }
    }
    paths
}

/// The folder of the artifact, relative to its root, that an entry of the catalog at `path` names
/// (`""` for the root itself): the host's own folder where its catalog says so.
pub fn catalog_entry_folder(path: &str) -> &'static str {
    all()
        .iter()
        .find_map(|(target, distribution)| {
            let catalog = distribution.catalog.supported().ok()?;
            (catalog.path == path && catalog.folder)
                .then(|| super::table(*target).hooks.as_ref().and_then(|h| h.folder.as_deref()))
                .flatten()
        })
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_host_with_hooks_says_where_its_catalog_is_or_why_there_is_none() {
        for target in Target::ALL {
            let has_hooks = super::super::table(target).hooks.is_some();
            assert_eq!(distribution(target).is_some(), has_hooks, "{target}");
            if let Some(distribution) = distribution(target) {
                match distribution.catalog.supported() {
                    Ok(catalog) => {
                        assert!(catalog.path.ends_with(".json") && !catalog.path.starts_with('/'), "{target}");
                        assert!(!catalog.evidence.is_empty(), "{target}");
                        if catalog.folder {
                            let folder = super::super::table(target).hooks.as_ref().and_then(|h| h.folder.clone());
                            assert!(folder.is_some(), "{target}: a catalog naming the host's folder needs one");
                            let sharing = &catalog_paths()[catalog.path.as_str()];
                            assert_eq!(
                                sharing,
                                &[target],
                                "{target}: a catalog of a host's own folder is that host's alone"
                            );
                        }
                    }
                    Err(reason) => assert!(reason.len() > 40, "{target}: give the reason"),
                }
                match distribution.install.supported() {
                    Ok(Install::Program(program)) => {
                        let catalog = catalog_paths();
                        assert!(
                            catalog.get(program.catalog.as_str()).is_some_and(|hosts| hosts.contains(&target)),
                            "{target}"
                        );
                        assert!(!program.steps.is_empty() && program.steps.len() == program.undo.len(), "{target}");
                        assert!(program.scopes.iter().any(|s| s == "user"), "{target}");
                    }
                    Ok(Install::Folder(folder)) => {
                        assert!(folder.folder.contains("{plugin}") && !folder.folder.starts_with('/'), "{target}");
                    }
                    Err(reason) => assert!(reason.len() > 40, "{target}: give the reason"),
                }
            }
        }
    }
}
