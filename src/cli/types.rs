//! `types` and `init`: agent-bundle's TypeScript declarations for a bundle, and a new bundle that
//! uses them.

use std::io::Write;

use camino::Utf8PathBuf;
use clap::Args;

use super::parse_target;
use crate::cli::error::Error;
use crate::vocabulary::canonical::CanonicalEvent;
use crate::vocabulary::target::Target;

#[derive(Debug, Args)]
pub struct TypesArgs {
    /// The bundle folder.
    #[arg(long, default_value = ".")]
    pub root: Utf8PathBuf,
    /// Write nothing; fail when the declarations or tsconfig.json are not up to date.
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The folder of the new bundle (created when missing); with `--monorepo`, the workspace root.
    #[arg(default_value = ".")]
    pub dir: Utf8PathBuf,
    /// Hosts to build for [default: claude, codex].
    #[arg(long, value_delimiter = ',', value_parser = parse_target)]
    pub targets: Vec<Target>,
    /// Events to write a handler for [default: sessionStart, beforeTool].
    #[arg(long, value_delimiter = ',', value_parser = parse_event)]
    pub events: Vec<CanonicalEvent>,
    /// Instead of a new bundle: declare every bundle under the workspace root to a monorepo engine
    /// (`turbo`: each package's turbo.json `build` task, and the root turbo.json when missing; `nx`:
    /// each bundle's project.json `build` target, and nx.json when missing), with what each build
    /// reads and writes (`inspect --inputs`).
    #[arg(long, value_parser = parse_engine, conflicts_with_all = ["targets", "events"])]
    pub monorepo: Option<crate::tools::monorepo::Engine>,
    /// With `--monorepo`: write nothing, and fail (exit 3) when a file is out of date.
    #[arg(long, requires = "monorepo")]
    pub check: bool,
}

fn parse_engine(value: &str) -> Result<crate::tools::monorepo::Engine, String> {
    crate::tools::monorepo::Engine::from_name(value)
        .ok_or_else(|| format!("`{value}` is not a monorepo engine; one of turbo, nx"))
}

fn parse_event(value: &str) -> Result<CanonicalEvent, String> {
    CanonicalEvent::from_name(value).ok_or_else(|| {
        let names: Vec<&str> = CanonicalEvent::ALL.iter().map(|e| e.name()).collect();
        format!("`{value}` is not a config event; one of {}", names.join(", "))
    })
}

pub(super) fn run_types(args: &TypesArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    if !args.root.is_dir() {
        return Err(Error::Failed(format!("`{}` is not a folder", args.root)));
    }
    let report = crate::tools::types::write_types(&args.root, args.check).map_err(Error::Failed)?;
    for file in &report.written {
        writeln!(stdout, "wrote    {file}")?;
    }
    for note in &report.notes {
        writeln!(stdout, "note: {note}")?;
    }
    let verb = if args.check { "checked" } else { "written" };
    writeln!(
        stdout,
        "Declarations for agent-bundle/config, agent-bundle and @agent-bundle/runtime, and the test kit, {verb} in `{}`: {} written, {} unchanged",
        args.root,
        report.written.len(),
        report.unchanged.len()
    )?;
    Ok(())
}

pub(super) fn run_init(args: &InitArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    if let Some(engine) = args.monorepo {
        return run_init_monorepo(args, engine, stdout);
    }
    let options = crate::tools::init::InitOptions {
        dir: args.dir.clone(),
        targets: args.targets.clone(),
        events: args.events.clone(),
    };
    let written = crate::tools::init::init(&options).map_err(Error::Failed)?;
    for file in &written {
        writeln!(stdout, "wrote    {file}")?;
    }
    writeln!(
        stdout,
        "Created a bundle in `{}`. Next: `cargo agent-bundle build`, then `npm install && npm run typecheck && npm test`",
        args.dir
    )?;
    Ok(())
}

fn run_init_monorepo(
    args: &InitArgs,
    engine: crate::tools::monorepo::Engine,
    stdout: &mut dyn Write,
) -> Result<(), Error> {
    let report =
        crate::tools::monorepo::init(&args.dir, engine, args.check, &crate::io::RealDisk).map_err(Error::Failed)?;
    let verb = if args.check { "out of date" } else { "wrote   " };
    for file in &report.written {
        writeln!(stdout, "{verb} {file}")?;
    }
    for note in &report.notes {
        writeln!(stdout, "note: {note}")?;
    }
    writeln!(
        stdout,
        "{} written, {} unchanged",
        if args.check { 0 } else { report.written.len() },
        report.unchanged.len()
    )?;
    if args.check && !report.written.is_empty() {
        return Err(Error::Drift(format!(
            "{} file(s) out of date: run the same command without --check",
            report.written.len()
        )));
    }
    Ok(())
}
