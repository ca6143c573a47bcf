//! The install receipt: what `install` placed and registered, so that `uninstall` removes exactly
//! that and `doctor` can tell whether it is still there and still the artifact's.

use camino::{Utf8Path, Utf8PathBuf};
use serde::{Deserialize, Serialize};

use crate::vocabulary::target::Target;

pub const RECEIPT_SCHEMA: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Receipt {
    pub schema: u32,
    /// The agent-bundle that installed it.
    pub generator: String,
    pub plugin: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The artifact installed from, and the SHA-256 of its manifest (which hashes every file).
    pub artifact: Utf8PathBuf,
    pub artifact_hash: String,
    pub scope: String,
    /// The local marketplace the host programs registered (`agent-bundle-<plugin>`).
    pub marketplace: String,
    /// Every file installed, with the SHA-256 of what was written.
    pub files: Vec<OwnedFile>,
    /// Hook files placed where the plugins beside them share them (Cline CLI's hooks folder): each
    /// runs the event's hooks of every agent-bundle plugin there, so uninstall removes one only when
    /// no plugin left there takes its event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<SharedFile>,
    /// Every folder install created, deepest first (removed at uninstall when nothing else is in it).
    pub folders: Vec<Utf8PathBuf>,
    /// Per host, how it was put in place.
    pub hosts: Vec<HostRecord>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OwnedFile {
    pub path: Utf8PathBuf,
    pub sha256: String,
    /// A link's target, for a link placed as a link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symlink: Option<String>,
}

/// A hook file shared by the plugins placed beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SharedFile {
    pub path: Utf8PathBuf,
    /// The folder holding the plugins' folders: a plugin takes the file's event when its folder there
    /// holds a file of the same name.
    pub plugins: Utf8PathBuf,
    /// The first line of every copy of it.
    pub marker: String,
}

impl SharedFile {
    /// Whether the file there is a copy of agent-bundle's (by its first line).
    pub fn is_ours(&self) -> bool {
        fs_err::read(&self.path).is_ok_and(|bytes| bytes.starts_with(self.marker.as_bytes()))
    }

    /// Whether a plugin placed beside it, other than `except`, takes its event.
    pub fn taken_by_another(&self, except: &Utf8Path) -> bool {
        let Some(name) = self.path.file_name() else { return false };
        let Ok(entries) = std::fs::read_dir(&self.plugins) else { return false };
        entries.flatten().any(|entry| entry.path() != except.as_std_path() && entry.path().join(name).is_file())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HostRecord {
    pub host: Target,
    /// The folder the host loads the plugin from.
    pub placed: Utf8PathBuf,
    /// The host program that registered it, when the host has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<Utf8PathBuf>,
    /// The commands that registered it, as run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registered: Vec<Vec<String>>,
    /// The commands that undo them, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undo: Vec<Vec<String>>,
    /// The host's own files registering changes, with what each held before the first install.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<ConfigBefore>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigBefore {
    pub path: Utf8PathBuf,
    /// Its text before install; `None` when it did not exist.
    pub before: Option<String>,
}

/// Where a plugin's receipt is kept in agent-bundle's data folder.
pub fn receipt_path(data: &Utf8Path, plugin: &str) -> Utf8PathBuf {
    data.join("installs").join(format!("{plugin}.receipt.json"))
}

/// The folder install owns for a plugin (its local marketplace).
pub fn install_dir(data: &Utf8Path, plugin: &str) -> Utf8PathBuf {
    data.join("installs").join(plugin)
}
