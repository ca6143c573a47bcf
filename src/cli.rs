//! The command line: argument types (clap) and the dispatch from a parsed command to the engine.
//! `main` only parses, calls [`run`], prints the error and exits with its code.

use std::io::Write;

use camino::Utf8PathBuf;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::diagnostic::{self, Diagnostic};
use crate::error::Error;
use crate::io::RealDisk;
use crate::target::Target;
use crate::{engine, inspect};

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
    /// Show what the compiler reads from a bundle and what each host will get.
    Inspect(InspectArgs),
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
    }
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
        report(&loaded.diagnostics, &loaded, format, stderr)?;
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
fn report(
    diagnostics: &[Diagnostic],
    loaded: &engine::Loaded,
    format: MessageFormat,
    stderr: &mut dyn Write,
) -> std::io::Result<()> {
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
