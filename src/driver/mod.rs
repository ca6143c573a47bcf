//! The driver: load, plan, emit, and write the artifact in one step. The library entry point for the
//! command line and for a package's `build.rs`.

pub mod catalog;
pub mod check;
pub mod engines;
pub(crate) mod incremental;
pub mod noop_record;
pub mod script;
pub mod tree;
pub(crate) mod workspace;

use std::collections::BTreeMap;

use camino::{Utf8Path, Utf8PathBuf};

use crate::artifact::{ArtifactManifest, MANIFEST_PATH};
use crate::diagnostic::{self, Diagnostic, Obstruction, messages};
use crate::io::{CacheStore, Conflict, Disk, WriteError, WriteOutcome, write_artifact};
use crate::pipeline::Loaded;
use crate::pipeline::bundle;
use crate::pipeline::emit::{self, Emitted};
use crate::vocabulary::target::Target;
use incremental::Explanation;

#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// The bundle folder.
    pub root: Utf8PathBuf,
    /// Where the artifact goes; `<root>/artifact` when `None`.
    pub output: Option<Utf8PathBuf>,
    /// Narrows the config's targets (D3 in docs/decisions.md: names do not change with it).
    pub targets: Vec<Target>,
    /// Where compiled modules and build state are cached; [`default_cache_dir`] when `None`.
    pub cache_dir: Option<Utf8PathBuf>,
    /// Build without any cache (every module compiled, no state kept).
    pub no_cache: bool,
    /// The output is a throw-away folder (`snapshot`'s): bundles are cached as usual, but no build
    /// state or fingerprint is kept for it, since no later build will ever look it up.
    pub temporary_output: bool,
}

/// `AGENT_BUNDLE_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-bundle`, else `~/.cache/agent-bundle`. The
/// cache is content-addressed, so one folder safely serves every bundle of a machine.
pub fn default_cache_dir() -> Option<Utf8PathBuf> {
    let from = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty()).map(Utf8PathBuf::from);
    from("AGENT_BUNDLE_CACHE_DIR")
        .or_else(|| from("XDG_CACHE_HOME").map(|d| d.join("agent-bundle")))
        .or_else(|| from("HOME").map(|d| d.join(".cache/agent-bundle")))
}

/// What `inspect` shows of the bundle at `root`: [`crate::pipeline::load`]'s bundle, with each hook
/// that may run in a host's hooks module settled, which only its bundle can say: its handlers are
/// bundled (through the cache a build uses, so that a build after it, or before, costs nothing more)
/// and what bundling reports joins the diagnostics.
pub fn load_settled(root: &Utf8Path, disk: &dyn Disk) -> Loaded {
    let mut loaded = crate::pipeline::load(root, disk);
    if loaded.has_errors() {
        return loaded;
    }
    let Some(bundle) = loaded.bundle.as_mut() else { return loaded };
    if !crate::pipeline::plan::unsettled(&bundle.plans) {
        return loaded;
    }
    let cache = default_cache_dir().map(CacheStore::new);
    let canonical_root = disk.canonicalize(root).unwrap_or_else(|| root.to_path_buf());
    let hosts: Vec<Target> = crate::hosts::built_hosts(&bundle.normalised.targets);
    let crate::diagnostic::Staged { value: mut bundled, diagnostics } =
        bundle::bundle(bundle, &canonical_root, &hosts, disk, cache.as_ref());
    crate::pipeline::settle_hooks_modules(bundle, &bundled);
    loaded.diagnostics.extend(diagnostics);
    loaded.sources.append(&mut bundled.sources);
    diagnostic::sort(&mut loaded.diagnostics);
    loaded
}

#[derive(Debug)]
pub struct BuildReport {
    pub loaded: Loaded,
    /// The output folder as the user named it (or the default).
    pub output: Utf8PathBuf,
    /// The hosts built for.
    pub hosts: Vec<Target>,
    pub outcome: BuildOutcome,
    /// Every file the build read (absolute paths), for `cargo:rerun-if-changed`.
    pub inputs: Vec<Utf8PathBuf>,
}

