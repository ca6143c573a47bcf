//! The isolated copy of an artifact a simulation runs: the plugin as a host has it once installed,
//! away from the source tree and its packages.

use camino::{Utf8Path, Utf8PathBuf};

use super::SimulateError;
use crate::artifact::{ArtifactManifest, MANIFEST_PATH};

/// An artifact as a host has it once the plugin is installed: a copy in a fresh temporary folder
/// with no `node_modules` above it, so that a simulation can never pass thanks to packages the
/// source tree happens to have installed. Only the files the manifest records are copied, with
/// their recorded modes (links as links).
pub struct IsolatedArtifact {
    _temp: tempfile::TempDir,
    root: Utf8PathBuf,
    /// The artifact as the user named it, shown instead of the temporary copy in output.
    original: Utf8PathBuf,
}

impl IsolatedArtifact {
    pub fn copy(artifact: &Utf8Path, manifest: &ArtifactManifest) -> Result<IsolatedArtifact, SimulateError> {
        let failed = |e: &dyn std::fmt::Display| SimulateError::Isolation(e.to_string());
        let temp = tempfile::Builder::new().prefix("agent-bundle-simulate-").tempdir().map_err(|e| failed(&e))?;
        let root = Utf8PathBuf::from_path_buf(temp.path().join("plugin")).map_err(|_| failed(&"non-UTF-8 path"))?;
        if let Some(above) = root.ancestors().skip(1).find(|dir| dir.join("node_modules").exists()) {
            return Err(failed(&format!(
                "`{above}/node_modules` exists above the temporary folder, and Node would find packages there; set TMPDIR to a folder with no node_modules above it"
            )));
        }
        let records = manifest.files.iter().map(|f| (f.path.as_str(), f.kind(), f.symlink.as_deref()));
        let generated = crate::io::FileKind::Regular { mode: crate::io::GENERATED_MODE };
        for (path, kind, link) in records.chain([(MANIFEST_PATH, generated, None)]) {
            let target = root.join(path);
            if let Some(dir) = target.parent() {
                fs_err::create_dir_all(dir).map_err(|e| failed(&e))?;
            }
            match (kind, link) {
                (crate::io::FileKind::Regular { mode }, _) => {
                    use std::os::unix::fs::PermissionsExt;
                    fs_err::copy(artifact.join(path), &target).map_err(|e| failed(&e))?;
                    fs_err::set_permissions(&target, std::fs::Permissions::from_mode(mode)).map_err(|e| failed(&e))?;
                }
                (crate::io::FileKind::Symlink, link) => {
                    fs_err::os::unix::fs::symlink(link.unwrap_or_default(), &target).map_err(|e| failed(&e))?;
                }
            }
        }
        // Shown as an absolute path, so that a `file://` URL of the copy stays one of the artifact.
        let original = artifact.canonicalize_utf8().unwrap_or_else(|_| artifact.to_path_buf());
        Ok(IsolatedArtifact { _temp: temp, root, original })
    }

    /// Where the copy is.
    pub fn root(&self) -> &Utf8Path {
        &self.root
    }

    /// The artifact as the user named it, made absolute.
    pub fn original(&self) -> &Utf8Path {
        &self.original
    }

    /// Output of a wrapper with the copy's path shown as the artifact's own.
    pub(super) fn shown(&self, text: String) -> String {
        text.replace(self.root.as_str(), self.original.as_str())
    }
}
