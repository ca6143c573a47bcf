//! `build`: one bundle, or every bundle of a folder or cargo workspace.

use std::io::Write;

use camino::Utf8PathBuf;
use clap::Args;

use super::{MessageFormat, discover_roots, parse_target, report_diagnostics};
use crate::cli::error::Error;
use crate::driver::noop_record::NotKept;
use crate::io::RealDisk;
use crate::vocabulary::target::Target;

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The bundle folder (holding agent-bundle.config.ts).
    #[arg(long, default_value = ".")]
    pub root: Utf8PathBuf,
    /// Where to write the plugin folder [default: <root>/artifact].
    #[arg(long)]
    pub output: Option<Utf8PathBuf>,
    /// Build only for these hosts (repeatable); narrows the config's targets.
    #[arg(long = "target", value_parser = parse_target)]
    pub targets: Vec<Target>,
    /// Print a JSON summary on stdout instead of text (with `--explain`, the reasons too).
    #[arg(long)]
    pub json: bool,
    /// Say, per hook and per output file, why it was rebuilt or kept.
    #[arg(long, short = 'v', visible_alias = "verbose")]
    pub explain: bool,
    /// Where compiled modules and build state are cached [default: $AGENT_BUNDLE_CACHE_DIR, else ~/.cache/agent-bundle].
    #[arg(long)]
    pub cache_dir: Option<Utf8PathBuf>,
    /// Build without reading or writing the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Build every bundle under --root (skipping node_modules, target, hidden folders and artifacts).
    #[arg(long)]
    pub recursive: bool,
    /// Build every member of the cargo workspace that holds a bundle, sharing one cache in its target folder.
    #[arg(long)]
    pub workspace: bool,
    /// Build this workspace member's bundle (repeatable).
    #[arg(long = "package", short = 'p')]
    pub packages: Vec<String>,
    /// The Cargo.toml of the workspace [default: found from the current folder].
    #[arg(long)]
    pub manifest_path: Option<Utf8PathBuf>,
    /// Stop at the first bundle that fails.
    #[arg(long)]
    pub fail_fast: bool,
    /// Write nothing: build into a throw-away folder and fail (exit 3) when the artifact differs from
    /// what the sources build, naming each file (the gate for an artifact committed with its sources).
    #[arg(long, conflicts_with = "explain")]
    pub check: bool,
}

