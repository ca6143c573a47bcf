//! Discovery: find a bundle's config file in its root, and its event routes under `src/events/`.

use camino::{Utf8Path, Utf8PathBuf};

use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::io::Disk;
use crate::vocabulary::family::Family;
use crate::vocabulary::source::{Location, Span};

pub use crate::vocabulary::canonical::CONFIG_FILE_NAMES;

/// The config file of the bundle at `root`: exactly one of [`CONFIG_FILE_NAMES`] must exist.
/// `shown_root` is the root as the user wrote it, for messages.
pub fn find_config(root: &Utf8Path, shown_root: &Utf8Path, disk: &dyn Disk) -> Result<Utf8PathBuf, Diagnostic> {
    if !disk.is_dir(root) {
        return Err(messages::root_not_found(shown_root));
    }
    let found: Vec<&str> = CONFIG_FILE_NAMES.iter().copied().filter(|name| disk.is_file(&root.join(name))).collect();
    match found.as_slice() {
        [] => match CONFIG_FILE_NAMES.iter().find(|name| is_special(disk, &root.join(name))) {
            Some(special) => Err(messages::config_not_regular(&shown_root.join(special))),
            None => Err(messages::config_not_found(shown_root)),
        },
        [one] => Ok(root.join(one)),
        several => Err(messages::config_ambiguous(shown_root, several)),
    }
}

/// Folder names `--recursive` never looks into.
const SKIPPED_FOLDERS: &[&str] = &["node_modules", "target"];

/// Every bundle (a folder holding a config file) under `root`, skipping `node_modules`, `target`,
/// hidden folders and built artifacts, sorted by path.
pub fn find_bundles(root: &Utf8Path, disk: &dyn Disk) -> std::io::Result<Vec<Utf8PathBuf>> {
    Ok(walk_bundles(root, disk)?.roots)
}

/// What [`walk_bundles`] found, and everything its answer rests on.
#[derive(Debug, Default)]
pub struct FoundBundles {
    /// The bundle roots, sorted.
    pub roots: Vec<Utf8PathBuf>,
    /// Every folder whose listing the walk judged (skipped folders are not listed), with its stamp
    /// taken before it was listed: while each is unchanged, the walk finds the same folders.
    pub listed: Vec<crate::io::WalkedDir>,
    /// Every file named like a config that the walk judged by its type (a link's target can change
    /// without its folder changing).
    pub candidates: Vec<Utf8PathBuf>,
}

/// [`find_bundles`], with what its answer rests on.
pub fn walk_bundles(root: &Utf8Path, disk: &dyn Disk) -> std::io::Result<FoundBundles> {
    // A folder is judged by its name and then its listing, which the walk reads anyway: only a
    // config's name found in it costs a `stat`.
    let skip = |name: &str| name.starts_with('.') || SKIPPED_FOLDERS.contains(&name);
    let prune = |files: &[String]| files.iter().any(|f| f == crate::artifact::MANIFEST_PATH);
    let listed = disk.walk_dirs(root, &crate::io::WalkRules { skip: &skip, prune: &prune })?;
    let mut found = FoundBundles::default();
    for dir in listed.iter().filter(|dir| !dir.pruned) {
        let mut bundle = false;
        for name in CONFIG_FILE_NAMES.iter().filter(|name| dir.files.iter().any(|f| f == *name)) {
            let path = dir.path.join(name);
            bundle = bundle || disk.is_file(&path) || is_special(disk, &path);
            found.candidates.push(path);
        }
        if bundle {
            found.roots.push(dir.path.clone());
        }
    }
    found.listed = listed;
    Ok(found)
}

/// A FIFO, socket or device (or a link to one) where a file was expected: found, so that it is
/// reported, and never read.
fn is_special(disk: &dyn Disk, path: &Utf8Path) -> bool {
    disk.exists(path) && !disk.is_file(path) && !disk.is_dir(path)
}

/// Where event routes live, relative to the bundle root.
pub const ROUTES_DIR: &str = "src/events";

/// The extensions a route module may have.
pub const ROUTE_EXTENSIONS: &[&str] = &["ts", "tsx", "js", "jsx", "mts", "mjs"];

/// An event route: a module under `src/events/` answering one family.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Route {
    #[serde(serialize_with = "family_name")]
    pub family: Family,
    /// Root-relative, `/`-separated.
    pub path: String,
}