/// How a build ended.
#[derive(Debug)]
#[expect(clippy::large_enum_variant, reason = "one per build, never in a collection")]
pub enum BuildOutcome {
    /// The bundle has errors, or the artifact could not be written: nothing was written, and the
    /// previous artifact is as it was. The diagnostics say why.
    Failed,
    /// Nothing changed since the previous build: nothing was bundled or written.
    Fresh {
        /// The files the artifact holds, all kept.
        write: WriteOutcome,
        explanation: Explanation,
        /// The artifact's manifest, read from it on first use.
        manifest: std::sync::OnceLock<Option<ArtifactManifest>>,
        /// The hook rows per host and the plugin's name, as the previous build recorded them (empty
        /// when it did not).
        hook_rows: BTreeMap<Target, usize>,
        plugin: String,
        /// What the previous build recorded of [`BuildReport::skipped`].
        skipped: Vec<(String, Target, String)>,
        /// What vouched for it (see [`noop_record`]).
        vouched: Box<Vouched>,
    },
    /// The artifact was built and written (unchanged files kept).
    Built { emitted: Box<Emitted>, write: WriteOutcome, explanation: Explanation },
}

impl BuildReport {
    /// The artifact's manifest, unless the build failed (a fresh build reads it from the artifact,
    /// once).
    pub fn manifest(&self) -> Option<&ArtifactManifest> {
        match &self.outcome {
            BuildOutcome::Failed => None,
            BuildOutcome::Fresh { manifest, .. } => {
                manifest.get_or_init(|| read_manifest(&self.output, &crate::io::RealDisk)).as_ref()
            }
            BuildOutcome::Built { emitted, .. } => Some(&emitted.manifest),
        }
    }

    /// The plugin's name and how many hooks each built host can run, unless the build failed: from
    /// what the previous build recorded when nothing changed, so a no-op reads no manifest.
    pub fn summary(&self) -> Option<(String, BTreeMap<Target, usize>)> {
        if let BuildOutcome::Fresh { hook_rows, plugin, .. } = &self.outcome
            && !plugin.is_empty()
        {
            return Some((plugin.clone(), hook_rows.clone()));
        }
        let manifest = self.manifest()?;
        let rows = self.hosts.iter().map(|host| (*host, manifest.hooks.iter().filter(|r| r.host == *host).count()));
        Some((manifest.plugin.name.clone(), rows.collect()))
    }

    /// The hooks a host does not get because the author chose so (`onMissingSelector`), as (hook,
    /// host, why): the build summary lists them, as `inspect` does.
    pub fn skipped(&self) -> Vec<(String, Target, String)> {
        match &self.outcome {
            BuildOutcome::Fresh { skipped, .. } => skipped.clone(),
            BuildOutcome::Built { .. } => self.loaded.bundle.as_ref().map(skipped_deliveries).unwrap_or_default(),
            BuildOutcome::Failed => Vec::new(),
        }
    }

    /// Which files the build wrote, kept and removed, unless it failed.
    pub fn write(&self) -> Option<&WriteOutcome> {
        match &self.outcome {
            BuildOutcome::Failed => None,
            BuildOutcome::Fresh { write, .. } | BuildOutcome::Built { write, .. } => Some(write),
        }
    }

    /// Why each hook and file was rebuilt or kept, unless the build failed.
    pub fn explanation(&self) -> Option<&Explanation> {
        match &self.outcome {
            BuildOutcome::Failed => None,
            BuildOutcome::Fresh { explanation, .. } | BuildOutcome::Built { explanation, .. } => Some(explanation),
        }
    }

    /// How many handlers were bundled and taken from the cache (none for a fresh build).
    pub fn bundle_stats(&self) -> crate::pipeline::bundle::BundleStats {
        match &self.outcome {
            BuildOutcome::Built { emitted, .. } => emitted.stats,
            _ => Default::default(),
        }
    }

    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.loaded.diagnostics
    }

    pub fn has_errors(&self) -> bool {
        diagnostic::has_errors(&self.loaded.diagnostics)
    }
}