pub(super) fn run_build(
    args: &BuildArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let many = args.recursive || args.workspace || !args.packages.is_empty();
    if args.check {
        return run_check(args, many, format, stdout, stderr);
    }
    if !many {
        if args.manifest_path.is_some() {
            return Err(Error::Usage("--manifest-path goes with --workspace or --package".into()));
        }
        // A task of a monorepo engine: it must hash what this build depends on, or it caches wrongly.
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        crate::tools::monorepo::check_compiler(&env).map_err(Error::Failed)?;
        let options = build_options(args, args.root.clone(), args.output.clone(), args.cache_dir.clone());
        let report = build_one(&options, stderr)?;
        print_build_report(&report, args, format, stdout, stderr)?;
        crate::tools::monorepo::check_declared(&args.root, &report.inputs, &env, &RealDisk).map_err(Error::Failed)?;
        return publish_catalogs(&args.root, &[&report], args, format, stdout, stderr).map(drop);
    }
    if args.output.is_some() {
        return Err(Error::Usage(
            "--output names one folder; with several bundles each builds into its own `artifact`".into(),
        ));
    }
    // A no-op of the whole tree, answered from one record when every stamp it rests on holds.
    let record = NoopRecord::for_args(args);
    if let Some(record) = &record
        && let Some(printed) = crate::driver::noop_record::replay(&record.cache, &record.key)
    {
        if tracing_noop_record() {
            writeln!(stderr, "agent-bundle: no-op record replayed")?;
        }
        stdout.write_all(&printed)?;
        return Ok(());
    }
    let (roots, cache_dir) =
        discover_roots(&args.root, args.recursive, args.workspace, &args.packages, args.manifest_path.as_deref())?;
    let cache_dir = args.cache_dir.clone().or(cache_dir);
    if roots.is_empty() {
        return Err(Error::Failed("no bundles found (no folder holds an agent-bundle.config.ts)".into()));
    }
    let (mut built, mut failed) = (0usize, Vec::new());
    let mut summaries = Vec::new();
    let mut finished = Vec::with_capacity(roots.len());
    let all: Vec<crate::driver::BuildOptions> =
        roots.iter().map(|root| build_options(args, root.clone(), None, cache_dir.clone())).collect();
    // With --fail-fast, bundles are built one after another so that none is built after a failure;
    // otherwise they are built side by side and reported in order.
    let mut parallel = if args.fail_fast { Vec::new() } else { crate::driver::build_many(&all, &RealDisk) }.into_iter();
    for (root, options) in roots.iter().zip(&all) {
        if !args.json {
            writeln!(stdout, "== {root}")?;
        }
        let report = match parallel.next() {
            Some((report, waited)) => {
                for lock in waited {
                    writeln!(stderr, "Waited for another build of this output to finish (lock: {lock})")?;
                }
                report.map_err(flag_error)
            }
            None => build_one(options, stderr),
        };
        let outcome = report.and_then(|report| {
            let printed = print_bundle(&report, args, format, stdout, stderr, &mut summaries);
            finished.push(report);
            printed
        });
        match outcome {
            Ok(()) => built += 1,
            Err(error) => {
                if !matches!(error, Error::Reported { .. }) {
                    writeln!(stderr, "error: {root}: {error}")?;
                }
                failed.push(root.to_string());
                if args.fail_fast {
                    break;
                }
            }
        }
    }
    // The catalogs list every bundle of the build, so they are written only when all of them built.
    let catalogs = if failed.is_empty() {
        let reports: Vec<&crate::driver::BuildReport> = finished.iter().collect();
        publish_catalogs(&args.root, &reports, args, format, stdout, stderr)?
    } else {
        None
    };
    print_totals(args, stdout, roots.len(), built, &failed, summaries, catalogs)?;
    if let Some(record) = record
        && failed.is_empty()
    {
        let kept = record.keep(args, &roots, &finished, format);
        if tracing_noop_record() {
            match kept {
                Ok(()) => writeln!(stderr, "agent-bundle: no-op record kept")?,
                Err(why) => writeln!(stderr, "agent-bundle: no-op record not kept: {why}")?,
            }
        }
    }
    // Freed beside the rest of the command, not before it ends: the reports of 200 no-op builds are
    // some 20,000 small allocations, and freeing them one by one was 8 % of the no-op's time.
    std::thread::spawn(move || drop(finished));
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::Failed(format!("{} of {} bundles failed: {}", failed.len(), roots.len(), failed.join(", "))))
    }
}

/// One bundle's part of a multi-bundle build's output: its summary (kept for the JSON document
/// with `--json`) or its report.
fn print_bundle(
    report: &crate::driver::BuildReport,
    args: &BuildArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    summaries: &mut Vec<serde_json::Value>,
) -> Result<(), Error> {
    if args.json {
        // The bundle's diagnostics are in its document, and only there.
        summaries.push(bundle_document(report, args));
        let errors = report.diagnostics().iter().filter(|d| d.is_error()).count();
        if errors > 0 { Err(Error::Reported { errors }) } else { Ok(()) }
    } else {
        print_build_report(report, args, format, stdout, stderr)
    }
}

/// The end of a multi-bundle build's output: the JSON document, or the count line.
fn print_totals(
    args: &BuildArgs,
    stdout: &mut dyn Write,
    bundles: usize,
    built: usize,
    failed: &[String],
    summaries: Vec<serde_json::Value>,
    catalogs: Option<serde_json::Value>,
) -> Result<(), Error> {
    if args.json {
        let mut document = serde_json::json!({ "bundles": summaries, "failed": failed });
        if let Some(catalogs) = catalogs {
            document["catalogs"] = catalogs;
        }
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&document))?;
    } else {
        let skipped = bundles - built - failed.len();
        let skipped = if skipped > 0 { format!(", {skipped} not attempted (--fail-fast)") } else { String::new() };
        writeln!(stdout, "Built {built} of {bundles} bundles; {} failed{skipped}", failed.len())?;
    }
    Ok(())
}

