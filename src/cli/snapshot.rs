//! `snapshot`: golden snapshots, and settling pending ones (`review`, `accept`, `reject`).

use std::io::Write;

use camino::Utf8PathBuf;
use clap::{Args, Subcommand, ValueEnum};

use crate::cli::error::Error;
use crate::io::RealDisk;

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

pub(super) fn run_snapshot(args: &SnapshotArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    let pending = || crate::tools::snapshot::pending_files(&args.snapshot_dir, &RealDisk);
    match args.action {
        Some(SnapshotAction::Accept) => {
            for file in pending() {
                crate::tools::snapshot::accept(&file)
                    .map_err(|e| Error::Failed(format!("cannot accept {file}: {e}")))?;
                writeln!(stdout, "accepted {}", crate::tools::snapshot::golden_of(&file))?;
            }
            return Ok(());
        }
        Some(SnapshotAction::Reject) => {
            for file in pending() {
                crate::tools::snapshot::reject(&file)
                    .map_err(|e| Error::Failed(format!("cannot reject {file}: {e}")))?;
                writeln!(stdout, "rejected {}", crate::tools::snapshot::golden_of(&file))?;
            }
            return Ok(());
        }
        Some(SnapshotAction::Review) => return review_snapshots(&pending(), stdout),
        None => {}
    }
    let scope = super::scope(args.recursive, args.workspace, &args.packages, args.manifest_path.as_deref())?;
    let tree = crate::driver::tree::TreeOptions { root: args.root.clone(), scope, ..Default::default() };
    let roots = crate::driver::tree::select(&tree, &RealDisk).map_err(|e| Error::Failed(e.to_string()))?.roots;
    if roots.is_empty() {
        return Err(Error::Failed("no bundles found (no folder holds an agent-bundle.config.ts)".into()));
    }
    let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
    let options = crate::tools::snapshot::SnapshotOptions {
        snapshot_dir: args.snapshot_dir.clone(),
        redact_versions: args.redact_versions,
        write_pending: !args.check && !in_ci,
        whole_project: args.recursive || args.workspace,
    };
    let report = crate::tools::snapshot::take(&roots, &options, &RealDisk);
    let rendered = match args.format {
        ReportFormat::Text => crate::tools::snapshot::report::text(&report),
        ReportFormat::Markdown => crate::tools::snapshot::report::markdown(&report),
        ReportFormat::Json => crate::tools::snapshot::report::json(&report),
    };
    write!(stdout, "{rendered}")?;
    if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true") {
        write!(stdout, "{}", crate::tools::snapshot::report::github_annotations(&report))?;
    }
    if report.is_clean() {
        return Ok(());
    }
    if !report.write_errors.is_empty() {
        return Err(Error::Failed(format!(
            "{} snapshot(s) differ, and pending snapshots could not be written: {}",
            report.differences(),
            report.write_errors.join("; ")
        )));
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
        writeln!(stdout, "\n[{}/{}] {}", index + 1, files.len(), crate::tools::snapshot::golden_of(file))?;
        write!(stdout, "{}", crate::tools::snapshot::pending_diff(file))?;
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
                    crate::tools::snapshot::accept(file).map_err(|e| Error::Failed(e.to_string()))?;
                    writeln!(stdout, "accepted")?;
                    break;
                }
                "r" | "reject" => {
                    crate::tools::snapshot::reject(file).map_err(|e| Error::Failed(e.to_string()))?;
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