/// Why a build could not start: a request that makes no sense for the bundle. Problems in the bundle
/// itself are diagnostics in the report, not errors.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A narrowing target the config does not select (names never change with narrowing, D3).
    #[error("{target} is not among the config's targets ({}); narrowing only selects among them", configured.iter().map(|t| t.name()).collect::<Vec<_>>().join(", "))]
    TargetNotConfigured { target: Target, configured: Vec<Target> },
    /// `build --check` could not make the throw-away folder it builds into.
    #[error("cannot create a temporary folder to build into: {0}")]
    Scratch(std::io::Error),
}

/// Builds the bundle at `options.root`. Nothing is written unless the whole build succeeds; the
/// previous artifact stays as it was otherwise.
pub fn build(options: &BuildOptions, disk: &dyn Disk) -> Result<BuildReport, BuildError> {
    build_with(options, disk, &mut |_| {})
}

/// [`build`], calling `on_wait` if another build holds the output's lock (the build then waits).
pub fn build_with(
    options: &BuildOptions,
    disk: &dyn Disk,
    on_wait: &mut dyn FnMut(&Utf8Path),
) -> Result<BuildReport, BuildError> {
    // A file saved while the build ran is never taken as built (D14): what the loader and the
    // emitter read through `disk` is recorded as it is read (`RecordingDisk`), and what the build
    // stamps afterwards is recorded against this moment.
    let started_at = crate::io::stamp::now_ns();
    let output = options.output.clone().unwrap_or_else(|| options.root.join("artifact"));
    let mut report = BuildReport {
        loaded: Loaded::default(),
        output,
        hosts: Vec::new(),
        outcome: BuildOutcome::Failed,
        inputs: Vec::new(),
    };
    let Located { cache, canonical_root, canonical_output } = locate(options, &report.output, disk);

    // A no-op build: the previous build's inputs and outputs are all as it left them.
    if let (Some(cache), Some(root), false) = (&cache, &canonical_root, options.temporary_output)
        && let Some(fingerprint) = incremental::load_fingerprint(cache, &canonical_output)
        && incremental::unchanged(&fingerprint, root, &options.targets, &canonical_output)
    {
        let entry = incremental::fingerprint_entry(cache, &canonical_output);
        return Ok(fresh_report(options, report.output, Vouched { fingerprint, canonical_output, entry }));
    }

    let recording = crate::io::RecordingDisk::new(disk);
    let mut loaded = crate::pipeline::load(&options.root, &recording);
    let bundle = match loaded.bundle.clone() {
        Some(bundle) if !loaded.has_errors() => bundle,
        _ => {
            report.loaded = loaded;
            return Ok(report);
        }
    };
    for target in &options.targets {
        if !bundle.normalised.targets.contains(target) {
            return Err(BuildError::TargetNotConfigured {
                target: *target,
                configured: bundle.normalised.targets.clone(),
            });
        }
    }
    let asked: Vec<Target> = bundle
        .normalised
        .targets
        .iter()
        .copied()
        .filter(|t| options.targets.is_empty() || options.targets.contains(t))
        .collect();
    report.hosts = crate::hosts::built_hosts(&asked);
    let canonical_root = canonical_root.unwrap_or_else(|| options.root.clone());
    let crate::diagnostic::Staged { value: mut bundled, diagnostics } =
        bundle::bundle(&bundle, &canonical_root, &report.hosts, &recording, cache.as_ref());
    loaded.diagnostics.extend(diagnostics);
    loaded.sources.append(&mut bundled.sources);
    let mut bundle = bundle;
    crate::pipeline::settle_hooks_modules(&mut bundle, &bundled);
    if let Some(reported) = &mut loaded.bundle {
        reported.plans.clone_from(&bundle.plans);
    }
    let crate::diagnostic::Staged { value: emitted, diagnostics } =
        emit::emit(&bundle, bundled, &canonical_root, &report.hosts, &canonical_output, &recording);
    loaded.diagnostics.extend(diagnostics);
    if let Some(emitted) = emitted {
        let previous = previous_hashes(&report.output, &emitted.files, disk);
        match write_artifact(&report.output, &emitted.files, MANIFEST_PATH, &previous, on_wait) {
            Ok(outcome) => {
                if !outcome.untracked.is_empty() {
                    loaded.diagnostics.push(messages::untracked_artifact_files(&report.output, &outcome.untracked));
                }
                let hooks: Vec<_> = bundle.normalised.hooks.iter().collect();
                let state = incremental::current_state(&hooks, &emitted, &emitted.manifest, &canonical_output);
                let fingerprint =
                    fingerprint(&bundle, &canonical_root, &options.targets, &report, &emitted, &recording, started_at);
                report.inputs = input_paths(&fingerprint.inputs);
                let state_cache = cache.as_ref().filter(|_| !options.temporary_output);
                let previous = match state_cache {
                    Some(cache) => incremental::load_state(cache, &canonical_output),
                    None => incremental::PreviousState::Missing,
                };
                let explanation = incremental::explain(&previous, &state, &outcome);
                if let Some(cache) = state_cache {
                    incremental::save_state(cache, &canonical_output, &state);
                    // Last, so that it is newer than every output it vouches for.
                    if !fingerprint.output_dirs.is_empty() {
                        incremental::save_fingerprint(cache, &canonical_output, &fingerprint);
                    }
                    incremental::evict_orphans(cache, EVICTION_CHECKS);
                }
                report.outcome = BuildOutcome::Built { emitted: Box::new(emitted), write: outcome, explanation };
            }
            Err(WriteError::NotAnArtifact) => loaded.diagnostics.push(messages::output_not_an_artifact(&report.output)),
            Err(WriteError::InTheWay { path, conflict }) => {
                let how = match &conflict {
                    Conflict::Replaced => Obstruction::Replaced,
                    Conflict::NeedsFolder { inner } => Obstruction::NeedsFolder { inner },
                    Conflict::InsideFile { file } => Obstruction::InsideFile { file },
                };
                loaded.diagnostics.push(messages::untracked_in_the_way(&report.output, &path, how));
            }
            Err(WriteError::Io(error)) => {
                loaded.diagnostics.push(messages::artifact_write_failed(&report.output, &error))
            }
        }
    }
    diagnostic::sort(&mut loaded.diagnostics);
    report.loaded = loaded;
    Ok(report)
}

