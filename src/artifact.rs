//! The artifact's own manifest, `agent-bundle.manifest.json`: every file with its SHA-256, and the
//! index of simulatable hooks. `hooks list` and `hooks simulate` read the artifact only through it,
//! and refuse an artifact whose files no longer match.

use std::collections::BTreeMap;

use camino::Utf8Path;
use serde::{Deserialize, Serialize};

use crate::io::Disk;
use crate::vocabulary::digest::sha256_hex;
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::target::Target;

/// The name and version written into generated files.
pub fn generator() -> String {
    format!("agent-bundle {}", env!("CARGO_PKG_VERSION"))
}

/// The version and a fingerprint of this build's own sources: what cache keys use, so a cache is
/// never shared between two different builds of the compiler.
pub fn compiler_fingerprint() -> String {
    format!("{} ({})", generator(), env!("AGENT_BUNDLE_SOURCE_FINGERPRINT"))
}

/// One line naming the compiler build an artifact depends on: its version, and a digest of its own
/// sources and of the host tables. What a monorepo engine hashes for the compiler, which it cannot
/// see (`cargo agent-bundle inspect --compiler-id`, `AGENT_BUNDLE_COMPILER`).
pub fn compiler_id() -> String {
    let text = format!("{}\0{}", compiler_fingerprint(), crate::hosts::tables_revision());
    let digest = crate::vocabulary::digest::sha256_hex(text.as_bytes());
    format!("{}+{}", env!("CARGO_PKG_VERSION"), &digest[..16])
}

pub use crate::hosts::layout::MANIFEST_PATH;
/// 2: handlers are bundles (`hooks/handlers/*.mjs` with maps), no carried node_modules, file modes
/// and packages shipped whole are recorded. 4: every file's exact mode (`"0640"`), links kept as links,
/// and what each package shipped whole left out.
pub const MANIFEST_SCHEMA: u32 = 4;

pub use crate::io::{ArtifactFile, FileKind};

/// One package shipped whole in the artifact (`bundle.external`), as the manifest records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShippedPackage {
    pub name: String,
    pub version: String,
    /// Its folder in the artifact.
    pub path: String,
    /// Its compiled addons (`.node` files), each with what it was built for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub native: Vec<NativeBinary>,
    /// What of the installed package was not shipped (what it does not need at run time), by its
    /// top-level entries, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
}

/// A compiled addon of a package shipped whole, as read from its header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NativeBinary {
    /// Relative to the package.
    pub path: String,
    /// The systems it runs on, as Node names them (`linux-x64`, `darwin-arm64`, `win32-x64`).
    pub systems: Vec<String>,
    /// `napi` (Node-API: any later Node), `node-<ABI>` (one Node release line), or `unknown`.
    pub abi: String,
}

/// One top-level entry of a package shipped whole, as far as it was left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LeftOut {
    /// Relative to the package; a folder ends in `/`.
    pub path: String,
    /// How many files (links, …) under it were left out, and their size.
    pub files: u64,
    pub bytes: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArtifactManifest {
    pub schema: u32,
    pub generator: String,
    pub plugin: ManifestPlugin,
    /// Per host built: the host table revision the documents and wrappers follow.
    pub hosts: BTreeMap<Target, ManifestHost>,
    /// Simulatable hooks, sorted by host, then id: prebuilt ones too (run as the host runs them).
    pub hooks: Vec<IndexRow>,
    /// Packages shipped whole (`bundle.external`), sorted by path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shipped: Vec<ShippedPackage>,
    /// Every file of the artifact but this manifest, sorted by path.
    pub files: Vec<FileRecord>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManifestPlugin {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManifestHost {
    pub revision: String,
    /// SHA-256 of the host table the build used: `hooks simulate` warns when the binary's differs.
    pub table_digest: String,
    pub manifest: String,
    pub document: String,
    /// The host's MCP document, when the plugin carries the shared runtime's server for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_document: Option<String>,
    /// The files of the plugin's skills, commands, agents and context file the host reads, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<String>,
}

/// One simulatable hook on one host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexRow {
    pub host: Target,
    pub id: String,
    pub name: String,
    pub event: HookEvent,
    pub native_event: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// Seconds, when the hook sets its own timeout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u32>,
    /// Seconds the host lets the hook run: the plan's effective timeout, which the wrapper's own
    /// deadline and `hooks simulate` also use.
    pub effective_timeout: u32,
    /// Any failure of the hook blocks the tool.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fail_closed: bool,
    /// The wrapper, relative to the artifact root; for a prebuilt handler, its program.
    pub path: String,
    /// The handler is prebuilt: the host runs its program itself, with no wrapper (no contract, no
    /// checks), and `hooks simulate` runs the host's command for it as it is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prebuilt: bool,
    /// For a route forwarded to the shared runtime: the MCP server entry the host starts, which
    /// must be running for the wrapper to answer (`hooks simulate` starts it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_runtime: Option<String>,
    /// For a route: the plan's budget on this host, in milliseconds from the delivery (the wrapper's
    /// start, or the request's arrival in the shared runtime), which its wrapper's contract carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route_budget_ms: Option<u64>,
    /// The hook runs in its host's hooks module (Claude Code's mods), which imports its wrapper,
    /// rather than as a command of the host's hook document.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hooks_module: bool,
    /// The wrapper of the combined command that runs the hook with the other hooks of its event
    /// (one process per call), when one does: the hook's own wrapper is then a module it imports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combined: Option<String>,
    /// The hook is answered by the plugin's own MCP server (`bundle.warmServer`), which the host's
    /// entry calls (`mcp_tool`); its wrapper is a module the server imports.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warm_server: bool,
}

/// One file of the artifact. For a link, `sha256` and `bytes` are those of its target as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileRecord {
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
    /// A regular file's permission bits, in octal (`"0644"`, `"0755"`, `"0640"`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "octal")]
    pub mode: Option<u32>,
    /// A link's target, for a link kept as a link (`keepOutsideLinks`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symlink: Option<String>,
}

