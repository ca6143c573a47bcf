//! The command line: argument types (clap) and the dispatch from a parsed command to the engine.
//! `main` only parses, calls [`run`], prints the error and exits with its code.

use std::io::Write;

use camino::Utf8PathBuf;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::diagnostic::{self, Diagnostic};
use crate::error::Error;
use crate::io::RealDisk;
use crate::target::Target;
use crate::{artifact, build, engine, incremental, inspect, simulate, snapshot, workspace};

#[derive(Debug, Parser)]
#[command(
    name = "cargo agent-bundle",
    bin_name = "cargo agent-bundle",
    version,
    about = "Compile coding-agent hooks declared once into native Claude Code, Codex and Cursor plugins",
    after_help = "Exit codes: 0 success, 1 errors were reported, 2 the command line was wrong."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// How diagnostics are printed on stderr.
    #[arg(long, value_enum, global = true, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// rustc-style text with the source line.
    Human,
    /// One JSON object per line.
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build the plugin folder that Claude Code, Codex and Cursor load natively.
    Build(BuildArgs),
    /// Show what the compiler reads from a bundle and what each host will get.
    Inspect(InspectArgs),
    /// List or run the hooks of a built artifact.
    #[command(subcommand)]
    Hooks(HooksCommand),
    /// Golden snapshots of everything hosts read: check, record, review, accept, reject.
    Snapshot(SnapshotArgs),
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    #[command(subcommand)]
    pub action: Option<SnapshotAction>,
    /// The bundle folder, or with --recursive the folder to search.
    #[arg(long, default_value = ".", global = true)]
    pub root: Utf8PathBuf,
    /// Snapshot every bundle under --root.
    #[arg(long, global = true)]
    pub recursive: bool,
    /// Snapshot every cargo workspace member that holds a bundle.
    #[arg(long, global = true)]
    pub workspace: bool,
    /// Snapshot this workspace member's bundle (repeatable).
    #[arg(long = "package", short = 'p', global = true)]
    pub packages: Vec<String>,
    /// The Cargo.toml of the workspace.
    #[arg(long, global = true)]
    pub manifest_path: Option<Utf8PathBuf>,
    /// Where golden snapshots and recorded inputs live (`<dir>/<plugin>/<target>.snap`, `<dir>/<plugin>/inputs/`).
    #[arg(long, default_value = "snapshots", global = true)]
    pub snapshot_dir: Utf8PathBuf,
    /// Compare only: write nothing, exit 1 on any difference, new or obsolete snapshot.
    #[arg(long)]
    pub check: bool,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Replace plugin versions with [VERSION] in snapshots.
    #[arg(long)]
    pub redact_versions: bool,
}

