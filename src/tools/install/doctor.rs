//! `doctor`: per host, how far an installed plugin got — placed, registered, enabled, loaded —
//! each observed (the files against the receipt, the host's own listing, the host's validator) or
//! "unavailable" with the reason; plus a stale install (the receipt's artifact hash is not the
//! artifact's any more), a plugin the host lists more than once (delivered twice), and an installed
//! hook document whose entries a host would run on Windows through a shell they have no form for
//! (D17: built by an older agent-bundle, or edited), or whose form the installed folder's path
//! breaks (an unquoted root holding a space).

use camino::Utf8Path;
use serde::Serialize;
use serde_json::Value;

use super::{Options, Receipt, file_intact, receipt, run_program};
use crate::hosts::distribution::{self, Install};
use crate::vocabulary::target::Target;

/// One stage's finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", content = "detail", rename_all = "camelCase")]
pub enum Stage {
    Yes,
    No(String),
    Unavailable(String),
}

impl Stage {
    pub fn word(&self) -> &'static str {
        match self {
            Stage::Yes => "yes",
            Stage::No(_) => "NO",
            Stage::Unavailable(_) => "unavailable",
        }
    }
    pub fn detail(&self) -> Option<&str> {
        match self {
            Stage::Yes => None,
            Stage::No(d) | Stage::Unavailable(d) => Some(d),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct HostReport {
    pub host: Target,
    pub placed: Stage,
    pub registered: Stage,
    pub enabled: Stage,
    pub loaded: Stage,
    /// Whether every entry of the installed hook document has the host's Windows form, holding
    /// nothing the shells the host uses there cannot parse, for the folder it was placed in.
    pub windows: Stage,
    /// Every listing entry that is this plugin, when there is more than one.
    pub delivered_twice: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub plugin: String,
    pub receipt: camino::Utf8PathBuf,
    /// The receipt's artifact hash differs from the artifact's (or the artifact is gone).
    pub stale: Option<String>,
    pub hosts: Vec<HostReport>,
}

impl Report {
    /// Something is wrong: stale, a stage that did not happen, or a plugin delivered twice.
    pub fn has_problems(&self) -> bool {
        self.stale.is_some()
            || self.hosts.iter().any(|h| {
                [&h.placed, &h.registered, &h.enabled, &h.loaded, &h.windows].iter().any(|s| matches!(s, Stage::No(_)))
                    || !h.delivered_twice.is_empty()
            })
    }
}

/// The entries of a host's JSON listing that are `plugin` (`plugin@marketplace` ids, or objects
/// named `plugin`), each with its `enabled` flag when the listing has one.
fn entries<'v>(listing: &'v Value, plugin: &str) -> Vec<(String, Option<bool>, &'v Value)> {
    let mut found = Vec::new();
    let mut pending = vec![listing];
    while let Some(value) = pending.pop() {
        match value {
            Value::Array(items) => pending.extend(items.iter()),
            Value::Object(map) => {
                let id = ["id", "pluginId", "name", "plugin"].iter().find_map(|k| map.get(*k).and_then(Value::as_str));
                let is_it = id.is_some_and(|id| id == plugin || id.split('@').next() == Some(plugin));
                if is_it {
                    let id = id.unwrap_or_default();
                    let marketplace =
                        ["marketplace", "marketplaceName"].iter().find_map(|k| map.get(*k).and_then(Value::as_str));
                    let source = marketplace.filter(|_| !id.contains('@')).map(|m| format!("{id}@{m}"));
                    found.push((
                        source.unwrap_or_else(|| id.to_string()),
                        map.get("enabled").and_then(Value::as_bool),
                        value,
                    ));
                } else {
                    pending.extend(map.values());
                }
            }
            _ => {}
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Examines the install of `plugin` recorded under `options.data`.
pub fn doctor(plugin: &str, options: &Options) -> Result<Report, crate::diagnostic::Diagnostic> {
    let receipt_path = receipt::receipt_path(&options.data, plugin);
    let receipt: Receipt = super::read_receipt(&receipt_path, plugin)?
        .ok_or_else(|| crate::diagnostic::messages::receipt_missing(plugin, &receipt_path))?;
    let stale = match super::artifact(&receipt.artifact) {
        Ok((_, hash)) if hash == receipt.artifact_hash => None,
        Ok(_) => Some(format!(
            "{} was rebuilt since it was installed: run `cargo agent-bundle install` again",
            receipt.artifact
        )),
        Err(_) => {
            Some(format!("{} is gone or no longer verifies: the installed copy is all that is left", receipt.artifact))
        }
    };
    let cwd = if receipt.scope == "project" { options.project.clone() } else { options.home.clone() };
    let mut hosts = Vec::new();
    for record in &receipt.hosts {
        let mine: Vec<_> = receipt.files.iter().filter(|f| f.path.starts_with(&record.placed)).collect();
        let broken = mine.iter().filter(|f| !file_intact(f)).count();
        let placed = if broken == 0 {
            Stage::Yes
        } else {
            Stage::No(format!("{broken} of {} files in {} are missing or changed", mine.len(), record.placed))
        };
        let mut report = HostReport {
            host: record.host,
            placed,
            registered: Stage::Unavailable(String::new()),
            enabled: Stage::Unavailable(String::new()),
            loaded: Stage::Unavailable(String::new()),
            windows: on_windows(record.host, &record.placed),
            delivered_twice: Vec::new(),
        };
        match distribution::distribution(record.host).and_then(|d| d.install.supported().ok()) {
            Some(Install::Program(install)) => {
                let program = record.program.clone().unwrap_or_default();
                let version = observe_listing(&mut report, &program, &install.list, plugin, &receipt.marketplace, &cwd);
                report.loaded = match &install.validate {
                    Some(validate) => validated(&program, validate, &record.placed, &cwd),
                    None => version_read(record.host, version, receipt.version.as_deref()),
                };
            }
            Some(Install::Folder(folder)) => {
                let program =
                    folder.observe.as_ref().and_then(|o| super::find_named(&o.program, &o.program_variable, options));
                match (folder.observe.as_ref(), program) {
                    (Some(observe), Some(program)) => {
                        let version = receipt.version.as_deref();
                        observe_text_listing(&mut report, &program, &observe.list, plugin, version, &cwd);
                    }
                    (observe, _) => {
                        // Without the host's program: the host loads every extension folder it finds.
                        // The extension's manifest, where the host tables' layout puts it in the folder.
                        let layout = crate::hosts::layout::layout().host(record.host);
                        let inside =
                            layout.map(|paths| paths.manifest.trim_start_matches(&format!("{}/", folder.from)));
                        let manifest = record.placed.join(inside.unwrap_or_default());
                        report.registered =
                            if manifest.is_file() { Stage::Yes } else { Stage::No(format!("{manifest} is missing")) };
                        let why = match observe {
                            Some(o) => {
                                format!("`{}` is not on PATH (set {} to name it)", o.program, o.program_variable)
                            }
                            None => format!("{} has no listing agent-bundle reads", record.host),
                        };
                        report.enabled = Stage::Unavailable(why.clone());
                        report.loaded = Stage::Unavailable(why);
                    }
                }
            }
            None => {}
        }
        hosts.push(report);
    }
    Ok(Report { plugin: plugin.to_string(), receipt: receipt_path, stale, hosts })
}

/// Whether the installed hook document of `host` in `placed` runs on Windows: each entry that would
/// not, named with why.
fn on_windows(host: Target, placed: &Utf8Path) -> Stage {
    let Some(paths) = crate::hosts::layout::layout().host(host) else {
        return Stage::Unavailable(format!("{host} has no hook document"));
    };
    // A host with a folder of its own is placed from that folder: its document is inside it.
    let inside = paths.folder.map_or(paths.document, |folder| {
        paths.document.strip_prefix(folder).and_then(|p| p.strip_prefix('/')).unwrap_or(paths.document)
    });
    let path = placed.join(inside);
    let document = match fs_err::read_to_string(&path).map(|text| serde_json::from_str::<Value>(&text)) {
        Ok(Ok(document)) => document,
        Ok(Err(e)) => return Stage::No(format!("{path} is not JSON: {e}")),
        Err(_) if !placed.exists() => return Stage::Unavailable(format!("{placed} is gone")),
        Err(e) => return Stage::No(format!("{path} cannot be read: {e}")),
    };
    let problems = crate::tools::windows::document_problems(host, &document, Some(placed.as_str()));
    match problems.as_slice() {
        [] => Stage::Yes,
        [one] => Stage::No(format!("on Windows this entry would not run: {one}; rebuild it with this agent-bundle")),
        [first, ..] => Stage::No(format!(
            "on Windows {} entries would not run, the first: {first}; rebuild it with this agent-bundle",
            problems.len()
        )),
    }
}

/// Fills registered and enabled from the host's JSON listing; the version the host lists for the
/// plugin (read from its installed manifest), when it lists one.
fn observe_listing(
    report: &mut HostReport,
    program: &Utf8Path,
    list: &[String],
    plugin: &str,
    marketplace: &str,
    cwd: &Utf8Path,
) -> Option<String> {
    let shown = format!("{program} {}", list.join(" "));
    let listing = match run_program(program, list, cwd) {
        Ok((Some(0), stdout, _)) => {
            serde_json::from_str::<Value>(&stdout).map_err(|e| format!("`{shown}` printed no JSON: {e}"))
        }
        Ok((code, stdout, stderr)) => Err(format!("`{shown}` exited {code:?}: {}", format!("{stdout}{stderr}").trim())),
        Err(e) => Err(format!("`{shown}` could not run: {e}")),
    };
    let listing = match listing {
        Ok(listing) => listing,
        Err(why) => {
            report.registered = Stage::Unavailable(why.clone());
            report.enabled = Stage::Unavailable(why);
            return None;
        }
    };
    let found = entries(&listing, plugin);
    let ours = found.iter().find(|(id, _, _)| *id == format!("{plugin}@{marketplace}")).or(found.first());
    match ours {
        None => {
            report.registered = Stage::No(format!("`{shown}` does not list {plugin}@{marketplace}"));
            report.enabled = Stage::No("not registered".into());
        }
        Some((_, enabled, _)) => {
            report.registered = Stage::Yes;
            report.enabled = match enabled {
                Some(true) => Stage::Yes,
                Some(false) => Stage::No(format!("listed but disabled (`{shown}`)")),
                None => Stage::Unavailable(format!("`{shown}` does not say whether it is enabled")),
            };
        }
    }
    if found.len() > 1 {
        report.delivered_twice = found.iter().map(|(id, _, _)| id.clone()).collect();
    }
    ours.and_then(|(_, _, entry)| entry.get("version").and_then(Value::as_str).map(str::to_string))
}

/// Loaded, as a listing shows it: the host lists the version it read from the installed manifest.
fn version_read(host: Target, listed: Option<String>, installed: Option<&str>) -> Stage {
    match (listed, installed) {
        (Some(listed), Some(installed)) if listed == installed => Stage::Yes,
        (Some(listed), Some(installed)) => {
            Stage::No(format!("{host} lists version {listed}, the installed manifest says {installed}"))
        }
        (None, _) => Stage::Unavailable(format!("{host}'s listing shows no version read from the plugin")),
        (Some(_), None) => Stage::Unavailable("the plugin declares no version to compare".into()),
    }
}

/// Registered, enabled and loaded from a host's text listing of the extensions it loaded
/// (`✓ <name> (<version>)`, then `Enabled (User): true|false`).
fn observe_text_listing(
    report: &mut HostReport,
    program: &Utf8Path,
    list: &[String],
    plugin: &str,
    version: Option<&str>,
    cwd: &Utf8Path,
) {
    let shown = format!("{program} {}", list.join(" "));
    let text = match run_program(program, list, cwd) {
        Ok((Some(0), stdout, stderr)) => format!("{stdout}{stderr}"),
        Ok((code, stdout, stderr)) => {
            let why = format!("`{shown}` exited {code:?}: {}", format!("{stdout}{stderr}").trim());
            report.registered = Stage::Unavailable(why.clone());
            report.enabled = Stage::Unavailable(why.clone());
            report.loaded = Stage::Unavailable(why);
            return;
        }
        Err(e) => {
            let why = format!("`{shown}` could not run: {e}");
            report.registered = Stage::Unavailable(why.clone());
            report.enabled = Stage::Unavailable(why.clone());
            report.loaded = Stage::Unavailable(why);
            return;
        }
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let heading = format!("{plugin} (");
    let named = |line: &str| line.trim_start_matches(|c: char| !c.is_ascii_alphanumeric()).starts_with(&heading);
    let Some(at) = lines.iter().position(|line| named(line)) else {
        report.registered = Stage::No(format!("`{shown}` does not list {plugin}"));
        report.enabled = Stage::No("not listed".into());
        report.loaded = Stage::No("not listed".into());
        return;
    };
    report.registered = Stage::Yes;
    let listed = lines[at].rsplit_once('(').and_then(|(_, v)| v.strip_suffix(')')).map(str::to_string);
    report.loaded = version_read(report.host, listed, version);
    // Its own lines run to the next extension's heading.
    let end = lines[at + 1..]
        .iter()
        .position(|l| l.starts_with('✓') || l.starts_with('✗'))
        .map_or(lines.len(), |n| at + 1 + n);
    report.enabled = match lines[at + 1..end].iter().find_map(|l| l.strip_prefix("Enabled (User):")) {
        Some(v) if v.trim() == "true" => Stage::Yes,
        Some(_) => Stage::No(format!("`{shown}` shows it disabled for the user")),
        None => Stage::Unavailable(format!("`{shown}` does not say whether it is enabled")),
    };
}

/// The host's own validator (its command from the table) on the folder it loads the plugin from.
fn validated(program: &Utf8Path, validate: &[String], placed: &Utf8Path, cwd: &Utf8Path) -> Stage {
    let args: Vec<String> = validate.iter().map(|a| a.replace("{placed}", placed.as_str())).collect();
    let shown = format!("{program} {}", args.join(" "));
    match run_program(program, &args, cwd) {
        Ok((Some(0), _, _)) => Stage::Yes,
        Ok((code, stdout, stderr)) => {
            Stage::No(format!("`{shown}` exited {code:?}: {}", format!("{stdout}{stderr}").trim()))
        }
        Err(e) => Stage::Unavailable(format!("`{shown}` could not run: {e}")),
    }
}