impl FileRecord {
    /// What the entry is on disk.
    pub fn kind(&self) -> FileKind {
        match (&self.symlink, self.mode) {
            (Some(_), _) => FileKind::Symlink,
            (None, mode) => FileKind::Regular { mode: mode.unwrap_or(crate::io::GENERATED_MODE) },
        }
    }
}

/// Modes as octal strings, as `chmod` and `ls -l` readers know them.
mod octal {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(mode: &Option<u32>, serializer: S) -> Result<S::Ok, S::Error> {
        match mode {
            Some(mode) => serializer.serialize_str(&format!("{mode:04o}")),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
        let Some(text) = Option::<String>::deserialize(deserializer)? else { return Ok(None) };
        let mode = u32::from_str_radix(&text, 8)
            .map_err(|_| serde::de::Error::custom(format!("mode `{text}` is not octal")))?;
        if mode & !crate::io::MODE_MASK != 0 {
            return Err(serde::de::Error::custom(format!("mode `{text}` has bits beyond 0777")));
        }
        Ok(Some(mode))
    }
}

/// Why an artifact cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    #[error(
        "`{0}` has no {MANIFEST_PATH}: it is not an agent-bundle artifact (build one with `cargo agent-bundle build`)"
    )]
    NoManifest(String),
    #[error("{MANIFEST_PATH} in `{path}` cannot be read: {detail}")]
    BadManifest { path: String, detail: String },
    #[error(
        "the artifact in `{path}` was changed after it was built: {detail}; rebuild it with `cargo agent-bundle build --no-cache`"
    )]
    Tampered { path: String, detail: String },
}

/// The manifest's bytes: pretty, key-sorted JSON with a final newline.
pub fn manifest_bytes(manifest: &ArtifactManifest) -> Vec<u8> {
    let mut text = crate::vocabulary::json::pretty(manifest);
    text.push('\n');
    text.into_bytes()
}

/// The record of every file, in the order given (sorted by path when `files` is a path map).
pub fn file_records<'f>(files: impl IntoIterator<Item = (&'f String, &'f ArtifactFile)>) -> Vec<FileRecord> {
    files
        .into_iter()
        .map(|(path, file)| FileRecord {
            path: path.clone(),
            sha256: sha256_hex(&file.bytes),
            bytes: file.bytes.len() as u64,
            mode: file.mode(),
            symlink: match file.kind {
                FileKind::Symlink => Some(String::from_utf8_lossy(&file.bytes).into_owned()),
                FileKind::Regular { .. } => None,
            },
        })
        .collect()
}

/// Reads an artifact's manifest and checks every recorded file against its hash, and every link
/// against its target (a link is never followed). Modes are not checked: a plugin published
/// through git comes back with the modes git keeps, under the cloning user's umask.
pub fn read_verified(dir: &Utf8Path, disk: &dyn Disk) -> Result<ArtifactManifest, ArtifactError> {
    let shown = dir.to_string();
    let text = disk.read_to_string(&dir.join(MANIFEST_PATH)).map_err(|_| ArtifactError::NoManifest(shown.clone()))?;
    let manifest: ArtifactManifest = serde_json::from_str(&text)
        .map_err(|e| ArtifactError::BadManifest { path: shown.clone(), detail: e.to_string() })?;
    if manifest.schema != MANIFEST_SCHEMA {
        return Err(ArtifactError::BadManifest {
            path: shown,
            detail: format!("schema {} is not the {MANIFEST_SCHEMA} this agent-bundle reads", manifest.schema),
        });
    }
    for record in &manifest.files {
        if let Some(target) = &record.symlink {
            let found = disk.read_link(&dir.join(&record.path));
            if found.as_ref() != Some(target) || sha256_hex(target.as_bytes()) != record.sha256 {
                return Err(ArtifactError::Tampered {
                    path: shown,
                    detail: format!("`{}` is not the recorded link to `{target}`", record.path),
                });
            }
            continue;
        }
        let bytes = disk.read(&dir.join(&record.path)).map_err(|_| ArtifactError::Tampered {
            path: shown.clone(),
            detail: format!("`{}` is missing", record.path),
        })?;
        if sha256_hex(&bytes) != record.sha256 {
            return Err(ArtifactError::Tampered {
                path: shown,
                detail: format!("`{}` differs from the recorded SHA-256", record.path),
            });
        }
    }
    Ok(manifest)
}
