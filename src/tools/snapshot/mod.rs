//! Golden snapshots of everything a host reads (D8 in docs/decisions.md): per bundle and target, the plugin
//! manifest, the hook document, the hook index, and the real wrappers' answers to recorded inputs.
//! `--check` compares and writes nothing; the default mode leaves `.snap.new` files for review
//! (never when `CI` is set); `accept`, `reject` and `review` settle them, insta-style.

mod compare;
mod render;
pub mod report;

use std::collections::BTreeSet;

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;
use serde_json::Value;

pub use compare::{summarise, unified_diff};
pub use render::{Answer, SnapshotData, parse, render, render_answer};

use crate::artifact::IndexRow;
use crate::driver::build_throwaway;
use crate::hosts;
use crate::io::Disk;
use crate::tools::simulate::{self, SimulateError};
use crate::vocabulary::target::Target;

pub const SNAPSHOT_EXTENSION: &str = "snap";
pub const PENDING_SUFFIX: &str = ".new";
pub const OBSOLETE_SUFFIX: &str = ".obsolete";

#[derive(Clone, Debug)]
pub struct SnapshotOptions {
    /// The folder holding `<plugin>/<target>.snap` and `<plugin>/inputs/`.
    pub snapshot_dir: Utf8PathBuf,
    /// Replace plugin versions with `[VERSION]`, so releases do not churn the snapshots.
    pub redact_versions: bool,
    /// Write `.snap.new` / `.snap.obsolete` files for what differs (off for `--check` and in CI).
    pub write_pending: bool,
    /// Report golden snapshots under the whole snapshot folder that no bundle produced (when every
    /// bundle of the project is being snapshotted).
    pub whole_project: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Unchanged,
    Changed,
    New,
    Obsolete,
}

