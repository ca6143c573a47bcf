//! `build`: one bundle, or every bundle of a folder or cargo workspace.

use std::io::Write;

use camino::{Utf8Path, Utf8PathBuf};
use clap::Args;

use super::{MessageFormat, parse_target, report_diagnostics};
use crate::cli::error::Error;
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
    let scope = super::scope(args.recursive, args.workspace, &args.packages, args.manifest_path.as_deref())?;
    if scope.is_many() && args.output.is_some() {
        let verb = if args.check { "checks" } else { "builds into" };
        return Err(Error::Usage(format!(
            "--output names one folder; with several bundles each {verb} its own `artifact`"
        )));
    }
    let options = tree_options(args, scope);
    if args.check {
        return run_check(&options, args, format, stdout, stderr);
    }
    let mut reporter = Reporter {
        args,
        many: options.scope.is_many(),
        format,
        stdout,
        stderr,
        summaries: Vec::new(),
        first_error: None,
    };
    let outcome = crate::driver::tree::build_tree(&options, &RealDisk, &mut reporter);
    let Reporter { stdout, stderr, summaries, first_error, .. } = reporter;
    let outcome = outcome.map_err(|error| super::tree_error(error, format, stderr))?;
    if outcome.replayed {
        return Ok(());
    }
    let catalogs = match &outcome.catalogs {
        Some(published) => print_catalogs(published, args, stdout)?,
        None => None,
    };
    let result = if !options.scope.is_many() {
        first_error.map_or(Ok(()), Err)
    } else {
        let (bundles, failed) = (outcome.roots.len(), &outcome.failed);
        let built = outcome.results.len() - failed.len();
        let failed: Vec<String> = failed.iter().map(ToString::to_string).collect();
        print_totals(args, stdout, bundles, built, &failed, summaries, catalogs)?;
        if failed.is_empty() {
            Ok(())
        } else {
            Err(Error::Failed(format!("{} of {bundles} bundles failed: {}", failed.len(), failed.join(", "))))
        }
    };
    // Freed beside the rest of the command, not before it ends: the reports of 200 no-op builds are
    // some 20,000 small allocations, and freeing them one by one was 8 % of the no-op's time.
    std::thread::spawn(move || drop(outcome));
    result
}

/// The driver's request for `args`.
fn tree_options(args: &BuildArgs, scope: crate::driver::tree::Scope) -> crate::driver::tree::TreeOptions {
    crate::driver::tree::TreeOptions {
        root: args.root.clone(),
        scope,
        output: args.output.clone(),
        targets: args.targets.clone(),
        cache_dir: args.cache_dir.clone(),
        no_cache: args.no_cache,
        fail_fast: args.fail_fast,
        printing: format!("json={} explain={} fail-fast={}", args.json, args.explain, args.fail_fast),
        prints_manifests: args.json,
    }
}

/// What `build` prints of a tree build, as the driver tells it.
struct Reporter<'a> {
    args: &'a BuildArgs,
    /// Whether the scope holds several bundles (each reported under its heading, failures counted).
    many: bool,
    format: MessageFormat,
    stdout: &'a mut dyn Write,
    stderr: &'a mut dyn Write,
    /// Each bundle's JSON document, for the one document printed at the end (`--json`).
    summaries: Vec<serde_json::Value>,
    /// The one bundle's failure, in the command line's words (with one bundle there is no count
    /// line to carry it).
    first_error: Option<Error>,
}

