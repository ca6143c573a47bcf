//! A tree of bundles built as one command: one bundle, every bundle under a folder (`--recursive`),
//! or the cargo workspace's members (`--workspace`, `--package`). The engine's policy for a tree
//! lives here, so that the command line and a library caller run the same steps in the same order:
//! which bundles, the no-op record (replayed before anything else, kept after a no-op run), the
//! bundles built side by side (or one after another, stopping at the first failure), the marketplace
//! catalogs once every bundle built, and a monorepo engine's checks around a single bundle.
//!
//! What is printed is not decided here: the caller's [`TreeReporter`] hears each step and renders
//! it, and renders a no-op run again for the record, by the same code.

use std::collections::BTreeSet;

use camino::{Utf8Path, Utf8PathBuf};

use super::catalog::{self, CatalogFile, Placed};
use super::noop_record::{self, NotKept, Record};
use super::{BuildError, BuildOptions, BuildReport, Vouched};
use crate::diagnostic::Diagnostic;
use crate::io::{CacheStore, Disk};
use crate::vocabulary::target::Target;

/// Which bundles a tree command works on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// The bundle at the root.
    #[default]
    One,
    /// Every bundle under the root (skipping node_modules, target, hidden folders and artifacts).
    Recursive,
    /// The members of a cargo workspace that hold a bundle: every one (`packages` empty) or those
    /// named; the workspace of `manifest_path`, or found from the current folder.
    Workspace { packages: Vec<String>, manifest_path: Option<Utf8PathBuf> },
}

impl Scope {
    /// Whether the scope can hold several bundles (each reported under its own heading).
    pub fn is_many(&self) -> bool {
        *self != Scope::One
    }
}

/// A tree build's request.
#[derive(Clone, Debug, Default)]
pub struct TreeOptions {
    /// The folder the command names: the bundle (with [`Scope::One`]), or where the walk starts; the
    /// marketplace declaration is read here.
    pub root: Utf8PathBuf,
    pub scope: Scope,
    /// Where the one bundle's artifact goes (only with [`Scope::One`]; each bundle of a tree builds
    /// into its own `artifact`).
    pub output: Option<Utf8PathBuf>,
    /// Narrows every bundle's targets.
    pub targets: Vec<Target>,
    /// The cache folder; a workspace's own (in its target folder) when `None` there.
    pub cache_dir: Option<Utf8PathBuf>,
    pub no_cache: bool,
    /// Builds one bundle after another and stops at the first that fails.
    pub fail_fast: bool,
    /// What shapes the reporter's output besides the tree (its flags, as one string): part of the
    /// no-op record's key, so that a record is only replayed to a run that prints the same.
    pub printing: String,
    /// Whether the reporter renders from each artifact's manifest (a JSON summary), whose stamps
    /// the no-op record must then rest on too.
    pub prints_manifests: bool,
}

/// The bundles a scope names, and the workspace's shared cache folder.
#[derive(Debug)]
pub struct Selected {
    pub roots: Vec<Utf8PathBuf>,
    pub cache_dir: Option<Utf8PathBuf>,
}

/// Why a tree build stopped before it could report on its bundles. A bundle's own problems are
/// diagnostics in its report, never this.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    #[error("cannot walk `{root}`: {error}")]
    Walk { root: Utf8PathBuf, error: std::io::Error },
    /// The cargo workspace could not be read, or a package is not among its members.
    #[error("{0}")]
    Workspace(String),
    #[error("no bundles found (no folder holds an agent-bundle.config.ts)")]
    NoBundles,
    /// A monorepo engine runs this build and it would cache it wrongly.
    #[error("{0}")]
    Monorepo(String),
    /// The one bundle's build (or a check's) could not start.
    #[error(transparent)]
    Build(BuildError),
    /// The marketplace declaration or its catalogs.
    #[error("{}", .0.message)]
    Catalog(Box<Diagnostic>),
    /// The reporter could not write.
    #[error(transparent)]
    Report(#[from] std::io::Error),
}