#[derive(Debug, Subcommand)]
pub enum SnapshotAction {
    /// Go through pending snapshots one by one: show the diff, then accept, reject or skip.
    Review,
    /// Accept every pending snapshot (and delete obsolete ones marked pending).
    Accept,
    /// Reject every pending snapshot: the golden files stay as they are.
    Reject,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    /// A summary table and collapsible diffs, for a pull-request comment or $GITHUB_STEP_SUMMARY.
    Markdown,
    Json,
}

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
}

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// List the simulatable hooks of an artifact, after checking its files against their hashes.
    List(ListArgs),
    /// Run one hook's real wrapper under node with a canonical input, as the host would.
    Simulate(SimulateArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// The built plugin folder.
    #[arg(long)]
    pub artifact: Utf8PathBuf,
    /// Only this host's hooks.
    #[arg(long, value_parser = parse_target)]
    pub target: Option<Target>,
    /// Print the rows as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input_source").required(true).args(["input", "input_file"])))]
pub struct SimulateArgs {
    /// The built plugin folder.
    #[arg(long)]
    pub artifact: Utf8PathBuf,
    /// The host whose wrapper runs.
    #[arg(long, value_parser = parse_target)]
    pub target: Target,
    /// The hook's exact name or id, as `hooks list` prints it.
    #[arg(long)]
    pub hook: String,
    /// The canonical input, a JSON object (`{"sessionId": …}`).
    #[arg(long)]
    pub input: Option<String>,
    /// A file holding the canonical input.
    #[arg(long)]
    pub input_file: Option<Utf8PathBuf>,
    /// Seconds to wait before stopping the wrapper [default: the hook's timeout, else 5].
    #[arg(long)]
    pub timeout: Option<u64>,
    /// Print the run as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The bundle folder (holding agent-bundle.config.ts).
    #[arg(long, default_value = ".")]
    pub root: Utf8PathBuf,
    /// List every hook: name, id, event, handler, targets, and per host its native event, matcher and timeout.
    #[arg(long)]
    pub hooks: bool,
    /// Show only what this host gets.
    #[arg(long, value_parser = parse_target)]
    pub target: Option<Target>,
    /// Print one stable JSON document on stdout (diagnostics included) instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_target(value: &str) -> Result<Target, String> {
    value.parse()
}

/// Parses the process arguments, accepting the `agent-bundle` word cargo inserts when it runs
/// `cargo agent-bundle …` as `cargo-agent-bundle agent-bundle …`.
pub fn parse_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Cli, clap::Error> {
    let mut args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "agent-bundle") {
        args.remove(1);
    }
    Cli::try_parse_from(args)
}

/// Runs a parsed command, writing its output to `stdout` and diagnostics to `stderr`.
pub fn run(cli: &Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<(), Error> {
    match &cli.command {
        Command::Inspect(args) => run_inspect(args, cli.message_format, stdout, stderr),
        Command::Build(args) => run_build(args, cli.message_format, stdout, stderr),
        Command::Hooks(HooksCommand::List(args)) => run_list(args, stdout),
        Command::Hooks(HooksCommand::Simulate(args)) => run_simulate(args, stdout),
        Command::Snapshot(args) => run_snapshot(args, stdout),
    }
}

fn run_snapshot(args: &SnapshotArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    let pending = || snapshot::pending_files(&args.snapshot_dir, &RealDisk);
    match args.action {
        Some(SnapshotAction::Accept) => {
            for file in pending() {
                snapshot::accept(&file).map_err(|e| Error::Failed(format!("cannot accept {file}: {e}")))?;
                writeln!(stdout, "accepted {}", snapshot::golden_of(&file))?;
            }
            return Ok(());
        }
        Some(SnapshotAction::Reject) => {
            for file in pending() {
                snapshot::reject(&file).map_err(|e| Error::Failed(format!("cannot reject {file}: {e}")))?;
                writeln!(stdout, "rejected {}", snapshot::golden_of(&file))?;
            }
            return Ok(());
        }
        Some(SnapshotAction::Review) => return review_snapshots(&pending(), stdout),
        None => {}
    }
    let (roots, _) =
        discover_roots(&args.root, args.recursive, args.workspace, &args.packages, args.manifest_path.as_deref())?;
    if roots.is_empty() {
        return Err(Error::Failed("no bundles found (no folder holds an agent-bundle.config.ts)".into()));
    }
    let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
    let options = snapshot::SnapshotOptions {
        snapshot_dir: args.snapshot_dir.clone(),
        redact_versions: args.redact_versions,
        write_pending: !args.check && !in_ci,
        whole_project: args.recursive || args.workspace,
    };
    let report = snapshot::take(&roots, &options, &RealDisk);
    let rendered = match args.format {
        ReportFormat::Text => snapshot::report::text(&report),
        ReportFormat::Markdown => snapshot::report::markdown(&report),
        ReportFormat::Json => snapshot::report::json(&report),
    };
    write!(stdout, "{rendered}")?;
    if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true") {
        write!(stdout, "{}", snapshot::report::github_annotations(&report))?;
    }
    if report.is_clean() {
        return Ok(());
    }
    let next = if options.write_pending {
        "pending snapshots were written beside the golden ones: `cargo agent-bundle snapshot review` (or `accept` / `reject`)"
    } else if in_ci && !args.check {
        "CI is set, so nothing was written; run `cargo agent-bundle snapshot` locally and review"
    } else {
        "run `cargo agent-bundle snapshot` to record them, then `cargo agent-bundle snapshot review`"
    };
    Err(Error::Failed(format!(
        "{} snapshot(s) differ, {} bundle(s) failed; {next}",
        report.differences(),
        report.failures.len()
    )))
}