/// Where a build keeps its state and writes its artifact, resolved.
struct Located {
    cache: Option<CacheStore>,
    canonical_root: Option<Utf8PathBuf>,
    canonical_output: Utf8PathBuf,
}

fn locate(options: &BuildOptions, output: &Utf8Path, disk: &dyn Disk) -> Located {
    let cache =
        if options.no_cache { None } else { options.cache_dir.clone().or_else(default_cache_dir).map(CacheStore::new) };
    let canonical_root = disk.canonicalize(&options.root);
    let canonical_output = match (&canonical_root, options.output.is_none()) {
        // The default output sits in the root: its canonical path follows from the root's, unless it
        // is a link of its own.
        (Some(root), true) if !output.is_symlink() => root.join("artifact"),
        _ => absolute(output, disk),
    };
    Located { cache, canonical_root, canonical_output }
}

/// The report of a build that found nothing changed since `vouched`'s fingerprint was saved.
fn fresh_report(options: &BuildOptions, output: Utf8PathBuf, vouched: Vouched) -> BuildReport {
    let fingerprint = &vouched.fingerprint;
    BuildReport {
        loaded: Loaded { root: options.root.clone(), ..Loaded::default() },
        output,
        hosts: fingerprint.hosts.clone(),
        inputs: input_paths(&fingerprint.inputs),
        outcome: BuildOutcome::Fresh {
            write: WriteOutcome { kept: fingerprint.outputs.clone(), ..Default::default() },
            explanation: Explanation::all_fresh(fingerprint),
            manifest: std::sync::OnceLock::new(),
            hook_rows: fingerprint.hook_rows.clone(),
            plugin: fingerprint.plugin.clone(),
            skipped: fingerprint.skipped.clone(),
            vouched: Box::new(vouched),
        },
    }
}