/// Whether `AGENT_BUNDLE_TRACE` asks for the no-op record's decisions on stderr (`noop-record`).
fn tracing_noop_record() -> bool {
    std::env::var("AGENT_BUNDLE_TRACE").is_ok_and(|v| v.split(',').any(|part| part.trim() == "noop-record"))
}

fn canonical(path: &camino::Utf8Path) -> Option<Utf8PathBuf> {
    Utf8PathBuf::from_path_buf(std::fs::canonicalize(path).ok()?).ok()
}

/// The no-op record of a `build --recursive` ([`crate::driver::noop_record`]): where it is kept and
/// under which key, for a command that can have one.
struct NoopRecord {
    cache: crate::io::CacheStore,
    key: String,
}

impl NoopRecord {
    /// The record of this command, if it can have one: `--recursive` with a cache, nothing asked to
    /// fail on purpose.
    fn for_args(args: &BuildArgs) -> Option<NoopRecord> {
        if !args.recursive || args.no_cache || crate::driver::faults_injected() {
            return None;
        }
        let cache = args.cache_dir.clone().or_else(crate::driver::default_cache_dir)?;
        let canonical = canonical(&args.root)?;
        let request = crate::driver::noop_record::Request {
            root: &args.root,
            canonical_root: &canonical,
            targets: args.targets.iter().map(|t| t.name()).collect(),
            flags: format!("json={} explain={} fail-fast={}", args.json, args.explain, args.fail_fast),
        };
        Some(NoopRecord { cache: crate::io::CacheStore::new(cache), key: crate::driver::noop_record::key(&request) })
    }

    /// After a run in which every bundle was a no-op (each vouched for by its fingerprint): what it
    /// printed, rendered again by the same code from the same reports, kept with what those rest on.
    /// A run that wrote keeps none (what it wrote is too recent to vouch for itself, and the no-op
    /// after it keeps one); nor does a run where a catalog is declared (its files are written by
    /// every run) or where the tree no longer walks as it did.
    fn keep(
        &self,
        args: &BuildArgs,
        roots: &[Utf8PathBuf],
        reports: &[crate::driver::BuildReport],
        format: MessageFormat,
    ) -> Result<(), NotKept> {
        use crate::driver::noop_record::Record;
        let vouched: Vec<&crate::driver::Vouched> =
            reports.iter().map(|report| report.vouched().ok_or(NotKept::Built)).collect::<Result<_, _>>()?;
        if reports.len() != roots.len() {
            return Err(NotKept::Built);
        }
        if std::fs::symlink_metadata(args.root.join(crate::driver::catalog::DECLARATION)).is_ok() {
            return Err(NotKept::Catalog);
        }
        // Walked again from the canonical folder (the record holds canonical paths only), and kept
        // only if the walk still finds what the run built.
        let canonical = canonical(&args.root).ok_or(NotKept::Walk)?;
        let found = crate::pipeline::discover::walk_bundles(&canonical, &RealDisk).map_err(|_| NotKept::Walk)?;
        let same = found.roots.len() == roots.len()
            && found.roots.iter().zip(roots).all(|(found, built)| {
                built.strip_prefix(&args.root).is_ok_and(|below| canonical.join(below) == *found)
            });
        if !same {
            return Err(NotKept::Walk);
        }
        let (mut printed, mut noted, mut summaries) = (Vec::new(), Vec::new(), Vec::new());
        for (root, report) in roots.iter().zip(reports) {
            if !args.json {
                writeln!(printed, "== {root}").map_err(|_| NotKept::Changed)?;
            }
            print_bundle(report, args, format, &mut printed, &mut noted, &mut summaries)
                .map_err(|_| NotKept::Changed)?;
        }
        print_totals(args, &mut printed, roots.len(), roots.len(), &[], summaries, None)
            .map_err(|_| NotKept::Changed)?;
        if !noted.is_empty() {
            return Err(NotKept::Changed);
        }
        let record = Record::of(&canonical, &found, &vouched, printed, args.json)?;
        crate::driver::noop_record::keep(&self.cache, &self.key, &record)
    }
}

