//! `build`: load, plan, emit, and write the artifact in one step. The library entry point for the
//! command line and for a package's `build.rs`.

use camino::{Utf8Path, Utf8PathBuf};

use crate::artifact::{ArtifactManifest, MANIFEST_PATH};
use crate::diagnostic::{self, Diagnostic, messages};
use crate::emit::{self, Emitted};
use crate::engine::{self, Loaded};
use crate::incremental::{self, Explanation};
use crate::io::{CacheStore, Disk, WriteError, WriteOutcome, write_artifact};
use crate::target::Target;

#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// The bundle folder.
    pub root: Utf8PathBuf,
    /// Where the artifact goes; `<root>/artifact` when `None`.
    pub output: Option<Utf8PathBuf>,
    /// Narrows the config's targets (DECISIONS D3: names do not change with it).
    pub targets: Vec<Target>,
    /// Where compiled modules and build state are cached; [`default_cache_dir`] when `None`.
    pub cache_dir: Option<Utf8PathBuf>,
    /// Build without any cache (every module compiled, no state kept).
    pub no_cache: bool,
}

/// `AGENT_BUNDLE_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-bundle`, else `~/.cache/agent-bundle`. The
/// cache is content-addressed, so one folder safely serves every bundle of a machine.
pub fn default_cache_dir() -> Option<Utf8PathBuf> {
    let from = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty()).map(Utf8PathBuf::from);
    from("AGENT_BUNDLE_CACHE_DIR")
        .or_else(|| from("XDG_CACHE_HOME").map(|d| d.join("agent-bundle")))
        .or_else(|| from("HOME").map(|d| d.join(".cache/agent-bundle")))
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
    /// Which files the build wrote, kept and removed.
    pub write: Option<WriteOutcome>,
    /// Why each hook and file was rebuilt or kept.
    pub explanation: Option<Explanation>,
    /// Every file the build read (absolute paths), for `cargo:rerun-if-changed`.
    pub inputs: Vec<Utf8PathBuf>,
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
    build_with(options, disk, &mut |_| {})
}