/// What the caller hears of a tree build, in order.
pub trait TreeReporter {
    /// The whole run was answered from the no-op record: this is what the no-op run printed.
    fn replayed(&mut self, printed: &[u8]) -> std::io::Result<()>;
    /// A bundle's report is next (bundles are reported in the order of the selection).
    fn started(&mut self, root: &Utf8Path) -> std::io::Result<()>;
    /// The bundle's build waits for another build of the same output (`done`: it waited, and has
    /// finished; the build was one of several side by side).
    fn lock(&mut self, lock: &Utf8Path, done: bool) -> std::io::Result<()>;
    /// The bundle's build, and whether it failed (an error diagnostic, a lost manifest, or a build
    /// that could not start).
    fn finished(&mut self, root: &Utf8Path, built: Result<&BuildReport, &BuildError>) -> std::io::Result<()>;
    /// What this run prints when every bundle of `roots` is the no-op its report says, rendered by
    /// the same code as a run (the record keeps it); `None` when it would print more (a note on
    /// stderr), and then no record is kept.
    fn render_noop(&mut self, roots: &[Utf8PathBuf], reports: &[&BuildReport]) -> Option<Vec<u8>>;
    /// One line of the engine's trace (`AGENT_BUNDLE_TRACE`), for stderr.
    fn trace(&mut self, line: &str) -> std::io::Result<()>;
}