fn family_name<S: serde::Serializer>(family: &Family, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(family.name)
}

/// The event routes of the bundle at `root`: `src/events/<family>.<ext>` for one-segment families,
/// `src/events/<group>/<name>.<ext>` for two-segment ones. Segments starting with `_` or `.`,
/// declaration files and modules a config entry names (`claimed`) are not routes.
pub fn find_routes(root: &Utf8Path, claimed: &[&str], disk: &dyn Disk) -> Staged<Vec<Route>> {
    let mut routes: Vec<Route> = Vec::new();
    let mut diagnostics = Vec::new();
    let dir = root.join(ROUTES_DIR);
    if !disk.is_dir(&dir) {
        return Staged { value: routes, diagnostics };
    }
    let mut files = disk.walk_files(&dir).unwrap_or_default();
    files.sort();
    for relative in files {
        let segments: Vec<&str> = relative.split('/').collect();
        if segments.iter().any(|s| s.starts_with('_') || s.starts_with('.')) {
            continue;
        }
        let file = segments.last().copied().unwrap_or_default();
        let Some((stem, extension)) = file.rsplit_once('.') else { continue };
        if !ROUTE_EXTENSIONS.contains(&extension) || stem.ends_with(".d") {
            continue;
        }
        let path = format!("{ROUTES_DIR}/{relative}");
        if claimed.contains(&path.as_str()) {
            continue;
        }
        let at = Location { file: Utf8PathBuf::from(&path), line: 1, column: 1, span: Span::default() };
        let mut identity: Vec<&str> = segments[..segments.len() - 1].to_vec();
        identity.push(stem);
        if let Some(unsafe_segment) = identity.iter().find(|s| !is_safe_segment(s)) {
            diagnostics.push(messages::unsafe_route_segment(&path, unsafe_segment, &at));
            continue;
        }
        let name = identity.join("/");
        let Some(family) = Family::from_name(&name) else {
            diagnostics.push(messages::unknown_route_family(&path, &name, &at));
            continue;
        };
        if let Some(first) = routes.iter().find(|r| r.family == family) {
            diagnostics.push(messages::duplicate_route(family.name, &path, &first.path, &at));
            continue;
        }
        routes.push(Route { family, path });
    }
    Staged { value: routes, diagnostics }
}

/// Letters, digits, and `.`, `_`, `-` inside (not first or last).
fn is_safe_segment(segment: &str) -> bool {
    let inner = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    !segment.is_empty()
        && segment.chars().all(inner)
        && segment.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && segment.chars().last().is_some_and(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::is_safe_segment;

    #[test]
    fn a_wide_tree_walked_on_several_threads_finds_every_bundle_and_skips_what_it_must() {
        let temp = tempfile::tempdir().unwrap();
        let repo = camino::Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        let mut expected = Vec::new();
        // Wider than one thread lists, at two levels.
        for group in 0..3 {
            for b in 0..70 {
                let root = repo.join(format!("g{group}/b{b:02}"));
                std::fs::create_dir_all(root.join("src/nested")).unwrap();
                std::fs::write(root.join("agent-bundle.config.ts"), "export default {};\n").unwrap();
                expected.push(root.clone());
                // Skipped: an artifact, node_modules, a hidden folder, each holding a config.
                for skipped in ["artifact", "node_modules/pkg", ".cache"] {
                    std::fs::create_dir_all(root.join(skipped)).unwrap();
                    std::fs::write(root.join(skipped).join("agent-bundle.config.ts"), "").unwrap();
                }
                std::fs::write(root.join("artifact").join(crate::artifact::MANIFEST_PATH), "{}").unwrap();
            }
        }
        // A bundle nested in another's sources is still a bundle.
        let nested = repo.join("g0/b00/src/nested");
        std::fs::write(nested.join("agent-bundle.config.mjs"), "").unwrap();
        expected.push(nested);
        expected.sort();
        assert_eq!(super::find_bundles(&repo, &crate::io::RealDisk).unwrap(), expected);
    }

    #[test]
    fn safe_segments() {
        assert!(is_safe_segment("tool"));
        assert!(is_safe_segment("model-switch"));
        assert!(is_safe_segment("a.b_c"));
        assert!(!is_safe_segment("bef ore"));
        assert!(!is_safe_segment("-x"));
        assert!(!is_safe_segment("x-"));
        assert!(!is_safe_segment("über"));
    }
}