/// [`build`], calling `on_wait` if another build holds the output's lock (the build then waits).
pub fn build_with(
    options: &BuildOptions,
    disk: &dyn Disk,
    on_wait: &mut dyn FnMut(&Utf8Path),
) -> Result<BuildReport, crate::Error> {
    let output = options.output.clone().unwrap_or_else(|| options.root.join("artifact"));
    let mut report = BuildReport {
        loaded: Loaded::default(),
        output,
        hosts: Vec::new(),
        manifest: None,
        emitted: None,
        write: None,
        explanation: None,
        inputs: Vec::new(),
    };
    let cache =
        if options.no_cache { None } else { options.cache_dir.clone().or_else(default_cache_dir).map(CacheStore::new) };
    let canonical_output = absolute(&report.output, disk);

    // A no-op build: the previous build's inputs and outputs are all as it left them.
    if let (Some(cache), Some(root)) = (&cache, disk.canonicalize(&options.root))
        && let incremental::PreviousState::Found(state) = incremental::load_state(cache, &canonical_output)
        && incremental::unchanged(&state, &root, &options.targets, &canonical_output)
        && let Some(manifest) = read_manifest(&report.output, disk)
    {
        let fingerprint = state.fingerprint.clone().unwrap_or_default();
        report.hosts = manifest.hosts.keys().copied().collect();
        report.write = Some(WriteOutcome { kept: fingerprint.outputs.keys().cloned().collect(), ..Default::default() });
        report.explanation = Some(Explanation::all_fresh(&state));
        report.inputs = input_paths(&fingerprint.inputs);
        report.manifest = Some(manifest);
        report.loaded = Loaded { root: options.root.clone(), ..Loaded::default() };
        return Ok(report);
    }

    let mut loaded = engine::load(&options.root, disk);
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
    let cache =
        if options.no_cache { None } else { options.cache_dir.clone().or_else(default_cache_dir).map(CacheStore::new) };
    let (emitted, diagnostics, sources) =
        emit::emit(&bundle, &canonical_root, &report.hosts, &canonical_output, disk, cache.as_ref());
    loaded.diagnostics.extend(diagnostics);
    loaded.sources.extend(sources);
    if let Some(emitted) = emitted {
        let previous = previous_hashes(&report.output, disk);
        match write_artifact(&report.output, &emitted.files, MANIFEST_PATH, &previous, on_wait) {
            Ok(outcome) => {
                let hooks: Vec<_> = bundle.normalised.hooks.iter().collect();
                let mut state = incremental::current_state(&hooks, &emitted, &emitted.manifest);
                let fingerprint =
                    fingerprint(&bundle, &canonical_root, &options.targets, &emitted, &report.output, disk);
                report.inputs = input_paths(&fingerprint.inputs);
                state.fingerprint = Some(fingerprint);
                let previous = match &cache {
                    Some(cache) => incremental::load_state(cache, &canonical_output),
                    None => incremental::PreviousState::Missing,
                };
                report.explanation = Some(incremental::explain(&previous, &state, &outcome));
                if let Some(cache) = &cache {
                    incremental::save_state(cache, &canonical_output, &state);
                }
                report.manifest = Some(emitted.manifest.clone());
                report.emitted = Some(emitted);
                report.write = Some(outcome);
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

/// What this build read and wrote, for recognising the next build as a no-op.
fn fingerprint(
    bundle: &crate::engine::Bundle,
    root: &Utf8Path,
    targets: &[Target],
    emitted: &crate::emit::Emitted,
    output: &Utf8Path,
    disk: &dyn Disk,
) -> incremental::Fingerprint {
    use crate::io::stamp::Recorded;
    // What bundling read was stamped as it was read; the rest is stamped now.
    let mut inputs = emitted.read.clone();
    for file in [root.join(&bundle.config_file), root.join("package.json")] {
        inputs.files.insert(file.to_string(), Recorded::read_file(&file).0);
    }
    for payload in &bundle.normalised.payloads {
        let dir = crate::io::lexical_join(root, &payload.source);
        for folder in disk.walk_dirs(&dir, &|_| false).unwrap_or_default() {
            inputs.dirs.insert(folder.to_string(), Recorded::read_dir(&folder));
        }
        for file in disk.walk_files(&dir).unwrap_or_default() {
            let file = dir.join(file);
            inputs.files.insert(file.to_string(), Recorded::read_file_and_mode(&file));
        }
    }
    let outputs = incremental::output_stats(output, emitted.files.keys().cloned()).unwrap_or_default();
    incremental::Fingerprint { root: root.to_string(), targets: targets.to_vec(), inputs, outputs }
}

/// Every input path, for `cargo:rerun-if-changed`.
fn input_paths(inputs: &crate::io::stamp::InputSet) -> Vec<Utf8PathBuf> {
    inputs.files.keys().chain(inputs.dirs.keys()).map(Utf8PathBuf::from).collect()
}

fn read_manifest(output: &Utf8Path, disk: &dyn Disk) -> Option<ArtifactManifest> {
    serde_json::from_str(&disk.read_to_string(&output.join(MANIFEST_PATH)).ok()?).ok()
}

/// The file hashes and modes the current artifact's manifest records (empty when there is none).
fn previous_hashes(output: &Utf8Path, disk: &dyn Disk) -> std::collections::BTreeMap<String, (String, bool)> {
    let Ok(text) = disk.read_to_string(&output.join(MANIFEST_PATH)) else { return Default::default() };
    let Ok(manifest) = serde_json::from_str::<ArtifactManifest>(&text) else { return Default::default() };
    manifest.files.into_iter().map(|f| (f.path, (f.sha256, f.executable))).collect()
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