/// The marketplace catalogs a build wrote, for the reporter.
#[derive(Debug)]
pub struct Published {
    /// The marketplace's name.
    pub marketplace: String,
    /// Each catalog file, and whether it was written or was already so.
    pub files: Vec<(CatalogFile, Placed)>,
    /// The hosts built for that have no catalog of their own, with why.
    pub without: Vec<(Target, &'static str)>,
}

/// What a tree build did.
#[derive(Debug, Default)]
pub struct TreeOutcome {
    /// The run was answered from the no-op record (nothing else was done).
    pub replayed: bool,
    /// The bundles selected, in order.
    pub roots: Vec<Utf8PathBuf>,
    /// Each attempted bundle's build, in order (fewer than `roots` after a `fail_fast` stop).
    pub results: Vec<Result<BuildReport, BuildError>>,
    /// The bundles that failed, as selected.
    pub failed: Vec<Utf8PathBuf>,
    /// The catalogs, when the root declares a marketplace and every bundle built.
    pub catalogs: Option<Published>,
}

/// The bundles `options` selects.
pub fn select(options: &TreeOptions, disk: &dyn Disk) -> Result<Selected, TreeError> {
    let root = &options.root;
    let (roots, cache_dir) = match &options.scope {
        Scope::One => (vec![root.clone()], None),
        Scope::Recursive => {
            let roots = crate::pipeline::discover::find_bundles(root, disk)
                .map_err(|error| TreeError::Walk { root: root.clone(), error })?;
            (roots, None)
        }
        Scope::Workspace { packages, manifest_path } => {
            use super::workspace::{Selection, find};
            let selection = if packages.is_empty() { Selection::All } else { Selection::Packages(packages) };
            let found = find(manifest_path.as_deref(), selection, disk).map_err(TreeError::Workspace)?;
            let cache = found.target_directory.join("agent-bundle-cache");
            (found.bundles.into_iter().map(|b| b.root).collect(), Some(cache))
        }
    };
    Ok(Selected { roots, cache_dir: options.cache_dir.clone().or(cache_dir) })
}

/// Builds the tree of `options`, telling `reporter` each step. Bundles that fail are listed in the
/// outcome; only what stops the whole command is an error.
pub fn build_tree(
    options: &TreeOptions,
    disk: &(dyn Disk + Sync),
    reporter: &mut dyn TreeReporter,
) -> Result<TreeOutcome, TreeError> {
    if options.scope == Scope::One {
        return build_single(options, disk, reporter);
    }
    // A no-op of the whole tree, answered from one record when every stamp it rests on holds.
    let record = NoopRecordSlot::for_options(options);
    if let Some(record) = &record
        && let Some(printed) = noop_record::replay(&record.cache, &record.key)
    {
        if tracing_noop_record() {
            reporter.trace("no-op record replayed")?;
        }
        reporter.replayed(&printed)?;
        return Ok(TreeOutcome { replayed: true, ..TreeOutcome::default() });
    }
    let Selected { roots, cache_dir } = select(options, disk)?;
    if roots.is_empty() {
        return Err(TreeError::NoBundles);
    }
    let all: Vec<BuildOptions> =
        roots.iter().map(|root| bundle_options(options, root.clone(), None, &cache_dir)).collect();
    let mut outcome = TreeOutcome { roots, ..TreeOutcome::default() };
    build_each(options, &all, disk, reporter, &mut outcome)?;
    // The catalogs list every bundle of the build, so they are written only when all of them built.
    if outcome.failed.is_empty() {
        let reports: Vec<&BuildReport> = outcome.results.iter().filter_map(|r| r.as_ref().ok()).collect();
        outcome.catalogs = publish_catalogs(&options.root, &reports, disk)?;
        if let Some(record) = record {
            let kept = record.keep(options, &outcome, disk, reporter);
            if tracing_noop_record() {
                match kept {
                    Ok(()) => reporter.trace("no-op record kept")?,
                    Err(why) => reporter.trace(&format!("no-op record not kept: {why}"))?,
                }
            }
        }
    }
    Ok(outcome)
}

/// The bundles of a tree, built side by side and reported in order, or, with `fail_fast`, one after
/// another so that none is built after a failure.
fn build_each(
    options: &TreeOptions,
    all: &[BuildOptions],
    disk: &(dyn Disk + Sync),
    reporter: &mut dyn TreeReporter,
    outcome: &mut TreeOutcome,
) -> Result<(), TreeError> {
    let mut parallel = if options.fail_fast { Vec::new() } else { super::build_many(all, disk) }.into_iter();
    for (root, bundle) in outcome.roots.iter().zip(all) {
        reporter.started(root)?;
        let built = match parallel.next() {
            Some((built, waited)) => {
                for lock in waited {
                    reporter.lock(&lock, true)?;
                }
                built
            }
            None => build_waiting(bundle, disk, reporter)?,
        };
        reporter.finished(root, built.as_ref())?;
        let failed = !succeeded(&built);
        outcome.results.push(built);
        if failed {
            outcome.failed.push(root.clone());
            if options.fail_fast {
                break;
            }
        }
    }
    Ok(())
}

/// One bundle, as a monorepo engine's task runs it: the engine's checks around the build, and the
/// catalogs its root declares.
fn build_single(
    options: &TreeOptions,
    disk: &(dyn Disk + Sync),
    reporter: &mut dyn TreeReporter,
) -> Result<TreeOutcome, TreeError> {
    // A task of a monorepo engine: it must hash what this build depends on, or it caches wrongly.
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    super::engines::check_compiler(&env).map_err(TreeError::Monorepo)?;
    let root = options.root.clone();
    let bundle = bundle_options(options, root.clone(), options.output.clone(), &options.cache_dir);
    let report = build_waiting(&bundle, disk, reporter)?.map_err(TreeError::Build)?;
    reporter.finished(&root, Ok(&report))?;
    let mut outcome = TreeOutcome { roots: vec![root.clone()], ..TreeOutcome::default() };
    if !succeeded_report(&report) {
        outcome.failed.push(root);
        outcome.results.push(Ok(report));
        return Ok(outcome);
    }
    super::engines::check_declared(&options.root, &report.inputs, &env, disk).map_err(TreeError::Monorepo)?;
    outcome.catalogs = publish_catalogs(&options.root, &[&report], disk)?;
    outcome.results.push(Ok(report));
    Ok(outcome)
}

/// A bundle built on this thread, the reporter told while it waits for another build's lock.
fn build_waiting(
    bundle: &BuildOptions,
    disk: &dyn Disk,
    reporter: &mut dyn TreeReporter,
) -> Result<Result<BuildReport, BuildError>, TreeError> {
    let mut failed_to_report = None;
    let built = super::build_with(bundle, disk, &mut |lock| {
        if let Err(error) = reporter.lock(lock, false) {
            failed_to_report.get_or_insert(error);
        }
    });
    match failed_to_report {
        Some(error) => Err(TreeError::Report(error)),
        None => Ok(built),
    }
}

/// Whether a bundle's build succeeded: it started, reported no error and left its manifest.
pub fn succeeded(built: &Result<BuildReport, BuildError>) -> bool {
    built.as_ref().is_ok_and(succeeded_report)
}

fn succeeded_report(report: &BuildReport) -> bool {
    !report.has_errors() && report.summary().is_some()
}

/// The build of one bundle of the tree: `root`, into `output` (its own `artifact` when `None`).
pub(super) fn bundle_options(
    options: &TreeOptions,
    root: Utf8PathBuf,
    output: Option<Utf8PathBuf>,
    cache_dir: &Option<Utf8PathBuf>,
) -> BuildOptions {
    BuildOptions {
        root,
        output,
        targets: options.targets.clone(),
        cache_dir: cache_dir.clone(),
        no_cache: options.no_cache,
        temporary_output: false,
    }
}

/// Writes the marketplace catalogs when `root` declares a marketplace ([`catalog::DECLARATION`]),
/// listing the plugins `reports` built.
pub fn publish_catalogs(
    root: &Utf8Path,
    reports: &[&BuildReport],
    disk: &dyn Disk,
) -> Result<Option<Published>, TreeError> {
    let catalog_error = |d: Diagnostic| TreeError::Catalog(Box::new(d));
    let plugins = reports.iter().filter_map(|report| Some((report.output.as_path(), report.manifest()?)));
    let planned = catalog::plan(root, plugins, disk).map_err(catalog_error)?;
    let Some(catalog::Planned { root, declaration, listed, files }) = planned else { return Ok(None) };
    let placed = catalog::write(&root, &declaration, &files).map_err(catalog_error)?;
    let built: BTreeSet<Target> = listed.iter().flat_map(|l| l.manifest.hosts.keys().copied()).collect();
    let without = catalog::hosts_without_catalog(&built);
    Ok(Some(Published { marketplace: declaration.name, files: files.into_iter().zip(placed).collect(), without }))
}

/// Whether `AGENT_BUNDLE_TRACE` asks for the no-op record's decisions (`noop-record`).
fn tracing_noop_record() -> bool {
    std::env::var("AGENT_BUNDLE_TRACE").is_ok_and(|v| v.split(',').any(|part| part.trim() == "noop-record"))
}

fn canonical(path: &Utf8Path) -> Option<Utf8PathBuf> {
    Utf8PathBuf::from_path_buf(std::fs::canonicalize(path).ok()?).ok()
}

/// The no-op record of a `--recursive` tree ([`noop_record`]): where it is kept and under which key,
/// for a request that can have one.
struct NoopRecordSlot {
    cache: CacheStore,
    key: String,
}

impl NoopRecordSlot {
    /// The record of this request, if it can have one: `--recursive` with a cache, nothing asked to
    /// fail on purpose.
    fn for_options(options: &TreeOptions) -> Option<NoopRecordSlot> {
        if options.scope != Scope::Recursive || options.no_cache || super::faults_injected() {
            return None;
        }
        let cache = options.cache_dir.clone().or_else(super::default_cache_dir)?;
        let canonical = canonical(&options.root)?;
        let request = noop_record::Request {
            root: &options.root,
            canonical_root: &canonical,
            targets: options.targets.iter().map(|t| t.name()).collect(),
            flags: options.printing.clone(),
        };
        Some(NoopRecordSlot { cache: CacheStore::new(cache), key: noop_record::key(&request) })
    }