/// Interactive review: for each pending file, show the change and ask.
fn review_snapshots(files: &[Utf8PathBuf], stdout: &mut dyn Write) -> Result<(), Error> {
    if files.is_empty() {
        writeln!(stdout, "no pending snapshots")?;
        return Ok(());
    }
    let stdin = std::io::stdin();
    for (index, file) in files.iter().enumerate() {
        writeln!(stdout, "\n[{}/{}] {}", index + 1, files.len(), snapshot::golden_of(file))?;
        write!(stdout, "{}", snapshot::pending_diff(file))?;
        loop {
            write!(stdout, "accept (a), reject (r), skip (s)? ")?;
            stdout.flush()?;
            let mut line = String::new();
            if stdin.read_line(&mut line)? == 0 {
                writeln!(stdout, "\nno more input: the rest stays pending")?;
                return Ok(());
            }
            match line.trim() {
                "a" | "accept" => {
                    snapshot::accept(file).map_err(|e| Error::Failed(e.to_string()))?;
                    writeln!(stdout, "accepted")?;
                    break;
                }
                "r" | "reject" => {
                    snapshot::reject(file).map_err(|e| Error::Failed(e.to_string()))?;
                    writeln!(stdout, "rejected")?;
                    break;
                }
                "s" | "skip" | "" => {
                    writeln!(stdout, "skipped")?;
                    break;
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn run_build(
    args: &BuildArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let many = args.recursive || args.workspace || !args.packages.is_empty();
    if !many {
        if args.manifest_path.is_some() {
            return Err(Error::Usage("--manifest-path goes with --workspace or --package".into()));
        }
        let options = build_options(args, args.root.clone(), args.output.clone(), args.cache_dir.clone());
        let report = build_one(&options, stderr)?;
        return print_build_report(&report, args, format, stdout, stderr);
    }
    if args.output.is_some() {
        return Err(Error::Usage(
            "--output names one folder; with several bundles each builds into its own `artifact`".into(),
        ));
    }
    let (roots, cache_dir) =
        discover_roots(&args.root, args.recursive, args.workspace, &args.packages, args.manifest_path.as_deref())?;
    let cache_dir = args.cache_dir.clone().or(cache_dir);
    if roots.is_empty() {
        return Err(Error::Failed("no bundles found (no folder holds an agent-bundle.config.ts)".into()));
    }
    let (mut built, mut failed) = (0usize, Vec::new());
    let mut summaries = Vec::new();
    for root in &roots {
        if !args.json {
            writeln!(stdout, "== {root}")?;
        }
        let options = build_options(args, root.clone(), None, cache_dir.clone());
        let outcome = build_one(&options, stderr).and_then(|report| {
            if args.json {
                summaries.push(
                    build_summary(&report, args).unwrap_or_else(|| serde_json::json!({ "output": report.output })),
                );
                report_diagnostics(&report.loaded.with_paths_under_root(), format, stderr)?;
                let errors = report.diagnostics().iter().filter(|d| d.is_error()).count();
                if errors > 0 { Err(Error::Reported { errors }) } else { Ok(()) }
            } else {
                print_build_report(&report, args, format, stdout, stderr)
            }
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
    if args.json {
        let document = serde_json::json!({ "bundles": summaries, "failed": failed });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&document).expect("JSON serialises"))?;
    } else {
        let skipped = roots.len() - built - failed.len();
        let skipped = if skipped > 0 { format!(", {skipped} not attempted (--fail-fast)") } else { String::new() };
        writeln!(stdout, "Built {built} of {} bundles; {} failed{skipped}", roots.len(), failed.len())?;
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::Failed(format!("{} of {} bundles failed: {}", failed.len(), roots.len(), failed.join(", "))))
    }
}

/// The bundle roots a multi-bundle command works on, and the shared cache folder of a workspace.
fn discover_roots(
    root: &Utf8PathBuf,
    recursive: bool,
    all_members: bool,
    packages: &[String],
    manifest_path: Option<&camino::Utf8Path>,
) -> Result<(Vec<Utf8PathBuf>, Option<Utf8PathBuf>), Error> {
    if recursive {
        if all_members || !packages.is_empty() {
            return Err(Error::Usage(
                "--recursive walks folders; --workspace and --package read the cargo workspace".into(),
            ));
        }
        let roots = crate::discover::find_bundles(root, &RealDisk)
            .map_err(|e| Error::Failed(format!("cannot walk `{root}`: {e}")))?;
        return Ok((roots, None));
    }
    if !all_members && packages.is_empty() {
        if manifest_path.is_some() {
            return Err(Error::Usage("--manifest-path goes with --workspace or --package".into()));
        }
        return Ok((vec![root.clone()], None));
    }
    let selection =
        if packages.is_empty() { workspace::Selection::All } else { workspace::Selection::Packages(packages) };
    let found = workspace::find(manifest_path, selection, &RealDisk).map_err(Error::Failed)?;
    let cache = Some(found.target_directory.join("agent-bundle-cache"));
    Ok((found.bundles.into_iter().map(|b| b.root).collect(), cache))
}

fn build_options(
    args: &BuildArgs,
    root: Utf8PathBuf,
    output: Option<Utf8PathBuf>,
    cache_dir: Option<Utf8PathBuf>,
) -> build::BuildOptions {
    build::BuildOptions { root, output, targets: args.targets.clone(), cache_dir, no_cache: args.no_cache }
}

fn build_one(options: &build::BuildOptions, stderr: &mut dyn Write) -> Result<build::BuildReport, Error> {
    build::build_with(options, &RealDisk, &mut |lock| {
        let _ = writeln!(stderr, "Waiting for another build of this output to finish (lock: {lock})");
    })
}

/// The JSON summary of a successful build.
fn build_summary(report: &build::BuildReport, args: &BuildArgs) -> Option<serde_json::Value> {
    let manifest = report.manifest.as_ref()?;
    let write = report.write.as_ref()?;
    let mut summary = serde_json::json!({
        "output": report.output,
        "built": true,
        "diagnostics": report.diagnostics().iter().map(diagnostic::to_json_value).collect::<Vec<_>>(),
        "plugin": manifest.plugin,
        "hosts": report.hosts,
        "hooks": manifest.hooks,
        "files": manifest.files.len() + 1,
        "written": write.written,
        "kept": write.kept.len(),
        "removed": write.removed,
    });
    if let Some(explanation) = &report.explanation {
        let stats = report.emitted.as_ref().map(|e| e.stats).unwrap_or_default();
        summary["modules"] =
            serde_json::json!({ "compiled": stats.compiled, "cached": stats.cached, "corrupt": stats.corrupt });
        summary["hookCounts"] = serde_json::json!({
            "fresh": explanation.count(incremental::HookStatus::Fresh),
            "rebuilt": explanation.count(incremental::HookStatus::Rebuilt),
            "removed": explanation.count(incremental::HookStatus::Removed),
        });
        if args.explain {
            summary["explain"] = serde_json::to_value(explanation).expect("JSON serialises");
        }
    }
    Some(summary)
}

fn print_build_report(
    report: &build::BuildReport,
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
    if errors > 0 {
        if args.json {
            let failed = serde_json::json!({
                "output": report.output,
                "built": false,
                "diagnostics": report.diagnostics().iter().map(diagnostic::to_json_value).collect::<Vec<_>>(),
            });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&failed).expect("JSON serialises"))?;
        }
        return Err(Error::Reported { errors });
    }
    let manifest = report.manifest.as_ref().expect("a build without errors wrote a manifest");
    let write = report.write.as_ref().expect("a build without errors wrote its output");
    if args.json {
        let summary = build_summary(report, args).expect("a build without errors has a summary");
        writeln!(stdout, "{}", serde_json::to_string_pretty(&summary).expect("JSON serialises"))?;
    } else {
        let per_host: Vec<String> = report
            .hosts
            .iter()
            .map(|host| format!("{host} {}", manifest.hooks.iter().filter(|row| row.host == *host).count()))
            .collect();
        if let (true, Some(explanation)) = (args.explain, &report.explanation) {
            for hook in &explanation.hooks {
                let status = match hook.status {
                    incremental::HookStatus::Fresh => "fresh",
                    incremental::HookStatus::Rebuilt => "rebuilt",
                    incremental::HookStatus::Removed => "removed",
                };
                let why =
                    if hook.reasons.is_empty() { String::new() } else { format!(": {}", hook.reasons.join("; ")) };
                writeln!(stdout, "hook {status:<8} {}{why}", hook.name)?;
            }
            for file in &explanation.files {
                let action = match file.action {
                    incremental::FileAction::Written => "wrote",
                    incremental::FileAction::Kept => "kept",
                    incremental::FileAction::Removed => "removed",
                };
                writeln!(stdout, "{action:<8} {}: {}", file.path, file.reason)?;
            }
        }
        if let Some(explanation) = &report.explanation {
            let stats = report.emitted.as_ref().map(|e| e.stats).unwrap_or_default();
            writeln!(
                stdout,
                "{} hooks fresh, {} rebuilt, {} removed; {} files written; {} modules compiled, {} from cache",
                explanation.count(incremental::HookStatus::Fresh),
                explanation.count(incremental::HookStatus::Rebuilt),
                explanation.count(incremental::HookStatus::Removed),
                write.written.len(),
                stats.compiled,
                stats.cached
            )?;
        }
        writeln!(
            stdout,
            "Built {} to {}: {} file{} written, {} unchanged, {} removed; simulatable hooks: {}",
            manifest.plugin.name,
            report.output,
            write.written.len(),
            if write.written.len() == 1 { "" } else { "s" },
            write.kept.len(),
            write.removed.len(),
            if per_host.is_empty() { "none".to_string() } else { per_host.join(", ") }
        )?;
    }
    Ok(())
}

fn run_list(args: &ListArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    let manifest = artifact::read_verified(&args.artifact, &RealDisk).map_err(|e| Error::Failed(e.to_string()))?;
    let rows: Vec<_> = manifest.hooks.iter().filter(|row| args.target.is_none_or(|t| row.host == t)).collect();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&rows).expect("JSON serialises"))?;
        return Ok(());
    }
    let name_width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let event_width = rows.iter().map(|r| r.event.name().len() + r.native_event.len() + 3).max().unwrap_or(5).max(5);
    if !rows.is_empty() {
        writeln!(stdout, "{:<8} {:<name_width$}  {:<event_width$}  WRAPPER", "HOST", "NAME", "EVENT")?;
    }
    for row in &rows {
        let event = format!("{} → {}", row.event, row.native_event);
        writeln!(stdout, "{:<8} {:<name_width$}  {:<event_width$}  {}", row.host.name(), row.name, event, row.path)?;
    }
    let scope = args.target.map(|t| format!(" for {t}")).unwrap_or_default();
    writeln!(stdout, "Listed {} hook{}{scope}", rows.len(), if rows.len() == 1 { "" } else { "s" })?;
    if rows.is_empty() {
        writeln!(stdout, "(prebuilt hooks are in the host documents but are not simulatable, so they are not listed)")?;
    }
    Ok(())
}