#[derive(Clone, Debug, Serialize)]
pub struct SnapshotResult {
    /// The golden file.
    pub path: Utf8PathBuf,
    pub status: Status,
    /// What changed, one line each.
    pub summary: Vec<String>,
    /// The unified diff from the golden text to the new one (empty when unchanged).
    pub diff: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct BundleFailure {
    pub root: Utf8PathBuf,
    pub message: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct SnapshotReport {
    pub snapshots: Vec<SnapshotResult>,
    pub failures: Vec<BundleFailure>,
    /// Pending files that could not be written (or stale ones removed), each with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub write_errors: Vec<String>,
}

impl SnapshotReport {
    pub fn differences(&self) -> usize {
        self.snapshots.iter().filter(|s| s.status != Status::Unchanged).count()
    }

    pub fn is_clean(&self) -> bool {
        self.differences() == 0 && self.failures.is_empty() && self.write_errors.is_empty()
    }
}

/// Snapshots every bundle in `roots` and compares with the golden files.
pub fn take(roots: &[Utf8PathBuf], options: &SnapshotOptions, disk: &dyn Disk) -> SnapshotReport {
    let mut report = SnapshotReport::default();
    let mut produced: BTreeSet<Utf8PathBuf> = BTreeSet::new();
    let mut plugins: BTreeSet<String> = BTreeSet::new();
    for root in roots {
        match snapshot_bundle(root, options, disk) {
            Ok(snapshots) => {
                for (plugin, target, text) in snapshots {
                    plugins.insert(plugin.clone());
                    let path = options.snapshot_dir.join(&plugin).join(format!("{target}.{SNAPSHOT_EXTENSION}"));
                    produced.insert(path.clone());
                    report.snapshots.push(compare_with_golden(&path, &text, options, &mut report.write_errors));
                }
            }
            Err(message) => report.failures.push(BundleFailure { root: root.clone(), message }),
        }
    }
    // Golden files nothing produced any more.
    let scope: Vec<Utf8PathBuf> = if options.whole_project {
        disk.list_dir(&options.snapshot_dir)
            .unwrap_or_default()
            .into_iter()
            .map(|d| options.snapshot_dir.join(d))
            .collect()
    } else {
        plugins.iter().map(|p| options.snapshot_dir.join(p)).collect()
    };
    for dir in scope {
        for name in disk.list_dir(&dir).unwrap_or_default() {
            let path = dir.join(&name);
            if name.ends_with(&format!(".{SNAPSHOT_EXTENSION}")) && !produced.contains(&path) {
                let summary = vec![format!("{path} is not produced by any bundle any more")];
                if options.write_pending {
                    let obsolete = pending(&path, OBSOLETE_SUFFIX);
                    if let Err(error) = std::fs::write(&obsolete, "") {
                        report.write_errors.push(format!("cannot write {obsolete}: {error}"));
                    }
                }
                let old = std::fs::read_to_string(&path).unwrap_or_default();
                report.snapshots.push(SnapshotResult {
                    diff: unified_diff(&old, "", path.as_str()),
                    path,
                    status: Status::Obsolete,
                    summary,
                });
            }
        }
    }
    report.snapshots.sort_by(|a, b| a.path.cmp(&b.path));
    report
}

fn pending(path: &Utf8Path, suffix: &str) -> Utf8PathBuf {
    Utf8PathBuf::from(format!("{path}{suffix}"))
}

fn compare_with_golden(
    path: &Utf8Path,
    text: &str,
    options: &SnapshotOptions,
    write_errors: &mut Vec<String>,
) -> SnapshotResult {
    let golden = std::fs::read_to_string(path).ok();
    let new_file = pending(path, PENDING_SUFFIX);
    match golden {
        Some(old) if old == text => {
            if options.write_pending
                && let Err(error) = std::fs::remove_file(&new_file)
                && error.kind() != std::io::ErrorKind::NotFound
            {
                write_errors.push(format!("cannot remove the stale {new_file}: {error}"));
            }
            SnapshotResult { path: path.to_path_buf(), status: Status::Unchanged, summary: vec![], diff: String::new() }
        }
        golden => {
            let status = if golden.is_some() { Status::Changed } else { Status::New };
            let old = golden.unwrap_or_default();
            let summary = if status == Status::New {
                vec![format!("new snapshot of {}", path)]
            } else {
                let lines = summarise(&parse(&old), &parse(text));
                if lines.is_empty() { vec!["the text changed".to_string()] } else { lines }
            };
            if options.write_pending {
                let written = new_file
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|()| std::fs::write(&new_file, text));
                if let Err(error) = written {
                    write_errors.push(format!("cannot write {new_file}: {error}"));
                }
            }
            SnapshotResult { path: path.to_path_buf(), status, summary, diff: unified_diff(&old, text, path.as_str()) }
        }
    }
}

/// Builds one bundle into a temporary folder and renders a snapshot per target.
fn snapshot_bundle(
    root: &Utf8Path,
    options: &SnapshotOptions,
    disk: &dyn Disk,
) -> Result<Vec<(String, Target, String)>, String> {
    let built = build_throwaway(root, disk)?;
    let (artifact, report) = (&built.output, &built.report);
    if let Some(rendered) = report.rendered_errors() {
        return Err(format!("the bundle does not build:\n{rendered}"));
    }
    let manifest = report.manifest().cloned().ok_or("the build wrote no manifest")?;
    let isolated = simulate::IsolatedArtifact::copy(artifact, &manifest).map_err(|e| e.to_string())?;
    let canonical_root = disk.canonicalize(root).unwrap_or_else(|| root.to_path_buf());
    let canonical_artifact = disk.canonicalize(artifact).unwrap_or(artifact.clone());
    let inputs_dir = options.snapshot_dir.join(&manifest.plugin.name).join("inputs");
    let mut snapshots = Vec::new();
    for (target, host) in &manifest.hosts {
        let mut data =
            SnapshotData { plugin: manifest.plugin.name.clone(), target: target.to_string(), ..Default::default() };
        for path in [Some(&host.manifest), Some(&host.document), host.mcp_document.as_ref()].into_iter().flatten() {
            let text = disk.read_to_string(&artifact.join(path)).map_err(|e| format!("{path}: {e}"))?;
            let mut value: Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
            if options.redact_versions && value.get("version").is_some() {
                value["version"] = Value::String("[VERSION]".into());
            }
            data.documents.insert(path.clone(), value);
        }
        for path in &host.parts {
            let text = disk.read_to_string(&artifact.join(path)).map_err(|e| format!("{path}: {e}"))?;
            let ended = if text.ends_with('\n') { text } else { format!("{text}\n") };
            data.parts.insert(path.clone(), ended);
        }
        // A host another host's plugin serves (Kilo CLI) runs that plugin's hooks.
        let built = crate::hosts::table(*target).built_as();
        let hook_files = crate::hosts::layout::layout().host(built).map(|p| p.hook_files().collect::<Vec<_>>());
        for (native, path) in hook_files.into_iter().flatten() {
            let Ok(bytes) = disk.read(&artifact.join(&path)) else { continue };
            let digest = crate::vocabulary::digest::sha256_hex(&bytes);
            data.hook_files.insert(path, format!("runs {native}; sha256 {}", &digest[..16]));
        }
        for row in manifest.hooks.iter().filter(|row| row.host == built) {
            data.index.push(index_line(row));
            for (case, input) in recorded_inputs(&inputs_dir, row, disk) {
                data.answers.insert((row.name.clone(), case), answer(&isolated, row, input));
            }
        }
        let text = render(&data)
            .replace(canonical_artifact.as_str(), "[ARTIFACT]")
            .replace(artifact.as_str(), "[ARTIFACT]")
            .replace(canonical_root.as_str(), "[ROOT]");
        snapshots.push((manifest.plugin.name.clone(), *target, text));
    }
    Ok(snapshots)
}

fn index_line(row: &IndexRow) -> String {
    let matcher = row.matcher.as_deref().map(|m| format!("  matcher {m}")).unwrap_or_default();
    let timeout = row.timeout.map_or_else(|| "host default".to_string(), |t| format!("{t} s"));
    let policy = if row.fail_closed { "  fail-closed" } else { "" };
    let shared = row.shared_runtime.as_deref().map(|entry| format!("  shared runtime {entry}")).unwrap_or_default();
    // A hook of the host's hooks module is registered by the module (one `on` per index row, with
    // this matcher), not by the hook document.
    let module = if row.hooks_module { "  in the hooks module" } else { "" };
    // A prebuilt handler's program, which the host runs as it is.
    let prebuilt = if row.prebuilt { "  prebuilt" } else { "" };
    format!(
        "{}  {} -> {}{matcher}  timeout {timeout}{policy}{shared}{module}{prebuilt}  {}",
        row.name, row.event, row.native_event, row.path
    )
}

/// Recorded inputs for a hook: `inputs/<hook name>/*.json` and `inputs/<canonical event>/*.json`,
/// as (case name, input), sorted. Fields the host does not know are dropped (one input serves all
/// hosts of an event), and an event-wide tool input the hook's matcher would not let through (the
/// host would not run the hook) is left out.
pub fn recorded_inputs(inputs_dir: &Utf8Path, row: &IndexRow, disk: &dyn Disk) -> Vec<(String, Value)> {
    let table = hosts::table(row.host);
    let known: Vec<String> = match (&table.hooks, table.mapping_for(row.event, row.hooks_module)) {
        (Some(surface), Ok(mapping)) => surface.input_fields(mapping).filter_map(|f| f.canonical.clone()).collect(),
        _ => Vec::new(),
    };
    let mut cases = Vec::new();
    for folder in [row.name.as_str(), row.event.name()] {
        let dir = inputs_dir.join(folder);
        for name in disk.list_dir(&dir).unwrap_or_default() {
            let Some(case) = name.strip_suffix(".json") else { continue };
            let input = match disk.read_to_string(&dir.join(&name)).map(|t| serde_json::from_str::<Value>(&t)) {
                Ok(Ok(Value::Object(mut fields))) => {
                    fields.retain(|key, _| known.contains(key));
                    Value::Object(fields)
                }
                Ok(Ok(other)) => other,
                _ => Value::String(format!("unreadable input {dir}/{name}")),
            };
            let event_wide = folder == row.event.name();
            if event_wide && !matcher_admits(row, &input) {
                continue;
            }
            cases.push((format!("{folder}/{case}"), input));
        }
    }
    cases
}

/// Whether the host would run the hook for this input's `toolName` (no matcher, or no tool name:
/// yes).
fn matcher_admits(row: &IndexRow, input: &Value) -> bool {
    let (Some(matcher), Some(tool)) = (&row.matcher, input.get("toolName").and_then(Value::as_str)) else {
        return true;
    };
    regex::Regex::new(matcher).map_or(true, |regex| regex.is_match(tool))
}

/// A wrapper's answer to one recorded input, as the snapshot records it.
pub fn answer(artifact: &simulate::IsolatedArtifact, row: &IndexRow, input: Value) -> Answer {
    match simulate::simulate_row(artifact, row.clone(), &input, None) {
        Ok(run) => Answer {
            stdin: crate::vocabulary::json::compact(&run.envelope),
            exit: match (run.exit_code, run.timed_out) {
                (_, true) => "timed out".to_string(),
                (Some(code), false) => code.to_string(),
                (None, false) => "killed".to_string(),
            },
            stdout: run.stdout.trim_end().to_string(),
            stderr: (run.exit_code != Some(0)).then(|| run.stderr.trim_end().to_string()),
            wrote: run
                .place
                .env_file
                .as_ref()
                .filter(|file| !file.written.is_empty())
                .map(|file| format!("{}: {}", file.variable, serde_json::Value::String(file.written.clone()))),
        },
        Err(SimulateError::BadInput(message)) => Answer {
            stdin: input.to_string(),
            exit: "not run".to_string(),
            stdout: String::new(),
            stderr: Some(format!("the recorded input does not fit: {message}")),
            wrote: None,
        },
        Err(error) => Answer {
            stdin: input.to_string(),
            exit: "not run".to_string(),
            stdout: String::new(),
            stderr: Some(error.to_string()),
            wrote: None,
        },
    }
}

/// Pending files (`.snap.new`, `.snap.obsolete`) under the snapshot folder, sorted.
pub fn pending_files(snapshot_dir: &Utf8Path, disk: &dyn Disk) -> Vec<Utf8PathBuf> {
    let mut found: Vec<Utf8PathBuf> = disk
        .walk_files(snapshot_dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            p.ends_with(&format!(".{SNAPSHOT_EXTENSION}{PENDING_SUFFIX}"))
                || p.ends_with(&format!(".{SNAPSHOT_EXTENSION}{OBSOLETE_SUFFIX}"))
        })
        .map(|p| snapshot_dir.join(p))
        .collect();
    found.sort();
    found
}

