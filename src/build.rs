//! `build`: load, plan, emit, and write the artifact in one step. The library entry point for the
//! command line and for a package's `build.rs`.

use camino::{Utf8Path, Utf8PathBuf};

use crate::artifact::{ArtifactManifest, MANIFEST_PATH};
use crate::diagnostic::{self, Diagnostic, messages};
use crate::emit::{self, Emitted};
use crate::engine::{self, Loaded};
use crate::io::{Disk, WriteError, replace_folder};
use crate::target::Target;

#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// The bundle folder.
    pub root: Utf8PathBuf,
    /// Where the artifact goes; `<root>/artifact` when `None`.
    pub output: Option<Utf8PathBuf>,
    /// Narrows the config's targets (DECISIONS D3: names do not change with it).
    pub targets: Vec<Target>,
}

#[derive(Debug)]
pub struct BuildReport {
    pub loaded: Loaded,
    /// The output folder as the user named it (or the default).
    pub output: Utf8PathBuf,
    /// The hosts built for.
    pub hosts: Vec<Target>,
    /// What was written, when the build succeeded.
    pub manifest: Option<ArtifactManifest>,
    pub emitted: Option<Emitted>,
}

impl BuildReport {
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.loaded.diagnostics
    }

    pub fn has_errors(&self) -> bool {
        diagnostic::has_errors(&self.loaded.diagnostics)
    }
}

/// Builds the bundle at `options.root`. Nothing is written unless the whole build succeeds; the
/// previous artifact stays as it was otherwise.
pub fn build(options: &BuildOptions, disk: &dyn Disk) -> Result<BuildReport, crate::Error> {
    let mut loaded = engine::load(&options.root, disk);
    let output = options.output.clone().unwrap_or_else(|| options.root.join("artifact"));
    let mut report =
        BuildReport { loaded: Loaded::default(), output, hosts: Vec::new(), manifest: None, emitted: None };
    let bundle = match loaded.bundle.clone() {
        Some(bundle) if !loaded.has_errors() => bundle,
        _ => {
            report.loaded = loaded;
            return Ok(report);
        }
    };
    for target in &options.targets {
        if !bundle.normalised.targets.contains(target) {
            let configured: Vec<_> = bundle.normalised.targets.iter().map(|t| t.name()).collect();
            return Err(crate::Error::Usage(format!(
                "--target {target} is not among the config's targets ({}); --target only narrows them",
                configured.join(", ")
            )));
        }
    }
    report.hosts = bundle
        .normalised
        .targets
        .iter()
        .copied()
        .filter(|t| options.targets.is_empty() || options.targets.contains(t))
        .filter(|t| crate::hosts::table(*t).has_hooks())
        .collect();
    let canonical_root = disk.canonicalize(&options.root).unwrap_or_else(|| options.root.clone());
    let canonical_output = absolute(&report.output, disk);
    let (emitted, diagnostics, sources) = emit::emit(&bundle, &canonical_root, &report.hosts, &canonical_output, disk);
    loaded.diagnostics.extend(diagnostics);
    loaded.sources.extend(sources);
    if let Some(emitted) = emitted {
        match replace_folder(&report.output, &emitted.files, MANIFEST_PATH) {
            Ok(()) => {
                report.manifest = Some(emitted.manifest.clone());
                report.emitted = Some(emitted);
            }
            Err(WriteError::NotAnArtifact) => loaded.diagnostics.push(messages::output_not_an_artifact(&report.output)),
            Err(WriteError::Io(error)) => {
                loaded.diagnostics.push(messages::artifact_write_failed(&report.output, &error))
            }
        }
    }
    diagnostic::sort(&mut loaded.diagnostics);
    report.loaded = loaded;
    Ok(report)
}

/// `path` made absolute without requiring it to exist (the output folder usually does not yet).
fn absolute(path: &Utf8Path, disk: &dyn Disk) -> Utf8PathBuf {
    if let Some(canonical) = disk.canonicalize(path) {
        return canonical;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if !parent.as_str().is_empty() => absolute(parent, disk).join(name),
        _ => std::env::current_dir()
            .ok()
            .and_then(|cwd| Utf8PathBuf::from_path_buf(cwd).ok())
            .map_or_else(|| path.to_path_buf(), |cwd| crate::io::lexical_join(&cwd, path.as_str())),
    }
}
