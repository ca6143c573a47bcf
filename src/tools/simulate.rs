//! `hooks simulate`: encode a canonical input into the host's native envelope (from the same host
//! table the wrapper bakes in), run the real emitted wrapper exactly as the host would (the command
//! of the host's hook document, through the host's shell, which hands the wrapper its answer channel),
//! and decode its answer back into the canonical result.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::artifact::{ArtifactError, ArtifactManifest, IndexRow, MANIFEST_PATH, read_verified};
use crate::hosts::{self, CommandShell, Decode, answer};
use crate::io::Disk;
use crate::vocabulary::canonical::ResultPart;
use crate::vocabulary::target::Target;

/// After TERM, how long the wrapper gets before KILL.
const KILL_GRACE: Duration = Duration::from_millis(250);
/// Most bytes kept of each output stream.
const OUTPUT_CAP: usize = 1_000_000;

pub struct SimulateRequest {
    pub artifact: Utf8PathBuf,
    pub target: Target,
    /// A hook name or id, exactly as `hooks list` prints it.
    pub hook: String,
    pub input: SimulateInput,
    pub timeout: Option<Duration>,
}

/// What a simulation feeds the wrapper.
pub enum SimulateInput {
    /// A canonical (camelCase) input object, encoded into the host's envelope from its table. The
    /// same input works for every host: fields a host does not send are left out.
    Canonical(Value),
    /// A native envelope as a host sent it (a captured receipt), written to stdin as given.
    Native(Value),
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Simulation {
    pub hook: IndexRow,
    /// The native envelope written to the wrapper's stdin.
    pub envelope: Value,
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    /// The run was stopped on request (the Workbench's Cancel) before the wrapper answered.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    pub stdout: String,
    pub stderr: String,
    /// The canonical result decoded from stdout (`null`: continue with nothing to say), when the
    /// wrapper succeeded.
    pub outcome: Option<Value>,
    /// Why stdout could not be decoded, when the wrapper exited 0 with something unreadable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_error: Option<String>,
    /// The wrapper exited with the host's blocking exit for this event: the host blocks the call
    /// (a fail-closed failure, or a guard part the host cannot carry), with this reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<Blocked>,
    #[serde(rename = "wallTimeMs")]
    pub wall_time_ms: u128,
    /// Why this run may differ from what the host would do (other host tables than the binary's, an
    /// old field name read as its canonical one).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Canonical fields of the input the hook does not get on this host, each with why: a run that
    /// goes on without them says so, never silently.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<Dropped>,
}

/// A canonical input field a simulation could not hand the hook.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dropped {
    pub field: String,
    pub reason: String,
}

/// A canonical input encoded for one host: the envelope, and what of the input it leaves out or read
/// under another name.
#[derive(Debug)]
pub struct Encoded {
    pub envelope: Value,
    pub dropped: Vec<Dropped>,
    pub warnings: Vec<String>,
}

/// How the host blocks the call when the wrapper exits with its blocking code.
#[derive(Debug, Serialize)]
pub struct Blocked {
    pub exit: i32,
    /// What the host takes as the reason: the wrapper's stderr.
    pub reason: String,
}

