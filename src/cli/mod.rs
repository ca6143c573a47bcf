//! The command line: argument types (clap) and the dispatch from a parsed command to the engine.
//! `main` only parses, calls [`run`], prints the error and exits with its code.

use std::io::Write;

use camino::Utf8PathBuf;
use clap::{Parser, Subcommand, ValueEnum};

use crate::cli::error::Error;
use crate::diagnostic::Diagnostic;
use crate::vocabulary::target::Target;

mod build;
pub mod error;
mod hooks;
mod inspect;
mod install;
mod snapshot;
pub mod terminal;
mod types;

pub use self::build::BuildArgs;
pub use self::hooks::{HooksCommand, ListArgs, SimulateArgs};
pub use self::inspect::InspectArgs;
pub use self::install::{DoctorArgs, InstallArgs, UninstallArgs};
pub use self::snapshot::{ReportFormat, SnapshotAction, SnapshotArgs};
pub use self::types::{InitArgs, TypesArgs};

#[derive(Debug, Parser)]
#[command(
    name = "cargo agent-bundle",
    bin_name = "cargo agent-bundle",
    version,
    about = format!("Compile coding-agent hooks declared once into the native plugins of {}", crate::hosts::products_prose()),
    after_help = "Exit codes: 0 success, 1 errors were reported, 2 the command line was wrong, 3 `build --check` found an artifact or catalog that differs from its sources."
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
    /// Build the plugin folder that every host loads natively.
    #[command(about = format!("Build the plugin folder that {} load natively", crate::hosts::products_prose()))]
    Build(BuildArgs),
    /// Show what the compiler reads from a bundle and what each host will get.
    Inspect(InspectArgs),
    /// List or run the hooks of a built artifact.
    #[command(subcommand)]
    Hooks(HooksCommand),
    /// Golden snapshots of everything hosts read: check, record, review, accept, reject.
    Snapshot(SnapshotArgs),
    /// Print the Event and hook matrix (events, route families, tool selectors and results per host).
    Matrix(MatrixArgs),
    /// Write agent-bundle's TypeScript declarations into a bundle and map them in its tsconfig.json.
    Types(TypesArgs),
    /// Create a new bundle: config, typed handlers, package.json, tsconfig.json, README.
    Init(InitArgs),
    /// Install a built artifact where each host loads it, registered the host's own way, with a receipt.
    Install(InstallArgs),
    /// Remove exactly what `install` recorded in its receipt.
    Uninstall(UninstallArgs),
    /// Report per host how far an installed plugin got: placed, registered, enabled, loaded.
    Doctor(DoctorArgs),
    /// Serve a local page (127.0.0.1 only): each hook across hosts, runs through the real wrappers, replay, live rebuilds.
    Workbench(WorkbenchArgs),
}

#[derive(Debug, clap::Args)]
pub struct WorkbenchArgs {
    /// The bundle folder.
    #[arg(long, default_value = ".")]
    pub root: Utf8PathBuf,
    /// The port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Where "Save as recorded input" writes and "Compare with recorded" reads, as `snapshot --snapshot-dir`.
    #[arg(long, default_value = "snapshots")]
    pub snapshot_dir: Utf8PathBuf,
    /// Open the page in the desktop's browser (`xdg-open`) once it is served.
    #[arg(long)]
    pub open: bool,
}