/// The golden file a pending file is about.
pub fn golden_of(pending: &Utf8Path) -> Utf8PathBuf {
    let text = pending.as_str();
    Utf8PathBuf::from(text.strip_suffix(PENDING_SUFFIX).or_else(|| text.strip_suffix(OBSOLETE_SUFFIX)).unwrap_or(text))
}

/// Accepts one pending file: the new text becomes golden, or an obsolete golden file is deleted.
pub fn accept(pending: &Utf8Path) -> std::io::Result<()> {
    let golden = golden_of(pending);
    if pending.as_str().ends_with(OBSOLETE_SUFFIX) {
        let _ = std::fs::remove_file(&golden);
        std::fs::remove_file(pending)
    } else {
        std::fs::rename(pending, golden)
    }
}

/// Rejects one pending file: the golden file stays as it is.
pub fn reject(pending: &Utf8Path) -> std::io::Result<()> {
    std::fs::remove_file(pending)
}

/// What accepting a pending file would change, as a diff (for `review`).
pub fn pending_diff(pending: &Utf8Path) -> String {
    let golden = golden_of(pending);
    let old = std::fs::read_to_string(&golden).unwrap_or_default();
    let new = if pending.as_str().ends_with(OBSOLETE_SUFFIX) {
        String::new()
    } else {
        std::fs::read_to_string(pending).unwrap_or_default()
    };
    let mut text = String::new();
    if !old.is_empty() && !new.is_empty() {
        for line in summarise(&parse(&old), &parse(&new)) {
            text.push_str(&format!("  * {line}\n"));
        }
    }
    text.push_str(&unified_diff(&old, &new, golden.as_str()));
    text
}