impl Simulation {
    /// The wrapper answered: exit 0, in time, with a decodable answer.
    pub fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out && self.decode_error.is_none()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SimulateError {
    #[error(transparent)]
    Artifact(#[from] ArtifactError),
    #[error("{0}")]
    NoSuchHook(String),
    #[error("{0}")]
    BadInput(String),
    /// The host would never run this hook for this input (its matcher or event does not admit it).
    #[error("{0}")]
    NotAdmitted(String),
    #[error("cannot run `node`: {0}; hooks run under Node.js 18 or newer, which must be on PATH")]
    Node(std::io::Error),
    #[error("cannot run `{0}`, the shell that runs the host's hook commands: {1}")]
    Shell(&'static str, std::io::Error),
    #[error("cannot copy the artifact away from the source tree to run it: {0}")]
    Isolation(String),
}

/// An artifact as a host has it once the plugin is installed: a copy in a fresh temporary folder
/// with no `node_modules` above it, so that a simulation can never pass thanks to packages the
/// source tree happens to have installed. Only the files the manifest records are copied, with
/// their recorded modes (links as links).
pub struct IsolatedArtifact {
    _temp: tempfile::TempDir,
    root: Utf8PathBuf,
    /// The artifact as the user named it, shown instead of the temporary copy in output.
    original: Utf8PathBuf,
}

impl IsolatedArtifact {
    pub fn copy(artifact: &Utf8Path, manifest: &ArtifactManifest) -> Result<IsolatedArtifact, SimulateError> {
        let failed = |e: &dyn std::fmt::Display| SimulateError::Isolation(e.to_string());
        let temp = tempfile::Builder::new().prefix("agent-bundle-simulate-").tempdir().map_err(|e| failed(&e))?;
        let root = Utf8PathBuf::from_path_buf(temp.path().join("plugin")).map_err(|_| failed(&"non-UTF-8 path"))?;
        if let Some(above) = root.ancestors().skip(1).find(|dir| dir.join("node_modules").exists()) {
            return Err(failed(&format!(
                "`{above}/node_modules` exists above the temporary folder, and Node would find packages there; set TMPDIR to a folder with no node_modules above it"
            )));
        }
        let records = manifest.files.iter().map(|f| (f.path.as_str(), f.kind(), f.symlink.as_deref()));
        let generated = crate::io::FileKind::Regular { mode: crate::io::GENERATED_MODE };
        for (path, kind, link) in records.chain([(MANIFEST_PATH, generated, None)]) {
            let target = root.join(path);
            if let Some(dir) = target.parent() {
                fs_err::create_dir_all(dir).map_err(|e| failed(&e))?;
            }
            match (kind, link) {
                (crate::io::FileKind::Regular { mode }, _) => {
                    use std::os::unix::fs::PermissionsExt;
                    fs_err::copy(artifact.join(path), &target).map_err(|e| failed(&e))?;
                    fs_err::set_permissions(&target, std::fs::Permissions::from_mode(mode)).map_err(|e| failed(&e))?;
                }
                (crate::io::FileKind::Symlink, link) => {
                    fs_err::os::unix::fs::symlink(link.unwrap_or_default(), &target).map_err(|e| failed(&e))?;
                }
            }
        }
        Ok(IsolatedArtifact { _temp: temp, root, original: artifact.to_path_buf() })
    }

    /// Where the copy is.
    pub fn root(&self) -> &Utf8Path {
        &self.root
    }

    /// Output of a wrapper with the copy's path shown as the artifact's own.
    fn shown(&self, text: String) -> String {
        text.replace(self.root.as_str(), self.original.as_str())
    }
}

pub fn simulate(request: &SimulateRequest, disk: &dyn Disk) -> Result<Simulation, SimulateError> {
    simulate_cancellable(request, disk, &AtomicBool::new(false))
}

/// [`simulate`], stopped (TERM to the wrapper's process group, then KILL) as soon as `cancel` is set.
pub fn simulate_cancellable(
    request: &SimulateRequest,
    disk: &dyn Disk,
    cancel: &AtomicBool,
) -> Result<Simulation, SimulateError> {
    let manifest = read_verified(&request.artifact, disk)?;
    let row = find_row(&manifest.hooks, request.target, &request.hook)?;
    let encoded = match &request.input {
        SimulateInput::Canonical(input) => encode_noting(&row, input)?,
        SimulateInput::Native(envelope) => {
            Encoded { envelope: envelope.clone(), dropped: Vec::new(), warnings: Vec::new() }
        }
    };
    admitted(&row, &encoded.envelope)?;
    let isolated = IsolatedArtifact::copy(&request.artifact, &manifest)?;
    let mut run = run_envelope(&isolated, row, encoded.envelope, request.timeout, Some(cancel))?;
    run.dropped = encoded.dropped;
    run.warnings = encoded.warnings;
    let built_with = manifest.hosts.get(&request.target).map(|h| h.table_digest.as_str());
    if built_with != Some(hosts::table_digest(request.target).as_str()) {
        run.warnings.push(format!(
            "this artifact was built with another {} host table than this agent-bundle's ({}); the simulation decodes with this binary's table, so rebuild the artifact for a faithful run",
            request.target,
            manifest.generator
        ));
    }
    Ok(run)
}

/// Refuses an envelope the host would never hand this hook: another event, or a tool its matcher
/// does not admit.
pub fn admitted(row: &IndexRow, envelope: &Value) -> Result<(), SimulateError> {
    let Value::Object(fields) = envelope else {
        return Err(SimulateError::BadInput(format!("a native envelope must be a JSON object, got {envelope}")));
    };
    let name_key = hosts::table(row.host).hooks.as_ref().and_then(|s| s.event_name_key.as_deref());
    if let Some(event) = name_key.and_then(|key| fields.get(key)).and_then(Value::as_str)
        && event != row.native_event
    {
        return Err(SimulateError::NotAdmitted(format!(
            "{} runs `{}` on {}, not on {event}: the host would not run it for this envelope",
            row.host, row.name, row.native_event
        )));
    }
    let Some(matcher) = &row.matcher else { return Ok(()) };
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref().expect("indexed hosts have hooks");
    let mapping =
        table.mapping_for(row.event, row.hooks_module).map_err(|reason| SimulateError::BadInput(reason.to_string()))?;
    // What the host's matcher compares: the session's source on sessionStart, else the tool name.
    let (key, what) = match mapping.source_matcher.as_ref().and_then(|m| m.supported().ok()) {
        Some(source) => (Some(&source.field), "source"),
        None => {
            (surface.input_fields(mapping).find(|f| f.canonical.as_deref() == Some("toolName")).map(|f| &f.key), "tool")
        }
    };
    let Some(value) = key.and_then(|key| fields.get(key)).and_then(Value::as_str) else { return Ok(()) };
    let regex = regex::Regex::new(matcher).map_err(|e| SimulateError::BadInput(format!("matcher {matcher}: {e}")))?;
    if regex.is_match(value) {
        return Ok(());
    }
    Err(SimulateError::NotAdmitted(format!(
        "{}'s matcher {matcher} for `{}` does not admit the {what} `{value}`: the host would not run this hook for it",
        row.host, row.name
    )))
}

/// Runs the wrapper of one index row of an isolated artifact, with a canonical input.
pub fn simulate_row(
    artifact: &IsolatedArtifact,
    row: IndexRow,
    input: &Value,
    timeout: Option<Duration>,
) -> Result<Simulation, SimulateError> {
    let encoded = encode_noting(&row, input)?;
    let mut run = run_envelope(artifact, row, encoded.envelope, timeout, None)?;
    run.dropped = encoded.dropped;
    run.warnings = encoded.warnings;
    Ok(run)
}

fn run_envelope(
    artifact: &IsolatedArtifact,
    row: IndexRow,
    envelope: Value,
    timeout: Option<Duration>,
    cancel: Option<&AtomicBool>,
) -> Result<Simulation, SimulateError> {
    // The host's own limit for this hook, the same value its document and wrapper use.
    let timeout = timeout.unwrap_or(Duration::from_secs(u64::from(row.effective_timeout)));
    let mut run = run_wrapper(artifact.root(), &row, &envelope, timeout, cancel)?;
    run.stdout = artifact.shown(run.stdout);
    run.stderr = artifact.shown(run.stderr);
    let (outcome, decode_error) = if run.exit_code == Some(0) && !run.timed_out && !run.cancelled {
        match decode_answer(&row, &run.stdout) {
            Ok(outcome) => (Some(outcome), None),
            Err(error) => (None, Some(error)),
        }
    } else {
        (None, None)
    };
    // The same blocking exit the host table records for this event, and so the wrapper's contract.
    let blocking_exit = hosts::table(row.host)
        .mapping_for(row.event, row.hooks_module)
        .ok()
        .and_then(|m| m.fail_closed.as_ref())
        .map(|f| f.exit);
    let blocked = match (run.exit_code, blocking_exit, run.timed_out || run.cancelled) {
        (Some(code), Some(exit), false) if code == exit && code != 0 => {
            Some(Blocked { exit, reason: run.stderr.trim().to_string() })
        }
        _ => None,
    };
    Ok(Simulation {
        hook: row,
        envelope,
        exit_code: run.exit_code,
        timed_out: run.timed_out,
        cancelled: run.cancelled,
        stdout: run.stdout,
        stderr: run.stderr,
        outcome,
        decode_error,
        blocked,
        wall_time_ms: run.wall_time.as_millis(),
        warnings: Vec::new(),
        dropped: Vec::new(),
    })
}

fn find_row(rows: &[IndexRow], target: Target, hook: &str) -> Result<IndexRow, SimulateError> {
    if let Some(row) = rows.iter().find(|r| r.host == target && (r.name == hook || r.id == hook)) {
        return Ok(row.clone());
    }
    let names: Vec<&str> = rows.iter().filter(|r| r.host == target).map(|r| r.name.as_str()).collect();
    let elsewhere: Vec<String> =
        rows.iter().filter(|r| r.name == hook || r.id == hook).map(|r| r.host.to_string()).collect();
    let mut message = format!("no hook named `{hook}` for {target}");
    if !elsewhere.is_empty() {
        message.push_str(&format!(" (it exists for {})", elsewhere.join(", ")));
    }
    if names.is_empty() {
        message.push_str(&format!("; the artifact has no simulatable hooks for {target}"));
    } else {
        message.push_str(&format!(
            "; use the exact name or id that `hooks list` prints: {}",
            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    Err(SimulateError::NoSuchHook(message))
}

/// The native envelope for a canonical input, written as the host would write it.
pub fn encode(row: &IndexRow, input: &Value) -> Result<Value, SimulateError> {
    encode_noting(row, input).map(|encoded| encoded.envelope)
}

/// [`encode`], saying which fields of the input the hook will not get on this host, and why, and
/// which it read under their canonical name.
pub fn encode_noting(row: &IndexRow, input: &Value) -> Result<Encoded, SimulateError> {
    let Value::Object(given) = input else {
        return Err(SimulateError::BadInput(format!("--input must be a JSON object of canonical fields, got {input}")));
    };
    let mut input = given.clone();
    let mut warnings = Vec::new();
    for (old, canonical) in crate::vocabulary::canonical::PAYLOAD_ALIASES {
        let Some(value) = input.remove(*old) else { continue };
        if let Some(also) = input.get(*canonical)
            && also != &value
        {
            return Err(SimulateError::BadInput(format!(
                "`{old}` ({value}) and `{canonical}` ({also}) disagree: `{old}` is the old name of `{canonical}`; give `{canonical}` only"
            )));
        }
        warnings.push(format!(
            "`{old}` is the old name of `{canonical}` and was read as `{canonical}`; the old name goes in the next release"
        ));
        input.insert((*canonical).to_string(), value);
    }
    let input = &input;
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref().expect("indexed hosts have hooks");
    let mapping =
        table.mapping_for(row.event, row.hooks_module).map_err(|reason| SimulateError::BadInput(reason.to_string()))?;
    let name_key = surface.event_name_key.as_deref();
    let fields: Vec<_> = surface.input_fields(mapping).filter(|f| Some(f.key.as_str()) != name_key).collect();
    // A canonical field that some host sends on this event is fine on every host: where this host
    // does not send it, the handler simply does not get it. Only a field no host knows is a mistake.
    let known_anywhere = canonical_fields(row.event);
    if let Some(unknown) = input.keys().find(|k| !known_anywhere.contains(k.as_str()) && k.as_str() != "hookEventName")
    {
        let known: Vec<String> = known_anywhere.iter().map(|k| format!("`{k}`")).collect();
        let hint = crate::vocabulary::suggest::did_you_mean(unknown, known_anywhere.iter().map(String::as_str))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        return Err(SimulateError::BadInput(format!(
            "`{unknown}` is not a canonical field of {} on any host{hint}; it takes {}",
            row.event,
            known.join(", ")
        )));
    }
    let mut envelope = Map::new();
    let mut missing = Vec::new();
    for field in &fields {
        let given = field.canonical.as_deref().and_then(|c| input.get(c));
        let value = match (given, field.decode) {
            (Some(Value::Bool(active)), Some(Decode::Positive)) => Value::from(u8::from(*active)),
            (Some(other), Some(Decode::Positive)) => {
                return Err(SimulateError::BadInput(format!(
                    "`{}` must be a boolean, got {other}",
                    field.canonical.as_deref().unwrap_or(&field.key)
                )));
            }
            (Some(value), Some(Decode::Json)) => Value::String(crate::vocabulary::json::compact(value)),
            (Some(value), _) => value.clone(),
            (None, _) => match &field.simulate {
                Some(default) => default.clone(),
                None => {
                    if field.required {
                        missing.push(field.canonical.clone().unwrap_or_else(|| field.key.clone()));
                    }
                    continue;
                }
            },
        };
        envelope.insert(field.key.clone(), value);
    }
    if !missing.is_empty() {
        let needed: Vec<String> =
            fields.iter().filter(|f| f.required && f.simulate.is_none()).filter_map(|f| f.canonical.clone()).collect();
        return Err(SimulateError::BadInput(format!(
            "a {} {} simulation needs {}; missing: {}",
            row.host,
            row.event,
            needed.join(", "),
            missing.join(", ")
        )));
    }
    if let Some(key) = name_key {
        envelope.insert(key.into(), Value::String(row.native_event.clone()));
    }
    let family = row.event.route();
    let dropped = input
        .keys()
        .filter(|key| key.as_str() != "hookEventName")
        .filter_map(|key| {
            let sent = fields.iter().any(|f| f.canonical.as_deref() == Some(key.as_str()));
            let reason = if !sent {
                format!(
                    "{} {} does not send it on {}: its envelope has no field for `{key}`, so the hook does not get it",
                    table.host, table.host_version, row.native_event
                )
            } else if let Some(family) = family.filter(|f| !f.payload.contains(&key.as_str())) {
                format!("it is not a payload field of the {} family; the route reads it from `native`", family.name)
            } else {
                return None;
            };
            Some(Dropped { field: key.clone(), reason })
        })
        .collect();
    // Keys sorted, as every JSON agent-bundle writes, whatever order the map keeps them in.
    Ok(Encoded { envelope: crate::vocabulary::json::sorted(&Value::Object(envelope)), dropped, warnings })
}

/// Every canonical payload key any host sends on `event`.
fn canonical_fields(event: crate::vocabulary::hook_event::HookEvent) -> std::collections::BTreeSet<String> {
    hosts::tables()
        .iter()
        .filter_map(|table| Some((table.hooks.as_ref()?, table.mapping(event).ok()?)))
        .flat_map(|(surface, mapping)| surface.input_fields(mapping).filter_map(|f| f.canonical.clone()))
        .collect()
}

/// The canonical result a host-native answer stands for (`null` for no answer): the answer read
/// back through the same field writes the wrapper's runtime made it with
/// ([`hosts::answer::writes`]).
pub fn decode_answer(row: &IndexRow, stdout: &str) -> Result<Value, String> {
    if stdout.trim().is_empty() {
        return Ok(Value::Null);
    }
    let answer: Value = serde_json::from_str(stdout).map_err(|e| format!("stdout is not JSON: {e}"))?;
    if !answer.is_object() {
        return Err("stdout is not a JSON object".into());
    }
    let table = hosts::table(row.host);
    let channels = &table.mapping_for(row.event, row.hooks_module).map_err(str::to_string)?.result;
    let read = |part: ResultPart| answer::read(&answer, &answer::writes(channels, part));
    let mut result = Map::new();
    if let Some(Some(context)) = read(ResultPart::AdditionalContext) {
        result.insert("additionalContext".into(), context);
    }
    let rewrite = read(ResultPart::UpdatedInput);
    if let Some(Some(updated)) = &rewrite {
        result.insert("updatedInput".into(), updated.clone());
    }
    // A decision the rewrite itself writes (the one a host needs to apply it) stands for `continue`,
    // since that is what the wrapper writes for a plain rewrite.
    let implied = |decision: &str| {
        rewrite.is_some()
            && answer::writes(channels, ResultPart::UpdatedInput)
                .iter()
                .any(|w| w.if_absent && w.value.as_ref().is_some_and(|v| v == decision))
    };
    if let Some(reason) = read(ResultPart::Deny) {
        result.insert("outcome".into(), "deny".into());
        result.insert("reason".into(), reason.unwrap_or(Value::Null));
    } else if read(ResultPart::Ask).is_some() && !implied("ask") {
        result.insert("outcome".into(), "ask".into());
    } else if read(ResultPart::Allow).is_some() && !implied("allow") {
        result.insert("outcome".into(), "allow".into());
    } else {
        result.insert("outcome".into(), "continue".into());
    }
    Ok(Value::Object(result))
}

struct Run {
    exit_code: Option<i32>,
    timed_out: bool,
    cancelled: bool,
    stdout: String,
    stderr: String,
    wall_time: Duration,
}

/// The artifact's MCP server, started as the host starts it for a session, with a runtime folder of
/// its own; stopped (stdin closed, then killed) when dropped.
struct SharedServer {
    child: std::process::Child,
    runtime_dir: camino::Utf8PathBuf,
}

impl SharedServer {
    fn start(artifact: &Utf8Path, entry: &str) -> Result<SharedServer, SimulateError> {
        let runtime_dir = artifact.parent().unwrap_or(artifact).join("shared-runtime");
        let child = Command::new("node")
            .arg(artifact.join(entry))
            .current_dir(artifact)
            .env("AGENT_BUNDLE_RUNTIME_DIR", &runtime_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(SimulateError::Node)?;
        let server = SharedServer { child, runtime_dir };
        let started = Instant::now();
        while !server.listening() {
            if started.elapsed() > Duration::from_secs(10) {
                return Err(SimulateError::BadInput(format!(
                    "the plugin's MCP server ({entry}) did not open its socket"
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(server)
    }

    fn listening(&self) -> bool {
        std::fs::read_dir(&self.runtime_dir)
            .map(|entries| entries.flatten().any(|e| e.path().extension().is_some_and(|x| x == "sock")))
            .unwrap_or(false)
    }
}

impl Drop for SharedServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The process the host starts for the hook of `row`: what the host's document in the artifact holds
/// for the hook's wrapper, with the variable of the host's root token set to the installed plugin's
/// folder (hosts substitute the token in the text; a shell expands the same value), in the artifact's
/// folder: an exec form's program started with its arguments (the token substituted in each, as the
/// host does), else the command line run by the host's POSIX shell (`bash -c`; `sh -c` where the
/// host's shell need not be a POSIX one, whose command runs `sh` itself). Its stdio is left to the
/// caller.
pub fn host_command(artifact: &Utf8Path, row: &IndexRow) -> Result<Command, SimulateError> {
    let surface = hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks");
    let (root, file) = plugin_folder(artifact, row);
    if row.hooks_module {
        // A hook of the host's hooks module: the module imports its wrapper (the document names the
        // module, not the hook), so node stands for the host's worker on that wrapper, as below.
        let runtime = root.join(crate::hosts::layout::RUNTIME_PATH);
        return Ok(in_process_command(artifact, &runtime, &root.join(file)));
    }
    let in_process = surface.in_process();
    let entry = written_entry(artifact, row)?;
    if in_process {
        // The host's process is stood for by node running the entry module's decision for the
        // document's wrapper module: the runtime the entry module imports, on the envelope the entry
        // module would have made of the host's hook arguments.
        let runtime = root.join(crate::hosts::layout::RUNTIME_PATH);
        return Ok(in_process_command(artifact, &runtime, &root.join(entry.command.command.trim_start_matches("./"))));
    }
    let variable = surface.root_token.trim_start_matches("${").trim_end_matches('}');
    let mut command = match entry.command.args.is_empty() {
        true => {
            let mut command = Command::new(shell_program(surface.command_shell));
            command.arg("-c").arg(&entry.command.command);
            command
        }
        false => {
            let mut command = Command::new(&entry.command.command);
            command.args(entry.command.args.iter().map(|arg| arg.replace(&surface.root_token, root.as_str())));
            command
        }
    };
    command.current_dir(artifact).env(variable, root);
    Ok(command)
}

/// The host's plugin folder in `artifact` (its own folder where it has one) and `row`'s wrapper
/// relative to it.
fn plugin_folder<'r>(artifact: &Utf8Path, row: &'r IndexRow) -> (camino::Utf8PathBuf, &'r str) {
    let surface = hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks");
    match &surface.folder {
        Some(folder) => {
            let file = row.path.strip_prefix(folder.as_str()).and_then(|p| p.strip_prefix('/')).unwrap_or(&row.path);
            (artifact.join(folder), file)
        }
        None => (artifact.to_path_buf(), row.path.as_str()),
    }
}

/// The entry of the host's hook document in `artifact` that runs `row`'s wrapper (on an in-process
/// host, the entry that names its module), read back by the host's table.
pub(crate) fn written_entry(
    artifact: &Utf8Path,
    row: &IndexRow,
) -> Result<crate::pipeline::emit::WrittenEntry, SimulateError> {
    let surface = hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks");
    let unreadable = |why: String| SimulateError::BadInput(format!("{}'s hook document: {why}", row.host));
    let text = fs_err::read_to_string(artifact.join(&surface.document)).map_err(|e| unreadable(e.to_string()))?;
    let document: Value = serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    let named = format!("{}/{}", surface.root_token, plugin_folder(artifact, row).1);
    crate::pipeline::emit::read_hook_document(surface, &document)
        .into_iter()
        .find(|entry| {
            entry.native_event == row.native_event
                && match surface.in_process() {
                    true => entry.command.command == named,
                    false => {
                        let line = entry.command.to_string();
                        line.contains(&format!("{named}\""))
                            || line.ends_with(&named)
                            || line.contains(&format!("{named} "))
                    }
                }
        })
        .ok_or_else(|| unreadable(format!("no {} entry runs {}", row.native_event, row.path)))
}

/// Node running the runtime's decision for an in-process hook's wrapper module, in the artifact.
fn in_process_command(artifact: &Utf8Path, runtime: &Utf8Path, wrapper: &Utf8Path) -> Command {
    let mut command = Command::new(shell_program(CommandShell::InProcess));
    command.args(["--input-type=module", "-e", IN_PROCESS_SIMULATION]).arg(runtime).arg(wrapper).current_dir(artifact);
    command
}

/// The script node runs for an in-process hook: the runtime's `simulateInProcess` on the wrapper.
const IN_PROCESS_SIMULATION: &str = "const [runtime, wrapper] = process.argv.slice(1); \
     const { pathToFileURL } = await import('node:url'); \
     const { simulateInProcess } = await import(pathToFileURL(runtime).href); \
     await simulateInProcess(wrapper);";

/// The program that stands for the host's shell.
fn shell_program(shell: CommandShell) -> &'static str {
    match shell {
        CommandShell::Bash => "bash",
        CommandShell::AnyShell => "sh",
        CommandShell::InProcess => "node",
    }
}

/// The exit status a POSIX shell gives a command it cannot find.
const COMMAND_NOT_FOUND: i32 = 127;

fn run_wrapper(
    artifact: &Utf8Path,
    row: &IndexRow,
    envelope: &Value,
    timeout: Duration,
    cancel: Option<&AtomicBool>,
) -> Result<Run, SimulateError> {
    use std::os::unix::process::CommandExt;

    // A shared route answers only with the plugin's MCP server running, as in the host.
    let server = row.shared_runtime.as_deref().map(|entry| SharedServer::start(artifact, entry)).transpose()?;
    let mut command = host_command(artifact, row)?;
    let shell = match row.hooks_module {
        true => shell_program(CommandShell::InProcess),
        false => shell_program(hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks").command_shell),
    };
    // An exec form (or a hooks module's stand-in) starts node itself, with no shell in between.
    let starts_node = command.get_program() == shell_program(CommandShell::InProcess);
    let started = Instant::now();
    let mut child = command
        .env("AGENT_BUNDLE_HOOK_SIMULATION", "1")
        // An async hook's wrapper answers the host at once and runs its handler detached; simulated,
        // it runs attached (as its detached run does), so the handler's own outcome is shown and
        // nothing outlives the isolated copy.
        .env("AGENT_BUNDLE_DETACHED", &row.id)
        .envs(server.iter().map(|s| ("AGENT_BUNDLE_RUNTIME_DIR", s.runtime_dir.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| if starts_node { SimulateError::Node(e) } else { SimulateError::Shell(shell, e) })?;

    let input = crate::vocabulary::json::compact(envelope).into_bytes();
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = capture(child.stdout.take().expect("stdout is piped"));
    let stderr = capture(child.stderr.take().expect("stderr is piped"));

    let (mut timed_out, mut cancelled) = (false, false);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(SimulateError::Node)? {
            break status;
        }
        cancelled = cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled || started.elapsed() >= timeout {
            timed_out = !cancelled;
            let group = -(child.id() as i32);
            // SAFETY: kill(2) with a process-group id we created; no memory is involved.
            unsafe { libc::kill(group, libc::SIGTERM) };
            let grace = Instant::now();
            while grace.elapsed() < KILL_GRACE {
                if child.try_wait().map_err(SimulateError::Node)?.is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            // SAFETY: as above.
            unsafe { libc::kill(group, libc::SIGKILL) };
            break child.wait().map_err(SimulateError::Node)?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall_time = started.elapsed();
    let _ = writer.join();
    let stderr = stderr.join().unwrap_or_default();
    // The wrapper itself exits 0, 1 or 2: 127 is the shell finding no `node` on PATH.
    if status.code() == Some(COMMAND_NOT_FOUND) {
        return Err(SimulateError::Node(std::io::Error::new(std::io::ErrorKind::NotFound, stderr.trim().to_string())));
    }
    Ok(Run {
        exit_code: status.code(),
        timed_out,
        cancelled,
        stdout: stdout.join().unwrap_or_default(),
        stderr,
        wall_time,
    })
}

fn capture(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buffer = [0u8; 8192];
        while let Ok(n) = stream.read(&mut buffer) {
            if n == 0 {
                break;
            }
            let room = OUTPUT_CAP.saturating_sub(kept.len());
            kept.extend_from_slice(&buffer[..n.min(room)]);
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}
