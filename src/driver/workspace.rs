//! Cargo workspaces: which members hold an agent-bundle, found through `cargo metadata`. A member is
//! a bundle when its folder holds an `agent-bundle.config.ts` (or `.mts`, `.js`, `.mjs`), or when its
//! `Cargo.toml` names one: `[package.metadata.agent-bundle] root = "hooks"` (a folder relative to the
//! package).

use camino::{Utf8Path, Utf8PathBuf};

use crate::io::Disk;
use crate::pipeline::discover::CONFIG_FILE_NAMES;

/// One bundle of the workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceBundle {
    pub package: String,
    pub root: Utf8PathBuf,
}

#[derive(Debug)]
pub struct Workspace {
    pub bundles: Vec<WorkspaceBundle>,
    /// Cargo's target folder: the shared cache goes under it.
    pub target_directory: Utf8PathBuf,
}

/// Which packages to look at.
pub enum Selection<'a> {
    /// Every workspace member.
    All,
    /// These packages, by name.
    Packages(&'a [String]),
}

pub fn find(manifest_path: Option<&Utf8Path>, selection: Selection<'_>, disk: &dyn Disk) -> Result<Workspace, String> {
    let mut command = cargo_metadata::MetadataCommand::new();
    command.no_deps();
    if let Some(path) = manifest_path {
        command.manifest_path(path);
    }
    let metadata = command.exec().map_err(|e| format!("cargo metadata failed: {e}"))?;
    let members: Vec<&cargo_metadata::Package> = metadata.workspace_packages();
    let chosen: Vec<&cargo_metadata::Package> = match selection {
        Selection::All => members,
        Selection::Packages(names) => {
            for name in names {
                if !members.iter().any(|p| p.name.as_str() == name) {
                    let known: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
                    return Err(format!(
                        "package `{name}` is not a member of the workspace (members: {})",
                        known.join(", ")
                    ));
                }
            }
            members.into_iter().filter(|p| names.iter().any(|n| n == p.name.as_str())).collect()
        }
    };
    let mut bundles = Vec::new();
    for package in chosen {
        let dir = package.manifest_path.parent().map(Utf8Path::to_path_buf).unwrap_or_default();
        let declared = package.metadata.get("agent-bundle").and_then(|m| m.get("root")).and_then(|r| r.as_str());
        let root = match declared {
            Some(relative) => crate::io::lexical_join(&dir, relative),
            None if CONFIG_FILE_NAMES.iter().any(|name| disk.is_file(&dir.join(name))) => dir,
            None => continue,
        };
        bundles.push(WorkspaceBundle { package: package.name.to_string(), root });
    }
    bundles.sort_by(|a, b| a.root.cmp(&b.root));
    Ok(Workspace { bundles, target_directory: metadata.target_directory.clone() })
}
