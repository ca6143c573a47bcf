//! `hooks list` and `hooks simulate`: the hooks of a built artifact.

use std::io::Write;

use camino::Utf8PathBuf;
use clap::{Args, Subcommand};

use super::parse_target;
use crate::cli::error::Error;
use crate::io::RealDisk;
use crate::vocabulary::target::Target;

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// List the hooks of an artifact (each simulatable), after checking its files against their hashes.
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
#[command(group(
    clap::ArgGroup::new("input_source").required(true).args(["input", "input_file", "native_input", "native_input_file"])
))]
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
    /// A native envelope as the host sends it (a captured receipt), written to stdin as given.
    #[arg(long)]
    pub native_input: Option<String>,
    /// A file holding a native envelope.
    #[arg(long)]
    pub native_input_file: Option<Utf8PathBuf>,
    /// Seconds to wait before stopping the wrapper [default: the hook's effective timeout on the host].
    #[arg(long)]
    pub timeout: Option<u64>,
    /// The session's project folder, where the host runs the hook and which its project variables
    /// name [default: the input's `cwd` where that folder exists here, else the current folder].
    #[arg(long)]
    pub project: Option<Utf8PathBuf>,
    /// A variable to add to the hook's environment, or to set over the host's (`KEY=VALUE`; repeat it).
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = crate::tools::simulate::parse_env)]
    pub env: Vec<(String, String)>,
    /// Print the run as JSON.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run_list(args: &ListArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    let manifest =
        crate::artifact::read_verified(&args.artifact, &RealDisk).map_err(|e| Error::Failed(e.to_string()))?;
    if let Some(target) = args.target
        && !manifest.hosts.contains_key(&target)
    {
        let built: Vec<&str> = manifest.hosts.keys().map(|t| t.name()).collect();
        return Err(Error::Failed(format!(
            "the artifact at `{}` was not built for {target}: it has {}; rebuild with {target} in the config's `targets`",
            args.artifact,
            if built.is_empty() { "no hosts".to_string() } else { built.join(", ") }
        )));
    }
    // A host another host's plugin serves (Kilo CLI) runs that plugin's hooks.
    let built = args.target.map(|t| crate::hosts::table(t).built_as());
    let rows: Vec<_> = manifest.hooks.iter().filter(|row| built.is_none_or(|t| row.host == t)).collect();
    if args.json {
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&rows))?;
        return Ok(());
    }
    let name_width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let event_width = rows.iter().map(|r| r.event.name().len() + r.native_event.len() + 3).max().unwrap_or(5).max(5);
    if !rows.is_empty() {
        writeln!(stdout, "{:<8} {:<name_width$}  {:<event_width$}  WRAPPER", "HOST", "NAME", "EVENT")?;
    }
    for row in &rows {
        let event = format!("{} → {}", row.event, row.native_event);
        let prebuilt = if row.prebuilt { " (prebuilt)" } else { "" };
        writeln!(
            stdout,
            "{:<8} {:<name_width$}  {:<event_width$}  {}{prebuilt}",
            row.host.name(),
            row.name,
            event,
            row.path
        )?;
    }
    let scope = args.target.map(|t| format!(" for {t}")).unwrap_or_default();
    writeln!(stdout, "Listed {} hook{}{scope}", rows.len(), if rows.len() == 1 { "" } else { "s" })?;
    Ok(())
}

pub(super) fn run_simulate(args: &SimulateArgs, stdout: &mut dyn Write) -> Result<(), Error> {
    use crate::tools::simulate::{SimulateError, SimulateInput};
    let read = |path: &Utf8PathBuf| fs_err::read_to_string(path).map_err(|e| Error::Failed(e.to_string()));
    let (text, native) = match (&args.input, &args.input_file, &args.native_input, &args.native_input_file) {
        (Some(text), ..) => (text.clone(), false),
        (_, Some(path), ..) => (read(path)?, false),
        (_, _, Some(text), _) => (text.clone(), true),
        (_, _, _, Some(path)) => (read(path)?, true),
        _ => unreachable!("clap requires one input"),
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Error::Usage(format!("the input is not valid JSON: {e}")))?;
    let request = crate::tools::simulate::SimulateRequest {
        artifact: args.artifact.clone(),
        target: args.target,
        hook: args.hook.clone(),
        input: if native { SimulateInput::Native(value) } else { SimulateInput::Canonical(value) },
        timeout: args.timeout.map(std::time::Duration::from_secs),
        place: crate::tools::simulate::PlaceRequest {
            project: match &args.project {
                Some(dir) => crate::tools::simulate::Project::Given(dir.clone()),
                None => crate::tools::simulate::Project::FromInput,
            },
            env: args.env.clone(),
            folder: None,
        },
    };
    let run = crate::tools::simulate::simulate(&request, &RealDisk).map_err(|e| match e {
        SimulateError::NotAdmitted(message) | SimulateError::BadInput(message) => Error::Usage(message),
        other => Error::Failed(other.to_string()),
    })?;
    for warning in &run.warnings {
        eprintln!("warning: {warning}");
    }
    if args.json {
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&run))?;
    } else {
        let show = |text: &str| if text.is_empty() { "(empty)".to_string() } else { text.trim_end().to_string() };
        writeln!(stdout, "Simulated {} on {} ({})", run.hook.name, run.hook.host, run.hook.native_event)?;
        writeln!(stdout, "stdin      {}", run.envelope)?;
        let place = &run.place;
        writeln!(stdout, "ran in     {}", place.working_folder)?;
        writeln!(stdout, "project    {} (from {})", place.project, place.project_from)?;
        for (key, value) in &place.env {
            writeln!(stdout, "env        {key}={value}")?;
        }
        if let Some(file) = &place.env_file {
            let lines: Vec<&str> = file.written.lines().collect();
            let what = match lines.len() {
                0 => "nothing".to_string(),
                1 => "1 line".to_string(),
                n => format!("{n} lines"),
            };
            writeln!(stdout, "env file   {}: the hook wrote {what} ({})", file.variable, file.read_back)?;
            for line in lines {
                writeln!(stdout, "           | {line}")?;
            }
        }
        for dropped in &run.dropped {
            writeln!(stdout, "dropped    {}: {}", dropped.field, dropped.reason)?;
        }
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
            _ if let Some(blocked) = &run.blocked => writeln!(
                stdout,
                "outcome    blocked: exit {} is {}'s blocking exit here, so the host blocks the call with the stderr above as its reason{}",
                blocked.exit,
                run.hook.host,
                if run.meant_block() { " (the hook's answer)" } else { " (the hook failed, and fails closed)" }
            )?,
            (Some(serde_json::Value::Null), _) => writeln!(stdout, "outcome    continue (no output)")?,
            (Some(outcome), _) => writeln!(stdout, "outcome    {outcome}")?,
            (None, Some(error)) => writeln!(stdout, "outcome    unreadable: {error}")?,
            (None, None) => {
                writeln!(stdout, "outcome    none: the hook failed, and the host would carry on as if it had not run")?
            }
        }
    }
    if run.succeeded() { Ok(()) } else { Err(Error::Failed(format!("hook {} failed", run.hook.name))) }
}