/// Writes the marketplace catalogs when `root` declares a marketplace
/// ([`crate::driver::catalog::DECLARATION`]), listing the plugins `reports` built; says what it
/// wrote (on stdout, or as the JSON value returned for `--json`).
fn publish_catalogs(
    root: &camino::Utf8Path,
    reports: &[&crate::driver::BuildReport],
    args: &BuildArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<Option<serde_json::Value>, Error> {
    use crate::driver::catalog;
    let plugins = reports.iter().filter_map(|report| Some((report.output.as_path(), report.manifest()?)));
    let planned = catalog::plan(root, plugins, &RealDisk).map_err(|d| super::refusal(&d, format, stderr))?;
    let Some(catalog::Planned { root, declaration, listed, files }) = planned else { return Ok(None) };
    let placed = catalog::write(&root, &declaration, &files).map_err(|d| super::refusal(&d, format, stderr))?;
    let built: std::collections::BTreeSet<_> = listed.iter().flat_map(|l| l.manifest.hosts.keys().copied()).collect();
    let without = catalog::hosts_without_catalog(&built);
    if args.json {
        let written: Vec<serde_json::Value> = files
            .iter()
            .zip(&placed)
            .map(|(file, placed)| {
                serde_json::json!({ "path": file.path, "hosts": file.hosts, "plugins": file.plugins,
                    "written": *placed == catalog::Placed::Written })
            })
            .collect();
        let without: serde_json::Map<String, serde_json::Value> =
            without.iter().map(|(t, reason)| (t.name().to_string(), serde_json::json!(reason))).collect();
        return Ok(Some(
            serde_json::json!({ "marketplace": declaration.name, "files": written, "noCatalog": without }),
        ));
    }
    for (file, placed) in files.iter().zip(&placed) {
        let hosts: Vec<&str> = file.hosts.iter().map(|t| t.name()).collect();
        let state = if *placed == catalog::Placed::Written { "written" } else { "unchanged" };
        writeln!(
            stdout,
            "Catalog {} ({}; marketplace `{}`): {} plugin{}, {state}",
            file.path,
            hosts.join(", "),
            declaration.name,
            file.plugins.len(),
            if file.plugins.len() == 1 { "" } else { "s" }
        )?;
    }
    for (target, reason) in without {
        writeln!(stdout, "No catalog for {target}: {reason}")?;
    }
    Ok(None)
}

fn build_options(
    args: &BuildArgs,
    root: Utf8PathBuf,
    output: Option<Utf8PathBuf>,
    cache_dir: Option<Utf8PathBuf>,
) -> crate::driver::BuildOptions {
    crate::driver::BuildOptions {
        root,
        output,
        targets: args.targets.clone(),
        cache_dir,
        no_cache: args.no_cache,
        temporary_output: false,
    }
}

fn build_one(
    options: &crate::driver::BuildOptions,
    stderr: &mut dyn Write,
) -> Result<crate::driver::BuildReport, Error> {
    crate::driver::build_with(options, &RealDisk, &mut |lock| {
        let _ = writeln!(stderr, "Waiting for another build of this output to finish (lock: {lock})");
    })
    .map_err(flag_error)
}

/// A library build error in the command line's words: the request came from a flag.
fn flag_error(error: crate::driver::BuildError) -> Error {
    match error {
        crate::driver::BuildError::TargetNotConfigured { target, configured } => {
            let configured: Vec<&str> = configured.iter().map(|t| t.name()).collect();
            Error::Usage(format!(
                "--target {target} is not among the config's targets ({}); --target only narrows them",
                configured.join(", ")
            ))
        }
        crate::driver::BuildError::Scratch(error) => Error::Failed(error.to_string()),
    }
}

/// The JSON document of one bundle's build, for `--json`: the summary of a successful build, or the
/// output, `built: false` and the diagnostics of a failed one.
fn bundle_document(report: &crate::driver::BuildReport, args: &BuildArgs) -> serde_json::Value {
    let failed = report.diagnostics().iter().any(|d| d.is_error());
    match build_summary(report, args).filter(|_| !failed) {
        Some(summary) => summary,
        None => serde_json::json!({
            "output": report.output,
            "built": false,
            "diagnostics": report.diagnostics().iter().map(crate::diagnostic::to_json_value).collect::<Vec<_>>(),
        }),
    }
}

/// The JSON summary of a successful build.
fn build_summary(report: &crate::driver::BuildReport, args: &BuildArgs) -> Option<serde_json::Value> {
    let manifest = report.manifest()?;
    let write = report.write()?;
    let mut summary = serde_json::json!({
        "output": report.output,
        "built": true,
        "diagnostics": report.diagnostics().iter().map(crate::diagnostic::to_json_value).collect::<Vec<_>>(),
        "plugin": manifest.plugin,
        "hosts": report.hosts,
        "hooks": manifest.hooks,
        "files": manifest.files.len() + 1,
        "written": write.written,
        "kept": write.kept.len(),
        "removed": write.removed,
        "untracked": write.untracked,
    });
    if let Some(explanation) = report.explanation() {
        let stats = report.bundle_stats();
        summary["bundles"] =
            serde_json::json!({ "bundled": stats.bundled, "cached": stats.cached, "corrupt": stats.corrupt });
        summary["hookCounts"] = serde_json::json!({
            "fresh": explanation.count(crate::driver::incremental::HookStatus::Fresh),
            "rebuilt": explanation.count(crate::driver::incremental::HookStatus::Rebuilt),
            "removed": explanation.count(crate::driver::incremental::HookStatus::Removed),
        });
        if args.explain {
            summary["explain"] = serde_json::to_value(explanation).expect("JSON serialises");
        }
    }
    Some(summary)
}

fn print_build_report(
    report: &crate::driver::BuildReport,
    args: &BuildArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    // With --json the diagnostics are part of the document on stdout.
    let several_bundles = args.recursive || args.workspace || !args.packages.is_empty();
    if several_bundles && !args.json {
        report_diagnostics(&report.loaded.with_paths_under_root(), format, stderr)?;
    } else if !args.json {
        report_diagnostics(&report.loaded, format, stderr)?;
    }
    let errors = report.diagnostics().iter().filter(|d| d.is_error()).count();
    if args.json {
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&bundle_document(report, args)))?;
    }
    if errors > 0 {
        return Err(Error::Reported { errors });
    }
    let (plugin, rows) =
        report.summary().ok_or_else(|| Error::Failed(format!("`{}` lost its manifest", report.output)))?;
    let write = report.write().expect("a build without errors wrote its output");
    if !args.json {
        let per_host: Vec<String> =
            report.hosts.iter().map(|host| format!("{host} {}", rows.get(host).copied().unwrap_or(0))).collect();
        if let (true, Some(explanation)) = (args.explain, report.explanation()) {
            for hook in &explanation.hooks {
                let status = match hook.status {
                    crate::driver::incremental::HookStatus::Fresh => "fresh",
                    crate::driver::incremental::HookStatus::Rebuilt => "rebuilt",
                    crate::driver::incremental::HookStatus::Removed => "removed",
                };
                let why =
                    if hook.reasons.is_empty() { String::new() } else { format!(": {}", hook.reasons.join("; ")) };
                writeln!(stdout, "hook {status:<8} {}{why}", hook.name)?;
            }
            for file in &explanation.files {
                let action = match file.action {
                    crate::driver::incremental::FileAction::Written => "wrote",
                    crate::driver::incremental::FileAction::Kept => "kept",
                    crate::driver::incremental::FileAction::Removed => "removed",
                    crate::driver::incremental::FileAction::Untracked => "untracked",
                };
                writeln!(stdout, "{action:<8} {}: {}", file.path, file.reason)?;
            }
        }
        if let Some(explanation) = report.explanation() {
            let stats = report.bundle_stats();
            writeln!(
                stdout,
                "{} hooks fresh, {} rebuilt, {} removed; {} files written; {} handlers bundled, {} from cache",
                explanation.count(crate::driver::incremental::HookStatus::Fresh),
                explanation.count(crate::driver::incremental::HookStatus::Rebuilt),
                explanation.count(crate::driver::incremental::HookStatus::Removed),
                write.written.len(),
                stats.bundled,
                stats.cached
            )?;
        }
        let untracked = match write.untracked.len() {
            0 => String::new(),
            n => format!(", {n} not agent-bundle's left in place"),
        };
        writeln!(
            stdout,
            "Built {} to {}: {} file{} written, {} unchanged, {} removed{untracked}; simulatable hooks: {}",
            plugin,
            report.output,
            write.written.len(),
            if write.written.len() == 1 { "" } else { "s" },
            write.kept.len(),
            write.removed.len(),
            if per_host.is_empty() { "none".to_string() } else { per_host.join(", ") }
        )?;
        for (hook, host, why) in report.skipped() {
            writeln!(stdout, "  {hook} on {host}: {why}")?;
        }
    }
    Ok(())
}