fn run_simulate(args: &SimulateArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    let text = match (&args.input, &args.input_file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => fs_err::read_to_string(path).map_err(|e| Error::Failed(e.to_string()))?,
        (None, None) => unreachable!("clap requires one input"),
    };
    let input: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Error::Usage(format!("the input is not valid JSON: {e}")))?;
    let request = simulate::SimulateRequest {
        artifact: args.artifact.clone(),
        target: args.target,
        hook: args.hook.clone(),
        input,
        timeout: args.timeout.map(std::time::Duration::from_secs),
    };
    let run = simulate::simulate(&request, &RealDisk).map_err(|e| Error::Failed(e.to_string()))?;
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&run).expect("JSON serialises"))?;
    } else {
        let show = |text: &str| if text.is_empty() { "(empty)".to_string() } else { text.trim_end().to_string() };
        writeln!(stdout, "Simulated {} on {} ({})", run.hook.name, run.hook.host, run.hook.native_event)?;
        writeln!(stdout, "stdin      {}", run.envelope)?;
        let exit = match (run.exit_code, run.timed_out) {
            (_, true) => "timed out (TERM, then KILL)".to_string(),
            (Some(code), false) => code.to_string(),
            (None, false) => "killed by a signal".to_string(),
        };
        writeln!(stdout, "exit code  {exit}")?;
        writeln!(stdout, "wall time  {} ms", run.wall_time_ms)?;
        writeln!(stdout, "stdout     {}", show(&run.stdout))?;
        writeln!(stdout, "stderr     {}", show(&run.stderr))?;
        match (&run.outcome, &run.decode_error) {
            (Some(outcome), _) => writeln!(stdout, "outcome    {outcome}")?,
            (None, Some(error)) => writeln!(stdout, "outcome    unreadable: {error}")?,
            (None, None) => {
                writeln!(stdout, "outcome    none: the hook failed, and the host would carry on as if it had not run")?
            }
        }
    }
    if run.succeeded() { Ok(()) } else { Err(Error::Failed(format!("hook {} failed", run.hook.name))) }
}