/// What a no-op build found unchanged: the fingerprint that vouched for it, where that is kept, and
/// the canonical artifact folder (where the fingerprint's output folders are).
#[derive(Debug)]
pub struct Vouched {
    pub fingerprint: incremental::Fingerprint,
    pub canonical_output: Utf8PathBuf,
    /// The fingerprint's cache entry.
    pub entry: Utf8PathBuf,
}

impl BuildReport {
    /// What vouched for a no-op build (`None` for one that built or failed).
    pub fn vouched(&self) -> Option<&Vouched> {
        match &self.outcome {
            BuildOutcome::Fresh { vouched, .. } => Some(vouched),
            _ => None,
        }
    }
}

/// A build into a folder deleted with `_temp`: for a command that reads what a build does or writes
/// (`snapshot`, `inspect --inputs`) and keeps no artifact. The bundle cache speeds it up, but no build
/// state is kept for a folder that goes right after.
pub struct Throwaway {
    _temp: tempfile::TempDir,
    pub output: Utf8PathBuf,
    pub report: BuildReport,
}

/// Builds the bundle at `root` into a [`Throwaway`] folder. `Err`: the build could not start, or
/// `Ok` with [`BuildReport::rendered_errors`] for a bundle that does not build.
pub fn build_throwaway(root: &Utf8Path, disk: &dyn Disk) -> Result<Throwaway, String> {
    let temp = tempfile::tempdir().map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let output = Utf8PathBuf::from_path_buf(temp.path().join("artifact")).map_err(|_| "non-UTF-8 temporary path")?;
    let options = BuildOptions {
        root: root.to_path_buf(),
        output: Some(output.clone()),
        temporary_output: true,
        ..Default::default()
    };
    let report = build(&options, disk).map_err(|e| e.to_string())?;
    Ok(Throwaway { _temp: temp, output, report })
}

impl BuildReport {
    /// The errors, rendered as the terminal shows them; `None` when the bundle built.
    pub fn rendered_errors(&self) -> Option<String> {
        if !self.has_errors() {
            return None;
        }
        let sources: Vec<_> = self.loaded.sources.iter().collect();
        let errors = self.diagnostics().iter().filter(|d| d.is_error());
        Some(errors.map(|d| diagnostic::render_human(d, &sources)).collect())
    }
}

/// Whether a test asked builds to fail on purpose (no shortcut may skip past that).
pub fn faults_injected() -> bool {
    std::env::var_os(FAULT_PANIC_IN).is_some() || std::env::var_os(FAULT_PANIC_WHILE).is_some()
}

/// The stack a guarded build runs on: recursion an input drives past the depth limits does not
/// abort the process (only what is used of it is ever touched).
const GUARDED_STACK_BYTES: usize = 256 * 1024 * 1024;

/// Test hook: a build of a bundle whose root ends with this value panics, to prove that one bundle's
/// failure of any kind leaves the others (and the Workbench) running.
const FAULT_PANIC_IN: &str = "AGENT_BUNDLE_FAULT_PANIC_IN";

/// Test hook: every build panics while the file this names exists (the Workbench, which rebuilds
/// for as long as it runs, meets a crashing build and then a sound one).
const FAULT_PANIC_WHILE: &str = "AGENT_BUNDLE_FAULT_PANIC_WHILE";

fn fault_injected(root: &Utf8Path) -> bool {
    std::env::var(FAULT_PANIC_IN).is_ok_and(|suffix| !suffix.is_empty() && root.as_str().ends_with(&suffix))
        || std::env::var_os(FAULT_PANIC_WHILE).is_some_and(|marker| std::path::Path::new(&marker).exists())
}