    /// After a run in which every bundle was a no-op (each vouched for by its fingerprint): what it
    /// printed, rendered again by the reporter from the same reports, kept with what those rest on.
    /// A run that wrote keeps none (what it wrote is too recent to vouch for itself, and the no-op
    /// after it keeps one); nor does a run where a catalog is declared (its files are written by
    /// every run) or where the tree no longer walks as it did.
    fn keep(
        &self,
        options: &TreeOptions,
        outcome: &TreeOutcome,
        disk: &dyn Disk,
        reporter: &mut dyn TreeReporter,
    ) -> Result<(), NotKept> {
        let reports: Vec<&BuildReport> = outcome.results.iter().filter_map(|r| r.as_ref().ok()).collect();
        let vouched: Vec<&Vouched> =
            reports.iter().map(|report| report.vouched().ok_or(NotKept::Built)).collect::<Result<_, _>>()?;
        if reports.len() != outcome.roots.len() {
            return Err(NotKept::Built);
        }
        if std::fs::symlink_metadata(options.root.join(catalog::DECLARATION)).is_ok() {
            return Err(NotKept::Catalog);
        }
        // Walked again from the canonical folder (the record holds canonical paths only), and kept
        // only if the walk still finds what the run built.
        let canonical = canonical(&options.root).ok_or(NotKept::Walk)?;
        let found = crate::pipeline::discover::walk_bundles(&canonical, disk).map_err(|_| NotKept::Walk)?;
        let same = found.roots.len() == outcome.roots.len()
            && found.roots.iter().zip(&outcome.roots).all(|(found, built)| {
                built.strip_prefix(&options.root).is_ok_and(|below| canonical.join(below) == *found)
            });
        if !same {
            return Err(NotKept::Walk);
        }
        let printed = reporter.render_noop(&outcome.roots, &reports).ok_or(NotKept::Changed)?;
        let record = Record::of(&canonical, &found, &vouched, printed, options.prints_manifests)?;
        noop_record::keep(&self.cache, &self.key, &record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::RealDisk;

    /// Hears what a library caller hears, as lines.
    #[derive(Default)]
    struct Heard(Vec<String>);

    impl TreeReporter for Heard {
        fn replayed(&mut self, _: &[u8]) -> std::io::Result<()> {
            self.0.push("replayed".into());
            Ok(())
        }
        fn started(&mut self, root: &Utf8Path) -> std::io::Result<()> {
            self.0.push(format!("started {}", root.file_name().unwrap()));
            Ok(())
        }
        fn lock(&mut self, _: &Utf8Path, _: bool) -> std::io::Result<()> {
            Ok(())
        }
        fn finished(&mut self, root: &Utf8Path, built: Result<&BuildReport, &BuildError>) -> std::io::Result<()> {
            let word = if built.is_ok_and(succeeded_report) { "built" } else { "failed" };
            self.0.push(format!("{word} {}", root.file_name().unwrap()));
            Ok(())
        }
        fn render_noop(&mut self, _: &[Utf8PathBuf], _: &[&BuildReport]) -> Option<Vec<u8>> {
            None
        }
        fn trace(&mut self, _: &str) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A folder holding a bundle that does not build (`a-broken`) and one that does (`b`).
    fn tree() -> (tempfile::TempDir, Utf8PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let root = Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        let source = Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/bundles/page-declaring-a-hook");
        for entry in walkdir::WalkDir::new(&source) {
            let entry = entry.unwrap();
            let to = root.join("b").join(entry.path().strip_prefix(&source).unwrap().to_str().unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::copy(entry.path(), &to).unwrap();
            }
        }
        std::fs::create_dir_all(root.join("a-broken")).unwrap();
        std::fs::write(root.join("a-broken/agent-bundle.config.ts"), "export default {").unwrap();
        (temp, root)
    }

    fn options(root: &Utf8Path, fail_fast: bool) -> TreeOptions {
        TreeOptions { root: root.to_owned(), scope: Scope::Recursive, no_cache: true, fail_fast, ..Default::default() }
    }

    /// The library runs the tree as the command line does: every bundle reported in order, a
    /// failed one listed and the others still built; with `fail_fast`, nothing after the failure.
    #[test]
    fn a_library_caller_builds_a_tree_and_hears_each_bundle_in_order() {
        let (_temp, root) = tree();
        let mut heard = Heard::default();
        let outcome = build_tree(&options(&root, false), &RealDisk, &mut heard).unwrap();
        assert_eq!(heard.0, ["started a-broken", "failed a-broken", "started b", "built b"]);
        assert_eq!(outcome.failed, [root.join("a-broken")]);
        assert_eq!(outcome.results.len(), 2);
        assert!(root.join("b/artifact").is_dir() && !root.join("a-broken/artifact").exists());

        let mut heard = Heard::default();
        let outcome = build_tree(&options(&root, true), &RealDisk, &mut heard).unwrap();
        assert_eq!(heard.0, ["started a-broken", "failed a-broken"]);
        assert_eq!((outcome.roots.len(), outcome.results.len()), (2, 1));
    }

    /// What stops the whole command is an error, not a report: an empty tree.
    #[test]
    fn a_tree_without_bundles_is_an_error() {
        let temp = tempfile::tempdir().unwrap();
        let root = Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        let error = build_tree(&options(&root, false), &RealDisk, &mut Heard::default()).unwrap_err();
        assert!(matches!(error, TreeError::NoBundles), "{error}");
    }
}
