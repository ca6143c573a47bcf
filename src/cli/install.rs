//! `install`, `uninstall` and `doctor`: the command line over [`crate::tools::install`].

use std::io::Write;

use camino::Utf8PathBuf;
use clap::{Args, ValueEnum};

use super::{MessageFormat, parse_target, refusal};
use crate::cli::error::Error;
use crate::hosts::distribution::{self, Install};
use crate::tools::install::{self, Options, doctor};
use crate::vocabulary::target::Target;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scope {
    /// For every session of this user.
    User,
    /// For the project in the current folder (or `--project`), where the host has such a scope.
    Project,
}

/// What every one of the three commands is about: an artifact, a scope, and how to report.
#[derive(Debug, Args)]
pub struct Installed {
    /// The built artifact (for uninstall and doctor: where the plugin's name is read from, unless given).
    #[arg(long, default_value = "artifact")]
    pub artifact: Utf8PathBuf,
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// The project folder for `--scope project` [default: the current folder].
    #[arg(long)]
    pub project: Option<Utf8PathBuf>,
    /// Print the facts as one JSON document.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    #[command(flatten)]
    pub installed: Installed,
    /// Install for this host only (repeatable) [default: every host it is built for that can be
    /// installed for here].
    #[arg(long = "host", value_parser = parse_target)]
    pub hosts: Vec<Target>,
    /// Print what would be done, and do nothing.
    #[arg(long)]
    pub plan: bool,
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    /// The plugin's name [default: the name of the artifact at --artifact].
    pub plugin: Option<String>,
    #[command(flatten)]
    pub installed: Installed,
    /// Print what would be removed, and remove nothing.
    #[arg(long)]
    pub plan: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The plugin's name [default: the name of the artifact at --artifact].
    pub plugin: Option<String>,
    #[command(flatten)]
    pub installed: Installed,
}

fn options(installed: &Installed, hosts: &[Target]) -> Result<Options, Error> {
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty()).map(Utf8PathBuf::from);
    let home = home.ok_or_else(|| {
        Error::Failed("HOME is not set: install needs the home folder hosts load plugins from".into())
    })?;
    let (artifact, scope, project) = (&installed.artifact, installed.scope, installed.project.as_ref());
    let project = match project {
        Some(p) => p.clone(),
        None => Utf8PathBuf::from_path_buf(std::env::current_dir()?)
            .map_err(|p| Error::Failed(format!("{} is not UTF-8", p.display())))?,
    };
    let (scope, data) = match scope {
        Scope::User => ("user", install::default_data_dir(&home)),
        Scope::Project => ("project", project.join(".agent-bundle")),
    };
    let program_overrides = crate::vocabulary::target::Target::ALL
        .into_iter()
        .filter_map(|t| match distribution::distribution(t)?.install.supported().ok()? {
            Install::Program(p) => Some(p.program_variable.clone()),
            Install::Folder(f) => f.observe.as_ref().map(|o| o.program_variable.clone()),
        })
        .filter_map(|variable| {
            std::env::var(&variable).ok().filter(|v| !v.is_empty()).map(|v| (variable, Utf8PathBuf::from(v)))
        })
        .collect();
    Ok(Options {
        artifact: artifact.clone(),
        hosts: hosts.to_vec(),
        scope: scope.into(),
        home,
        data,
        project,
        path: std::env::var_os("PATH"),
        program_overrides,
    })
}

/// The plugin named on the command line, or the artifact's.
fn plugin_name(
    named: &Option<String>,
    artifact: &Utf8PathBuf,
    format: MessageFormat,
    stderr: &mut dyn Write,
) -> Result<String, Error> {
    if let Some(name) = named {
        return Ok(name.clone());
    }
    crate::driver::read_manifest(artifact, &crate::io::RealDisk).map(|m| m.plugin.name).ok_or_else(|| {
        let why = "no agent-bundle.manifest.json there (name the plugin instead)";
        refusal(&crate::diagnostic::messages::install_no_artifact(artifact, why), format, stderr)
    })
}

