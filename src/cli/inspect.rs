//! `inspect`: what the compiler reads from a bundle and what each host will get.

use std::io::Write;

use camino::Utf8PathBuf;
use clap::Args;

use super::{MessageFormat, parse_target, report_diagnostics};
use crate::cli::error::Error;
use crate::io::RealDisk;
use crate::vocabulary::target::Target;

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The bundle folder (holding agent-bundle.config.ts).
    #[arg(long, default_value = ".")]
    pub root: Utf8PathBuf,
    /// List every hook: name, id, event, handler, targets, and per host its native event, matcher and timeout.
    #[arg(long)]
    pub hooks: bool,
    /// List every event route: its module, runtime, and per host the native event, what it may render,
    /// its budget and where each payload field comes from.
    #[arg(long, conflicts_with = "hooks")]
    pub routes: bool,
    /// Show only what this host gets.
    #[arg(long, value_parser = parse_target)]
    pub target: Option<Target>,
    /// List everything a build of the bundle reads (its files, files outside it, the lockfiles of the
    /// packages it reads, the compiler) and writes, with the Turborepo task and Nx target that declare
    /// them (`--json`); builds the bundle into a throw-away folder to know.
    #[arg(long, conflicts_with_all = ["hooks", "routes"])]
    pub inputs: bool,
    /// With `--inputs`: the workspace root the engines name files from [default: the nearest folder
    /// with turbo.json, nx.json, pnpm-workspace.yaml or a package.json with `workspaces`, else the git
    /// checkout, else the bundle].
    #[arg(long, requires = "inputs")]
    pub workspace_root: Option<Utf8PathBuf>,
    /// Print the compiler's id (its version, sources and host tables) and nothing else: what a monorepo
    /// engine hashes for the compiler (`AGENT_BUNDLE_COMPILER` for Turborepo, a runtime input for Nx).
    #[arg(long, conflicts_with_all = ["hooks", "routes", "inputs", "json", "target"])]
    pub compiler_id: bool,
    /// Print one stable JSON document on stdout (diagnostics included) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run_inspect(
    args: &InspectArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    if args.compiler_id {
        writeln!(stdout, "{}", crate::artifact::compiler_id())?;
        return Ok(());
    }
    if args.inputs {
        return run_inputs(args, stdout);
    }
    let loaded = crate::driver::load_settled(&args.root, &RealDisk);
    let errors = loaded.diagnostics.iter().filter(|d| d.is_error()).count();
    if args.json {
        let mut document = match &loaded.bundle {
            Some(bundle) => crate::tools::inspect::to_json(bundle, args.target, args.hooks, args.routes),
            None => serde_json::json!({}),
        };
        document["diagnostics"] = loaded.diagnostics.iter().map(crate::diagnostic::to_json_value).collect();
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&document))?;
    } else {
        report_diagnostics(&loaded, format, stderr)?;
        if errors == 0
            && let Some(bundle) = &loaded.bundle
        {
            let text = if args.hooks {
                crate::tools::inspect::render_hooks(bundle, args.target)
            } else if args.routes {
                crate::tools::inspect::render_routes(bundle, args.target)
            } else {
                crate::tools::inspect::render_summary(bundle, args.target)
            };
            write!(stdout, "{text}")?;
        }
    }
    if errors > 0 { Err(Error::Reported { errors }) } else { Ok(()) }
}

fn run_inputs(args: &InspectArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    use crate::io::Disk as _;
    let disk = RealDisk;
    let inputs = crate::tools::inputs::inputs(&args.root, &disk).map_err(Error::Failed)?;
    let bundle =
        disk.canonicalize(&args.root).ok_or_else(|| Error::Failed(format!("`{}` is not a folder", args.root)))?;
    let workspace = match &args.workspace_root {
        Some(dir) => disk.canonicalize(dir).ok_or_else(|| Error::Failed(format!("`{dir}` is not a folder")))?,
        None => crate::driver::engines::workspace_root(&bundle, &disk),
    };
    let within = bundle
        .strip_prefix(&workspace)
        .map_err(|_| Error::Failed(format!("the bundle `{bundle}` is not inside the workspace root `{workspace}`")))?;
    if args.json {
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&crate::tools::inputs::to_json(&inputs, within)))?;
    } else {
        write!(stdout, "{}", crate::tools::inputs::render(&inputs, within))?;
    }
    Ok(())
}