/// [`build_with`] for callers that go on after one bundle (`build --recursive`, the Workbench): on a
/// thread of its own with a large stack, and a panic in it is this bundle's failure (AB5006, nothing
/// written), never the caller's.
pub fn build_guarded(
    options: &BuildOptions,
    disk: &(dyn Disk + Sync),
    on_wait: &mut (dyn FnMut(&Utf8Path) + Send),
) -> Result<BuildReport, BuildError> {
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("agent-bundle-build".into())
            .stack_size(GUARDED_STACK_BYTES)
            .spawn_scoped(scope, || build_caught(options, disk, on_wait))
            .map(|thread| thread.join().unwrap_or_else(|panic| Err(panic_text(panic.as_ref()))))
    });
    match outcome {
        Ok(Ok(result)) => result,
        Ok(Err(why)) => Ok(internal_failure(options, &why)),
        Err(error) => Ok(internal_failure(options, &format!("its build thread could not start ({error})"))),
    }
}

/// [`build_with`] on the current thread (which must have [`GUARDED_STACK_BYTES`] of stack), a panic
/// in it caught and returned as its message.
fn build_caught(
    options: &BuildOptions,
    disk: &(dyn Disk + Sync),
    on_wait: &mut (dyn FnMut(&Utf8Path) + Send),
) -> Result<Result<BuildReport, BuildError>, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if fault_injected(&options.root) {
            panic!("fault injected for a test");
        }
        build_with(options, disk, on_wait)
    }))
    .map_err(|panic| panic_text(panic.as_ref()))
}

use crate::io::panic_text;

/// The report of a bundle whose build failed inside agent-bundle (AB5006): nothing written.
fn internal_failure(options: &BuildOptions, why: &str) -> BuildReport {
    let output = options.output.clone().unwrap_or_else(|| options.root.join("artifact"));
    let mut loaded = Loaded { root: options.root.clone(), ..Loaded::default() };
    loaded.diagnostics.push(messages::internal_error(&options.root, why));
    BuildReport { loaded, output, hosts: Vec::new(), outcome: BuildOutcome::Failed, inputs: Vec::new() }
}

/// How many build-state entries a build checks for an output that no longer exists: enough to keep
/// a busy cache clean over a few builds, few enough that a build never notices the cost.
const EVICTION_CHECKS: usize = 64;

/// One bundle of [`build_many`]: its report, and the outputs whose lock it waited for.
pub type ManyBuilt = (Result<BuildReport, BuildError>, Vec<Utf8PathBuf>);

/// Builds several bundles, as many at once as the machine has cores (each also bundles its handlers
/// concurrently), so one bundle's writing overlaps another's bundling. Reports come back in the
/// order of `options`; each carries the outputs whose lock it waited for.
pub fn build_many(options: &[BuildOptions], disk: &(dyn Disk + Sync)) -> Vec<ManyBuilt> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<ManyBuilt>>> = options.iter().map(|_| Mutex::new(None)).collect();
    // Three bundles at once per core: while one writes its artifact or waits on the bundler, the
    // others keep the cores busy (200 bundles x 10 hooks on 2 cores, cold: 1 per core 1.2 s, 2 per
    // core 1.0 s, 3 per core 0.89 s, 4 per core 0.90 s, 6 per core 0.96 s and more memory).
    let workers = crate::io::threads("AGENT_BUNDLE_BUILD_WORKERS", 3).min(options.len().max(1));
    // What lies above the bundles (the monorepo's package.json, each ancestor's node_modules) is
    // stamped once for all of them.
    let shared = crate::io::stamp::SharedStamps::default();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            // Each worker is a guarded thread itself, and builds bundle after bundle on it: a thread
            // of this stack per bundle cost more than a no-op build of the bundle (200 bundles: 207
            // threads, 40 ms; unmapping their stacks flushes every core's TLB).
            let (shared, next, results) = (std::sync::Arc::clone(&shared), &next, &results);
            let worker = move || {
                crate::io::stamp::share_stamps_on_this_thread(Some(shared));
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(options) = options.get(index) else { break };
                    let mut waited = Vec::new();
                    let report = build_caught(options, disk, &mut |lock| waited.push(lock.to_path_buf()))
                        .unwrap_or_else(|why| Ok(internal_failure(options, &why)));
                    *results[index].lock().expect("no build panics while holding its slot") = Some((report, waited));
                }
            };
            let spawned = std::thread::Builder::new()
                .name("agent-bundle-build".into())
                .stack_size(GUARDED_STACK_BYTES)
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                // Fewer workers than asked for; the ones that started build every bundle.
                break;
            }
        }
    });
    results
        .into_iter()
        .zip(options)
        .map(|(slot, options)| {
            slot.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| (Ok(internal_failure(options, "no build thread could start")), Vec::new()))
        })
        .collect()
}