fn run_inspect(
    args: &InspectArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let loaded = engine::load(&args.root, &RealDisk);
    let errors = loaded.diagnostics.iter().filter(|d| d.is_error()).count();
    if args.json {
        let mut document = match &loaded.bundle {
            Some(bundle) => inspect::to_json(bundle, args.target, args.hooks),
            None => serde_json::json!({}),
        };
        document["diagnostics"] = loaded.diagnostics.iter().map(diagnostic::to_json_value).collect();
        writeln!(stdout, "{}", serde_json::to_string_pretty(&document).expect("JSON serialises"))?;
    } else {
        report_diagnostics(&loaded, format, stderr)?;
        if errors == 0 {
            if let Some(bundle) = &loaded.bundle {
                let text = if args.hooks {
                    inspect::render_hooks(bundle, args.target)
                } else {
                    inspect::render_summary(bundle, args.target)
                };
                write!(stdout, "{text}")?;
            }
        }
    }
    if errors > 0 { Err(Error::Reported { errors }) } else { Ok(()) }
}

/// Prints diagnostics on stderr, followed (in human format) by a count line when there are errors.
fn report_diagnostics(loaded: &engine::Loaded, format: MessageFormat, stderr: &mut dyn Write) -> std::io::Result<()> {
    let diagnostics: &[Diagnostic] = &loaded.diagnostics;
    let sources: Vec<_> = loaded.sources.iter().collect();
    for diagnostic in diagnostics {
        match format {
            MessageFormat::Human => writeln!(stderr, "{}", diagnostic::render_human(diagnostic, &sources))?,
            MessageFormat::Json => writeln!(stderr, "{}", diagnostic::render_json(diagnostic))?,
        }
    }
    if format == MessageFormat::Human {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = diagnostics.len() - errors;
        if errors > 0 {
            let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
            let also = if warnings > 0 { format!(", {}", plural(warnings, "warning")) } else { String::new() };
            writeln!(stderr, "error: {} in `{}`{also}", plural(errors, "error"), loaded.root)?;
        }
    }
    Ok(())
}