#[derive(Debug, clap::Args)]
pub struct MatrixArgs {
    /// `markdown` (what README shows) or `json` (the same facts as data).
    #[arg(long, value_enum, default_value_t = MatrixFormat::Markdown)]
    pub format: MatrixFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MatrixFormat {
    Markdown,
    Json,
}

pub(crate) fn parse_target(value: &str) -> Result<Target, String> {
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
        Command::Inspect(args) => self::inspect::run_inspect(args, cli.message_format, stdout, stderr),
        Command::Build(args) => self::build::run_build(args, cli.message_format, stdout, stderr),
        Command::Hooks(HooksCommand::List(args)) => self::hooks::run_list(args, stdout),
        Command::Hooks(HooksCommand::Simulate(args)) => self::hooks::run_simulate(args, stdout),
        Command::Snapshot(args) => self::snapshot::run_snapshot(args, stdout),
        Command::Types(args) => self::types::run_types(args, stdout),
        Command::Init(args) => self::types::run_init(args, stdout),
        Command::Install(args) => self::install::run_install(args, cli.message_format, stdout, stderr),
        Command::Uninstall(args) => self::install::run_uninstall(args, cli.message_format, stdout, stderr),
        Command::Doctor(args) => self::install::run_doctor(args, cli.message_format, stdout, stderr),
        Command::Workbench(args) => {
            let options = crate::tools::workbench::WorkbenchOptions {
                root: args.root.clone(),
                port: args.port,
                cache_dir: None,
                snapshot_dir: args.snapshot_dir.clone(),
            };
            let open = args.open;
            crate::tools::workbench::serve(options, |url| {
                let _ = writeln!(stdout, "Workbench on {url}");
                let _ = stdout.flush();
                if open && std::process::Command::new("xdg-open").arg(url).spawn().is_err() {
                    let _ = writeln!(stdout, "(no `xdg-open` here: open the address above yourself)");
                }
            })
            .map_err(Error::Failed)
        }
        Command::Matrix(args) => {
            match args.format {
                MatrixFormat::Markdown => write!(stdout, "{}", crate::tools::matrix::markdown())?,
                MatrixFormat::Json => {
                    writeln!(stdout, "{}", crate::vocabulary::json::pretty(&crate::tools::matrix::json()))?
                }
            }
            Ok(())
        }
    }
}

/// The scope a multi-bundle command's flags name: arguments that make no sense together are a usage
/// error.
pub(crate) fn scope(
    recursive: bool,
    all_members: bool,
    packages: &[String],
    manifest_path: Option<&camino::Utf8Path>,
) -> Result<crate::driver::tree::Scope, Error> {
    use crate::driver::tree::Scope;
    if recursive {
        if all_members || !packages.is_empty() {
            return Err(Error::Usage(
                "--recursive walks folders; --workspace and --package read the cargo workspace".into(),
            ));
        }
        return Ok(Scope::Recursive);
    }
    if !all_members && packages.is_empty() {
        if manifest_path.is_some() {
            return Err(Error::Usage("--manifest-path goes with --workspace or --package".into()));
        }
        return Ok(Scope::One);
    }
    Ok(Scope::Workspace { packages: packages.to_vec(), manifest_path: manifest_path.map(Into::into) })
}

/// A tree build's error in the command line's words (a catalog's diagnostic printed as a refusal).
pub(crate) fn tree_error(
    error: crate::driver::tree::TreeError,
    format: MessageFormat,
    stderr: &mut dyn Write,
) -> Error {
    use crate::driver::tree::TreeError;
    match error {
        TreeError::Build(error) => self::build::flag_error(&error),
        TreeError::Catalog(diagnostic) => refusal(&diagnostic, format, stderr),
        TreeError::Report(error) => Error::Output(error),
        other => Error::Failed(other.to_string()),
    }
}

/// Prints diagnostics on stderr, followed (in human format) by a count line when there are errors.
/// Prints one diagnostic that stops a command (not a bundle's) in the chosen format: the error to
/// return.
pub(crate) fn refusal(diagnostic: &Diagnostic, format: MessageFormat, stderr: &mut dyn Write) -> Error {
    let _ = match format {
        MessageFormat::Human => writeln!(stderr, "{}", crate::diagnostic::render_human(diagnostic, &[])),
        MessageFormat::Json => writeln!(stderr, "{}", crate::diagnostic::render_json(diagnostic)),
    };
    Error::Reported { errors: 1 }
}

pub(crate) fn report_diagnostics(
    loaded: &crate::pipeline::Loaded,
    format: MessageFormat,
    stderr: &mut dyn Write,
) -> std::io::Result<()> {
    let diagnostics: &[Diagnostic] = &loaded.diagnostics;
    let sources: Vec<_> = loaded.sources.iter().collect();
    for diagnostic in diagnostics {
        match format {
            MessageFormat::Human => writeln!(stderr, "{}", crate::diagnostic::render_human(diagnostic, &sources))?,
            MessageFormat::Json => writeln!(stderr, "{}", crate::diagnostic::render_json(diagnostic))?,
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
