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
    let loaded = crate::build::load_settled(&args.root, &RealDisk);
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