/// `build --check`: each bundle built into a throw-away folder and compared with its artifact.
fn run_check(
    args: &BuildArgs,
    many: bool,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let (roots, cache_dir) = if many {
        if args.output.is_some() {
            return Err(Error::Usage(
                "--output names one folder; with several bundles each checks its own `artifact`".into(),
            ));
        }
        discover_roots(&args.root, args.recursive, args.workspace, &args.packages, args.manifest_path.as_deref())?
    } else {
        (vec![args.root.clone()], None)
    };
    let cache_dir = args.cache_dir.clone().or(cache_dir);
    let (mut drifted, mut failed, mut documents, mut checks) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for root in &roots {
        let options = build_options(args, root.clone(), args.output.clone(), cache_dir.clone());
        let checked = crate::driver::check::check(&options, &RealDisk).map_err(flag_error)?;
        if !args.json {
            report_diagnostics(&checked.report.loaded, format, stderr)?;
        }
        let built = !checked.report.has_errors();
        if args.json {
            let drift: Vec<serde_json::Value> =
                checked.drift.iter().map(|(path, how)| serde_json::json!({ "path": path, "drift": how })).collect();
            documents.push(serde_json::json!({
                "root": root,
                "artifact": checked.artifact,
                "built": built,
                "matches": checked.matches(),
                "files": checked.files,
                "drift": drift,
                "diagnostics": checked.report.diagnostics(),
            }));
        } else if built && checked.drift.is_empty() {
            writeln!(stdout, "{} matches its sources ({} files)", checked.artifact, checked.files)?;
        } else if built {
            writeln!(
                stdout,
                "{} differs from what its sources build ({} of {} files):",
                checked.artifact,
                checked.drift.len(),
                checked.files
            )?;
            for (path, how) in &checked.drift {
                let note = match how {
                    crate::driver::check::Drift::Stale => " (a build removes it)",
                    _ => "",
                };
                writeln!(stdout, "  {:<8} {path}{note}", how.word())?;
            }
        }
        if !built {
            failed.push(root.to_string());
        } else if !checked.drift.is_empty() {
            drifted.push(checked.artifact.to_string());
        }
        checks.push(checked);
    }
    // The catalogs the committed artifacts would be listed in, against the committed catalogs.
    let mut catalog_drift = Vec::new();
    if failed.is_empty() {
        let plugins = checks.iter().filter_map(|c| Some((c.artifact.as_path(), c.manifest.as_ref()?)));
        let planned = crate::driver::catalog::plan(&args.root, plugins, &RealDisk)
            .map_err(|d| super::refusal(&d, format, stderr))?;
        if let Some(planned) = planned {
            catalog_drift = crate::driver::catalog::drift(&planned.root, &planned.files);
        }
    }
    for (path, missing) in &catalog_drift {
        drifted.push(path.clone());
        if !args.json {
            let how = if *missing { "is missing (a build writes it)" } else { "differs from what the sources build" };
            writeln!(stdout, "catalog {path} {how}")?;
        }
    }
    if args.json {
        let catalogs: Vec<serde_json::Value> = catalog_drift
            .iter()
            .map(|(path, missing)| serde_json::json!({ "path": path, "drift": if *missing { "missing" } else { "changed" } }))
            .collect();
        let document = serde_json::json!({ "bundles": documents, "catalogs": catalogs });
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&document))?;
    }
    if !failed.is_empty() {
        return Err(Error::Failed(format!("the sources do not build: {}", failed.join(", "))));
    }
    if drifted.is_empty() {
        Ok(())
    } else {
        Err(Error::Drift(format!(
            "{} differ{} from {} sources; run `cargo agent-bundle build` and commit the result",
            drifted.join(", "),
            if drifted.len() == 1 { "s" } else { "" },
            if drifted.len() == 1 { "its" } else { "their" }
        )))
    }
}