/// Every (hook, host) the plan leaves out by the hook's `onMissingSelector`, with why.
fn skipped_deliveries(bundle: &crate::pipeline::Bundle) -> Vec<(String, Target, String)> {
    // Only hooks that chose to skip: a config may declare thousands, and most never do.
    let names: BTreeMap<&str, &str> = bundle
        .normalised
        .hooks
        .iter()
        .filter(|h| h.on_missing_selector != crate::vocabulary::canonical::MissingSelector::Error)
        .map(|h| (h.id.as_str(), h.name.as_str()))
        .collect();
    let mut skipped = Vec::new();
    for plan in &bundle.plans {
        let Some(hook) = names.get(plan.hook_id.as_str()) else { continue };
        for target in &plan.targets {
            match &target.delivery {
                crate::pipeline::plan::Delivery::Absent { reason }
                    if reason.starts_with(crate::pipeline::plan::SKIPPED) =>
                {
                    skipped.push(((*hook).to_string(), target.target, reason.clone()))
                }
                crate::pipeline::plan::Delivery::Native { skipped_selectors, .. } if !skipped_selectors.is_empty() => {
                    skipped.push((
                        (*hook).to_string(),
                        target.target,
                        format!("without {} (onMissingSelector: 'skip-selector')", skipped_selectors.join("; ")),
                    ))
                }
                _ => {}
            }
        }
    }
    skipped
}

/// What this build read and wrote, for recognising the next build as a no-op.
fn fingerprint(
    bundle: &crate::pipeline::Bundle,
    root: &Utf8Path,
    targets: &[Target],
    report: &BuildReport,
    emitted: &crate::pipeline::emit::Emitted,
    disk: &crate::io::RecordingDisk,
    started_at: i128,
) -> incremental::Fingerprint {
    use crate::io::stamp::Recorded;
    // What bundling and emitting read, stamped as it was read, and what the loader and the emitter
    // read through the recording disk (the config, payloads, route folders).
    let mut inputs = emitted.read.clone();
    inputs.extend(&disk.recorded());
    for file in [root.join(&bundle.config_file), root.join("package.json")] {
        if !inputs.files.contains_key(file.as_str()) {
            inputs.files.insert(file.to_string(), Recorded::read_file_since(&file, started_at));
        }
    }
    let outputs: Vec<String> = emitted.files.keys().cloned().collect();
    let output_dirs = incremental::output_dirs(&report.output, &outputs).unwrap_or_default();
    let hook_rows = report
        .hosts
        .iter()
        .map(|host| (*host, emitted.manifest.hooks.iter().filter(|r| r.host == *host).count()))
        .collect();
    incremental::Fingerprint {
        hook_rows,
        plugin: emitted.manifest.plugin.name.clone(),
        skipped: skipped_deliveries(bundle),
        generator: crate::artifact::compiler_fingerprint(),
        tables_revision: crate::hosts::tables_revision(),
        root: root.to_string(),
        targets: targets.to_vec(),
        hosts: report.hosts.clone(),
        inputs,
        outputs,
        output_dirs,
        hooks: emitted
            .manifest
            .hooks
            .iter()
            .map(|row| (row.id.clone(), row.name.clone()))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect(),
        written_at: i128::MIN,
    }
}

/// Every input path, for `cargo:rerun-if-changed`.
fn input_paths(inputs: &crate::io::stamp::InputSet) -> Vec<Utf8PathBuf> {
    inputs.files.keys().chain(inputs.dirs.keys()).map(Utf8PathBuf::from).collect()
}

