//! `build --check`: the drift gate for an artifact committed beside its sources. The bundle is built
//! into a throw-away folder (the artifact's bytes do not depend on where it is written) and compared,
//! file by file, with the committed artifact; nothing of the bundle or its artifact is written.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;

use super::{BuildError, BuildOptions, BuildReport};
use crate::artifact::{ArtifactManifest, MANIFEST_PATH};
use crate::io::Disk;

/// How one artifact file differs from what the sources build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Drift {
    /// The build writes other bytes, another mode, or a link to elsewhere.
    Changed,
    /// The build writes it; the committed artifact lacks it.
    Missing,
    /// The committed artifact's manifest lists it; the build no longer writes it (a build removes it).
    Stale,
}

impl Drift {
    pub fn word(self) -> &'static str {
        match self {
            Drift::Changed => "changed",
            Drift::Missing => "missing",
            Drift::Stale => "stale",
        }
    }
}

/// What a check found for one bundle.
#[derive(Debug)]
pub struct CheckReport {
    /// The build into the throw-away folder (its diagnostics; its outcome is `Failed` when the
    /// sources do not build, and then nothing was compared).
    pub report: BuildReport,
    /// The committed artifact compared against.
    pub artifact: Utf8PathBuf,
    /// Every file that differs, by artifact-relative path, sorted.
    pub drift: Vec<(String, Drift)>,
    /// How many files the build writes.
    pub files: usize,
    /// The manifest the sources build (read before the throw-away folder goes; `None` when they
    /// do not build).
    pub manifest: Option<ArtifactManifest>,
}

impl CheckReport {
    /// The sources built, and the committed artifact holds exactly what they build.
    pub fn matches(&self) -> bool {
        !matches!(self.report.outcome, super::BuildOutcome::Failed) && self.drift.is_empty()
    }
}

/// Builds the bundle of `options` into a throw-away folder and compares the result with the artifact
/// at `options.output` (default `<root>/artifact`). Files in the committed artifact that its own
/// manifest does not list are not agent-bundle's, a build leaves them, and so does the check.
pub fn check(options: &BuildOptions, disk: &dyn Disk) -> Result<CheckReport, BuildError> {
    let artifact = options.output.clone().unwrap_or_else(|| options.root.join("artifact"));
    let scratch = tempfile::Builder::new().prefix("agent-bundle-check-").tempdir().map_err(BuildError::Scratch)?;
    let fresh = Utf8PathBuf::from_path_buf(scratch.path().join("artifact")).map_err(|path| {
        BuildError::Scratch(std::io::Error::other(format!("a temporary folder that is not UTF-8: {}", path.display())))
    })?;
    let built = BuildOptions { output: Some(fresh.clone()), temporary_output: true, ..options.clone() };
    let report = super::build(&built, disk)?;
    if matches!(report.outcome, super::BuildOutcome::Failed) {
        return Ok(CheckReport { report, artifact, drift: Vec::new(), files: 0, manifest: None });
    }
    let produced = files_under(&fresh);
    let manifest = report.manifest().cloned();
    let mut drift = Vec::new();
    for path in &produced {
        match (entry(&fresh.join(path)), entry(&artifact.join(path))) {
            (_, None) => drift.push((path.clone(), Drift::Missing)),
            (Some(ours), Some(theirs)) if ours != theirs => drift.push((path.clone(), Drift::Changed)),
            _ => {}
        }
    }
    // What the committed artifact says a build wrote, and this build does not.
    let listed =
        super::read_manifest(&artifact, disk).map(|m| m.files.into_iter().map(|f| f.path).collect::<BTreeSet<_>>());
    for path in listed.unwrap_or_default().into_iter().chain([MANIFEST_PATH.to_string()]) {
        if !produced.contains(&path) && entry(&artifact.join(&path)).is_some() {
            drift.push((path, Drift::Stale));
        }
    }
    drift.sort();
    drift.dedup();
    Ok(CheckReport { report, artifact, drift, files: produced.len(), manifest })
}

/// What a file is, as the artifact carries it: its bytes and exact mode, or a link's target.
#[derive(PartialEq, Eq)]
enum Entry {
    File(Vec<u8>, u32),
    Link(std::path::PathBuf),
}

fn entry(path: &Utf8Path) -> Option<Entry> {
    let metadata = std::fs::symlink_metadata(path).ok()?;
    if metadata.file_type().is_symlink() {
        return std::fs::read_link(path).ok().map(Entry::Link);
    }
    if !metadata.is_file() {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    Some(Entry::File(bytes, metadata.permissions().mode() & crate::io::MODE_MASK))
}

/// Every file and link under `dir`, relative and `/`-separated.
fn files_under(dir: &Utf8Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .filter_map(|e| {
            let relative = e.path().strip_prefix(dir).ok()?;
            Some(relative.to_string_lossy().replace('\\', "/"))
        })
        .collect()
}

/// What `build --check` found for a tree of bundles.
#[derive(Debug)]
pub struct TreeCheck {
    /// Each bundle's check, in the order selected.
    pub checks: Vec<(Utf8PathBuf, CheckReport)>,
    /// Each marketplace catalog that differs from what the sources build, by path: `true` when it is
    /// missing. Compared only when every bundle's sources build.
    pub catalog_drift: Vec<(String, bool)>,
}

impl TreeCheck {
    /// The bundles whose sources do not build.
    pub fn failed(&self) -> impl Iterator<Item = &Utf8Path> {
        self.checks.iter().filter(|(_, check)| check.report.has_errors()).map(|(root, _)| root.as_path())
    }
}

/// `build --check` of the bundles `options` selects ([`super::tree::select`]): each built into a
/// throw-away folder and compared with its artifact, then the catalogs the committed artifacts would
/// be listed in against the committed catalogs.
pub fn check_tree(options: &super::tree::TreeOptions, disk: &dyn Disk) -> Result<TreeCheck, super::tree::TreeError> {
    use super::tree::{TreeError, select};
    let selected = select(options, disk)?;
    let mut checks = Vec::with_capacity(selected.roots.len());
    for root in selected.roots {
        let bundle = super::tree::bundle_options(options, root.clone(), options.output.clone(), &selected.cache_dir);
        checks.push((root, check(&bundle, disk).map_err(TreeError::Build)?));
    }
    let mut tree = TreeCheck { checks, catalog_drift: Vec::new() };
    if tree.failed().next().is_none() {
        let plugins = tree.checks.iter().filter_map(|(_, c)| Some((c.artifact.as_path(), c.manifest.as_ref()?)));
        let planned =
            super::catalog::plan(&options.root, plugins, disk).map_err(|d| TreeError::Catalog(Box::new(d)))?;
        if let Some(planned) = planned {
            tree.catalog_drift = super::catalog::drift(&planned.root, &planned.files);
        }
    }
    Ok(tree)
}