impl crate::driver::tree::TreeReporter for Reporter<'_> {
    fn replayed(&mut self, printed: &[u8]) -> std::io::Result<()> {
        self.stdout.write_all(printed)
    }

    fn started(&mut self, root: &Utf8Path) -> std::io::Result<()> {
        if !self.args.json { writeln!(self.stdout, "== {root}") } else { Ok(()) }
    }

    fn lock(&mut self, lock: &Utf8Path, done: bool) -> std::io::Result<()> {
        let how = if done { "Waited" } else { "Waiting" };
        writeln!(self.stderr, "{how} for another build of this output to finish (lock: {lock})")
    }

    fn finished(
        &mut self,
        root: &Utf8Path,
        built: Result<&crate::driver::BuildReport, &crate::driver::BuildError>,
    ) -> std::io::Result<()> {
        let many = self.many;
        let printed = match built {
            Ok(report) if many => {
                print_bundle(report, self.args, self.format, self.stdout, self.stderr, &mut self.summaries)
            }
            Ok(report) => print_build_report(report, self.args, self.format, self.stdout, self.stderr),
            Err(error) => Err(flag_error(error)),
        };
        match printed {
            Ok(()) => Ok(()),
            Err(Error::Output(error)) => Err(error),
            Err(error) if many => {
                if !matches!(error, Error::Reported { .. }) {
                    writeln!(self.stderr, "error: {root}: {error}")?;
                }
                Ok(())
            }
            Err(error) => {
                self.first_error.get_or_insert(error);
                Ok(())
            }
        }
    }

    fn render_noop(&mut self, roots: &[Utf8PathBuf], reports: &[&crate::driver::BuildReport]) -> Option<Vec<u8>> {
        let (mut printed, mut noted, mut summaries) = (Vec::new(), Vec::new(), Vec::new());
        for (root, report) in roots.iter().zip(reports) {
            if !self.args.json {
                writeln!(printed, "== {root}").ok()?;
            }
            print_bundle(report, self.args, self.format, &mut printed, &mut noted, &mut summaries).ok()?;
        }
        print_totals(self.args, &mut printed, roots.len(), roots.len(), &[], summaries, None).ok()?;
        noted.is_empty().then_some(printed)
    }

    fn trace(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stderr, "agent-bundle: {line}")
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

/// What the catalogs the build wrote are: printed on stdout, or the JSON value returned for `--json`.
fn print_catalogs(
    published: &crate::driver::tree::Published,
    args: &BuildArgs,
    stdout: &mut dyn Write,
) -> Result<Option<serde_json::Value>, Error> {
    use crate::driver::catalog::Placed;
    if args.json {
        let written: Vec<serde_json::Value> = published
            .files
            .iter()
            .map(|(file, placed)| {
                serde_json::json!({ "path": file.path, "hosts": file.hosts, "plugins": file.plugins,
                    "written": *placed == Placed::Written })
            })
            .collect();
        let without: serde_json::Map<String, serde_json::Value> =
            published.without.iter().map(|(t, reason)| (t.name().to_string(), serde_json::json!(reason))).collect();
        return Ok(Some(
            serde_json::json!({ "marketplace": published.marketplace, "files": written, "noCatalog": without }),
        ));
    }
    for (file, placed) in &published.files {
        let hosts: Vec<&str> = file.hosts.iter().map(|t| t.name()).collect();
        let state = if *placed == Placed::Written { "written" } else { "unchanged" };
        writeln!(
            stdout,
            "Catalog {} ({}; marketplace `{}`): {} plugin{}, {state}",
            file.path,
            hosts.join(", "),
            published.marketplace,
            file.plugins.len(),
            if file.plugins.len() == 1 { "" } else { "s" }
        )?;
    }
    for (target, reason) in &published.without {
        writeln!(stdout, "No catalog for {target}: {reason}")?;
    }
    Ok(None)
}

/// A library build error in the command line's words: the request came from a flag.
pub(super) fn flag_error(error: &crate::driver::BuildError) -> Error {
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
    options: &crate::driver::tree::TreeOptions,
    args: &BuildArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let tree =
        crate::driver::check::check_tree(options, &RealDisk).map_err(|e| super::tree_error(e, format, stderr))?;
    let (mut drifted, mut documents) = (Vec::new(), Vec::new());
    for (root, checked) in &tree.checks {
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
        if built && !checked.drift.is_empty() {
            drifted.push(checked.artifact.to_string());
        }
    }
    for (path, missing) in &tree.catalog_drift {
        drifted.push(path.clone());
        if !args.json {
            let how = if *missing { "is missing (a build writes it)" } else { "differs from what the sources build" };
            writeln!(stdout, "catalog {path} {how}")?;
        }
    }
    if args.json {
        let catalogs: Vec<serde_json::Value> = tree
            .catalog_drift
            .iter()
            .map(|(path, missing)| serde_json::json!({ "path": path, "drift": if *missing { "missing" } else { "changed" } }))
            .collect();
        let document = serde_json::json!({ "bundles": documents, "catalogs": catalogs });
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&document))?;
    }
    let failed: Vec<String> = tree.failed().map(ToString::to_string).collect();
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