pub(crate) fn read_manifest(output: &Utf8Path, disk: &dyn Disk) -> Option<ArtifactManifest> {
    serde_json::from_str(&disk.read_to_string(&output.join(MANIFEST_PATH)).ok()?).ok()
}

/// The files the current artifact's manifest records with their hashes and kinds (modes, links;
/// empty when there is none): what the previous build wrote, and so what this one may replace or
/// remove. Read from any manifest schema (`files[].path`, `sha256`, and `mode`/`symlink` or an older
/// schema's `executable`), so that an upgrade of agent-bundle still recognises its own files. A
/// manifest that cannot be read at all vouches for nothing but the paths this build writes
/// (`new_files`, with no hash, so they are rewritten): every other file is then kept and reported
/// rather than removed.
fn previous_hashes(
    output: &Utf8Path,
    new_files: &std::collections::BTreeMap<String, crate::io::ArtifactFile>,
    disk: &dyn Disk,
) -> std::collections::BTreeMap<String, (String, crate::io::FileKind)> {
    use crate::io::FileKind;
    let Ok(text) = disk.read_to_string(&output.join(MANIFEST_PATH)) else { return Default::default() };
    let records = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|manifest| manifest.get("files").and_then(serde_json::Value::as_array).cloned());
    let Some(records) = records else {
        return new_files
            .keys()
            .map(|path| {
                (path.clone(), (String::new(), crate::io::FileKind::Regular { mode: crate::io::GENERATED_MODE }))
            })
            .collect();
    };
    records
        .iter()
        .filter_map(|record| {
            let path = record.get("path")?.as_str()?.to_string();
            let sha256 = record.get("sha256").and_then(serde_json::Value::as_str).unwrap_or_default().to_string();
            let mode =
                record.get("mode").and_then(serde_json::Value::as_str).and_then(|m| u32::from_str_radix(m, 8).ok());
            let executable = record.get("executable").and_then(serde_json::Value::as_bool);
            let kind = if record.get("symlink").is_some_and(|link| !link.is_null()) {
                FileKind::Symlink
            } else {
                let mode = mode.unwrap_or(match executable {
                    Some(true) => 0o755,
                    _ => crate::io::GENERATED_MODE,
                });
                FileKind::Regular { mode }
            };
            Some((path, (sha256, kind)))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An artifact another agent-bundle version built (another schema, keys this one does not know)
    /// still has its files recognised as the previous build's, so they are replaced and removed
    /// rather than kept as files no build wrote.
    #[test]
    fn the_previous_builds_files_are_read_from_any_manifest_schema() {
        let temp = tempfile::tempdir().unwrap();
        let output = Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        let old = r#"{ "schema": 1, "wrappers": [], "files": [
            { "path": "hooks/x.mjs", "sha256": "ab", "bytes": 1 },
            { "path": "run.sh", "sha256": "cd", "bytes": 2, "executable": true } ] }"#;
        std::fs::write(output.join(MANIFEST_PATH), old).unwrap();
        let new_files = std::collections::BTreeMap::from([(
            "hooks/y.mjs".to_string(),
            crate::io::ArtifactFile::new(b"y".to_vec()),
        )]);
        let previous = previous_hashes(&output, &new_files, &crate::io::RealDisk);
        assert_eq!(previous.len(), 2);
        assert_eq!(previous["run.sh"], ("cd".to_string(), crate::io::FileKind::Regular { mode: 0o755 }));
        // An unreadable manifest vouches only for what this build writes, which it rewrites.
        std::fs::write(output.join(MANIFEST_PATH), "not JSON").unwrap();
        let previous = previous_hashes(&output, &new_files, &crate::io::RealDisk);
        let rewritten = (String::new(), crate::io::FileKind::Regular { mode: crate::io::GENERATED_MODE });
        assert_eq!(previous, std::collections::BTreeMap::from([("hooks/y.mjs".to_string(), rewritten)]));
    }
}
