//! Discovery: find a bundle's config file in its root.

use camino::{Utf8Path, Utf8PathBuf};

use crate::diagnostic::{Diagnostic, messages};
use crate::io::Disk;

pub use crate::vocabulary::canonical::CONFIG_FILE_NAMES;

/// The config file of the bundle at `root`: exactly one of [`CONFIG_FILE_NAMES`] must exist.
/// `shown_root` is the root as the user wrote it, for messages.
pub fn find_config(root: &Utf8Path, shown_root: &Utf8Path, disk: &dyn Disk) -> Result<Utf8PathBuf, Diagnostic> {
    if !disk.is_dir(root) {
        return Err(messages::root_not_found(shown_root));
    }
    let found: Vec<&str> = CONFIG_FILE_NAMES.iter().copied().filter(|name| disk.is_file(&root.join(name))).collect();
    match found.as_slice() {
        [] => Err(messages::config_not_found(shown_root)),
        [one] => Ok(root.join(one)),
        several => Err(messages::config_ambiguous(shown_root, several)),
    }
}

/// Folder names `--recursive` never looks into.
const SKIPPED_FOLDERS: &[&str] = &["node_modules", "target"];

/// Every bundle (a folder holding a config file) under `root`, skipping `node_modules`, `target`,
/// hidden folders and built artifacts, sorted by path.
pub fn find_bundles(root: &Utf8Path, disk: &dyn Disk) -> std::io::Result<Vec<Utf8PathBuf>> {
    let prune = |dir: &Utf8Path| {
        let name = dir.file_name().unwrap_or("");
        name.starts_with('.')
            || SKIPPED_FOLDERS.contains(&name)
            || disk.is_file(&dir.join(crate::artifact::MANIFEST_PATH))
    };
    let dirs = disk.walk_dirs(root, &prune)?;
    Ok(dirs.into_iter().filter(|dir| CONFIG_FILE_NAMES.iter().any(|name| disk.is_file(&dir.join(name)))).collect())
}