pub(super) fn run_install(
    args: &InstallArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let options = options(&args.installed, &args.hosts)?;
    let plan = install::plan_install(&options).map_err(|d| refusal(&d, format, stderr))?;
    if args.installed.json {
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&plan))?;
    } else {
        let verb = if args.plan { "Would install" } else { "Installing" };
        if plan.up_to_date {
            writeln!(
                stdout,
                "{} is installed from this artifact already ({} scope): nothing to do",
                plan.plugin, options.scope
            )?;
        } else {
            writeln!(stdout, "{verb} {} ({} scope):", plan.plugin, options.scope)?;
            for action in &plan.actions {
                writeln!(stdout, "  {}", action.shown())?;
            }
        }
        for (host, reason) in &plan.skipped {
            writeln!(stdout, "Not for {host}: {reason}")?;
        }
    }
    if args.plan {
        return Ok(());
    }
    let plugin = plan.plugin.clone();
    match install::apply_install(plan, &options).map_err(|d| refusal(&d, format, stderr))? {
        Some(receipt) if !args.installed.json => {
            let hosts: Vec<&str> = receipt.hosts.iter().map(|h| h.host.name()).collect();
            let path = install::receipt::receipt_path(&options.data, &plugin);
            writeln!(stdout, "Installed {plugin} for {}; receipt {path}", hosts.join(", "))?;
        }
        _ => {}
    }
    Ok(())
}

pub(super) fn run_uninstall(
    args: &UninstallArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let options = options(&args.installed, &[])?;
    let plugin = plugin_name(&args.plugin, &args.installed.artifact, format, stderr)?;
    let (receipt, actions) = install::plan_uninstall(&plugin, &options).map_err(|d| refusal(&d, format, stderr))?;
    if args.installed.json {
        writeln!(
            stdout,
            "{}",
            crate::vocabulary::json::pretty(&serde_json::json!({ "plugin": plugin, "actions": actions }))
        )?;
    } else {
        writeln!(
            stdout,
            "{} {plugin} ({} scope):",
            if args.plan { "Would uninstall" } else { "Uninstalling" },
            receipt.scope
        )?;
        for action in &actions {
            writeln!(stdout, "  {}", action.shown())?;
        }
    }
    if args.plan {
        return Ok(());
    }
    let (problems, left) = install::apply_uninstall(&receipt, &actions, &options);
    for note in &left {
        writeln!(stderr, "note: {note}")?;
    }
    let errors = problems.len();
    for problem in problems {
        refusal(&problem, format, stderr);
    }
    if errors > 0 {
        return Err(Error::Reported { errors });
    }
    if !args.installed.json {
        writeln!(stdout, "Uninstalled {plugin}")?;
    }
    Ok(())
}

pub(super) fn run_doctor(
    args: &DoctorArgs,
    format: MessageFormat,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let options = options(&args.installed, &[])?;
    let plugin = plugin_name(&args.plugin, &args.installed.artifact, format, stderr)?;
    let report = doctor::doctor(&plugin, &options).map_err(|d| refusal(&d, format, stderr))?;
    if args.installed.json {
        writeln!(stdout, "{}", crate::vocabulary::json::pretty(&report))?;
    } else {
        writeln!(stdout, "{plugin} (receipt {}):", report.receipt)?;
        if let Some(stale) = &report.stale {
            writeln!(stdout, "  stale: {stale}")?;
        }
        for host in &report.hosts {
            writeln!(stdout, "  {}:", host.host)?;
            for (stage, finding) in [
                ("placed", &host.placed),
                ("registered", &host.registered),
                ("enabled", &host.enabled),
                ("loaded", &host.loaded),
                ("on Windows", &host.windows),
            ] {
                match finding.detail().filter(|d| !d.is_empty()) {
                    Some(detail) => writeln!(stdout, "    {stage:<11} {} ({detail})", finding.word())?,
                    None => writeln!(stdout, "    {stage:<11} {}", finding.word())?,
                }
            }
            if !host.delivered_twice.is_empty() {
                writeln!(stdout, "    delivered twice: {} are all this plugin", host.delivered_twice.join(", "))?;
            }
        }
    }
    if report.has_problems() {
        return Err(Error::Failed(format!("{plugin}'s install has problems (above)")));
    }
    Ok(())
}
