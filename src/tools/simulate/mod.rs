//! `hooks simulate`: encode a canonical input into the host's native envelope (from the same host
//! table the wrapper bakes in), run the real emitted wrapper exactly as the host would (the command
//! of the host's hook document, through the host's shell, which hands the wrapper its answer channel),
//! and decode its answer back into the canonical result.
//!
//! One concern per file: `isolated.rs` the copy of the artifact a run uses, `envelope.rs` the
//! envelope codec (encoding, the host's checks, decoding the answer), `server.rs` the shared
//! server a shared route needs, `process.rs` the process the host starts, run and timed.

mod envelope;
mod isolated;
mod place;
mod process;
mod sample;
mod server;
pub mod translate;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use camino::Utf8PathBuf;
use serde::Serialize;
use serde_json::Value;

pub use envelope::{Dropped, Encoded, admitted, decode_answer, encode, encode_noting};
pub use isolated::IsolatedArtifact;
pub use place::{PlaceRequest, Project, ShownPlace, WrittenEnvFile, parse_env};
pub use process::host_command;
use process::run_wrapper;
pub(crate) use process::written_entry;
pub use sample::sample_input;

use crate::artifact::{ArtifactError, IndexRow, read_verified};
use crate::hosts;
use crate::io::Disk;
use crate::vocabulary::target::Target;

pub struct SimulateRequest {
    pub artifact: Utf8PathBuf,
    pub target: Target,
    /// A hook name or id, exactly as `hooks list` prints it.
    pub hook: String,
    pub input: SimulateInput,
    pub timeout: Option<Duration>,
    /// The project folder the hook runs for, and variables added or overridden.
    pub place: PlaceRequest,
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
    /// Where the hook ran, as the host would start it: its working folder, the variables the host
    /// sets, and what it wrote to a file the host reads back.
    pub place: ShownPlace,
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

/// How the host blocks the call when the wrapper exits with its blocking code.
#[derive(Debug, Serialize)]
pub struct Blocked {
    pub exit: i32,
    /// What the host takes as the reason: the wrapper's stderr.
    pub reason: String,
}

impl Simulation {
    /// The hook answered as its host expects: exit 0, in time, with a decodable answer, or a block
    /// it meant ([`Simulation::meant_block`]). A failure, even one a fail-closed hook turns into a
    /// block, is not an answer.
    pub fn succeeded(&self) -> bool {
        (self.exit_code == Some(0) && !self.timed_out && self.decode_error.is_none()) || self.meant_block()
    }

    /// The host's blocking exit with no failure of the hook behind it: an answer the host can carry
    /// only as a block (the wrapper's `Agent Bundle hook blocked:` line), or a prebuilt handler's own
    /// blocking exit.
    pub fn meant_block(&self) -> bool {
        self.blocked.is_some() && !self.timed_out && !self.stderr.contains(HOOK_FAILURE)
    }
}

/// How every failure line of a wrapper begins (the runtime's `failureLine`).
const HOOK_FAILURE: &str = "Agent Bundle hook error:";

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
    let mut place = request.place.clone();
    let mut notes = Vec::new();
    let encoded = match &request.input {
        SimulateInput::Canonical(input) => {
            // The project is the one the input names (`cwd`), else `--project` or the current folder,
            // which the input's project fields then name: the envelope and the process agree.
            let fields: Vec<String> = place::project_fields(&row).into_iter().map(|(name, _)| name).collect();
            let named = place::input_project(&fields, input);
            let (project, from, warning) = place::chosen_project(&place.project, named)?;
            notes.extend(warning);
            let (input, filled) = completed(&row, input, &project);
            place.project = Project::Chosen(project, from);
            let mut encoded = encode_noting(&row, &input)?;
            encoded.warnings.splice(0..0, filled);
            encoded
        }
        SimulateInput::Native(envelope) => {
            Encoded { envelope: envelope.clone(), dropped: Vec::new(), warnings: Vec::new() }
        }
    };
    admitted(&row, &encoded.envelope)?;
    let isolated = IsolatedArtifact::copy(&request.artifact, &manifest)?;
    let mut run = run_envelope(&isolated, row, encoded.envelope, request.timeout, Some(cancel), &place)?;
    run.dropped = encoded.dropped;
    run.warnings.splice(0..0, encoded.warnings.into_iter().chain(notes));
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

/// A canonical input as a hook can be tried with it (issue 47, item 2): a tool written with another
/// host's name translated to this host's tool of the same kind (as the Workbench does), and each
/// field the host always sends that the input leaves out filled with its labelled sample value
/// ([`sample_input`]); with a note of each, so nothing is filled in silently.
fn completed(row: &IndexRow, input: &Value, project: &camino::Utf8Path) -> (Value, Vec<String>) {
    let mut notes = Vec::new();
    let mut input = input.clone();
    if let Some((translated, note)) = translate::for_host(row.host, &input) {
        notes.push(format!("the tool was written for another host, and is run as {}'s: {note}", row.host));
        input = translated;
    }
    if let (Value::Object(fields), Value::Object(mut sample)) = (&mut input, sample_input(row)) {
        // The fields naming the project name the folder the hook runs in, not a sample.
        let mut project_named = Vec::new();
        for (name, list) in place::project_fields(row) {
            if sample.contains_key(&name) && !fields.contains_key(&name) {
                let value = if list { serde_json::json!([project]) } else { serde_json::json!(project) };
                fields.insert(name.clone(), value);
                project_named.push(format!("`{name}`"));
            }
            sample.remove(&name);
        }
        if !project_named.is_empty() {
            notes.push(format!("{} filled with the project folder ({project})", project_named.join(", ")));
        }
        let mut filled = Vec::new();
        for (key, value) in sample {
            // A field given under its old name is given.
            let aliased = crate::vocabulary::canonical::PAYLOAD_ALIASES
                .iter()
                .any(|(old, canonical)| *canonical == key && fields.contains_key(*old));
            if !fields.contains_key(&key) && !aliased {
                filled.push(format!("`{key}`"));
                fields.insert(key, value);
            }
        }
        if !filled.is_empty() {
            notes.push(format!(
                "filled with labelled sample values: {} (the host always sends them; give them to try a hook that reads them)",
                filled.join(", ")
            ));
        }
    }
    (input, notes)
}

/// Runs the wrapper of one index row of an isolated artifact, with a canonical input, hermetically
/// (a recorded run: golden snapshots and the Workbench's replays): the hook gets a fresh home,
/// temporary folder and data, cache, config and state folders of its own, removed after the run, so
/// a hook that keeps state there answers the same every time (issue 47, item 4). Their path in its
/// output is shown as `[RUN]`.
pub fn simulate_row(
    artifact: &IsolatedArtifact,
    row: IndexRow,
    input: &Value,
    timeout: Option<Duration>,
) -> Result<Simulation, SimulateError> {
    let encoded = encode_noting(&row, input)?;
    let fresh = tempfile::Builder::new()
        .prefix("agent-bundle-run-")
        .tempdir()
        .map_err(|e| SimulateError::Isolation(e.to_string()))?;
    let base = Utf8PathBuf::from_path_buf(fresh.path().to_path_buf())
        .map_err(|_| SimulateError::Isolation("a non-UTF-8 temporary folder".into()))?;
    let mut env = Vec::new();
    for (key, folder) in HERMETIC_FOLDERS {
        let dir = base.join(folder);
        fs_err::create_dir_all(&dir).map_err(|e| SimulateError::Isolation(e.to_string()))?;
        env.push((key.to_string(), dir.to_string()));
    }
    let place = PlaceRequest { project: Project::Fresh, env, folder: Some(base.clone()) };
    let mut run = run_envelope(artifact, row, encoded.envelope, timeout, None, &place)?;
    run.stdout = run.stdout.replace(base.as_str(), "[RUN]");
    run.stderr = run.stderr.replace(base.as_str(), "[RUN]");
    run.place.show_path_as(base.as_str(), "[RUN]");
    run.dropped = encoded.dropped;
    run.warnings.splice(0..0, encoded.warnings);
    Ok(run)
}

/// The variables of a recorded run's own folders, each under its fresh folder.
const HERMETIC_FOLDERS: &[(&str, &str)] = &[
    ("HOME", "home"),
    ("TMPDIR", "tmp"),
    ("TMP", "tmp"),
    ("TEMP", "tmp"),
    ("XDG_DATA_HOME", "data"),
    ("XDG_CACHE_HOME", "cache"),
    ("XDG_CONFIG_HOME", "config"),
    ("XDG_STATE_HOME", "state"),
];

fn run_envelope(
    artifact: &IsolatedArtifact,
    row: IndexRow,
    envelope: Value,
    timeout: Option<Duration>,
    cancel: Option<&AtomicBool>,
    place: &PlaceRequest,
) -> Result<Simulation, SimulateError> {
    // The host's own limit for this hook, the same value its document and wrapper use.
    let timeout = timeout.unwrap_or(Duration::from_secs(u64::from(row.effective_timeout)));
    let plugin_root = process::plugin_folder(artifact.root(), &row).0;
    let place = place::Place::new(&row, &plugin_root, &envelope, place)?;
    let mut run = run_wrapper(artifact.root(), &row, &envelope, timeout, cancel, &place)?;
    let (mut shown_place, place_notes) = place.finished();
    // The hook ran in a temporary copy, gone after the run: its paths are shown as the artifact's,
    // and said so (issue 47: output shown as the host receives it, or marked).
    let mut warnings = place_notes;
    shown_place.show_path_as(artifact.root().as_str(), artifact.original().as_str());
    for (stream, text) in [("stdout", &mut run.stdout), ("stderr", &mut run.stderr)] {
        if text.contains(artifact.root().as_str()) {
            *text = artifact.shown(std::mem::take(text));
            warnings.push(format!(
                "{stream}: the hook ran in a temporary copy of the artifact ({}), whose paths are shown as {}; \
                 the host writes its own install path there",
                artifact.root(),
                artifact.original()
            ));
        }
    }
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
        place: shown_place,
        exit_code: run.exit_code,
        timed_out: run.timed_out,
        cancelled: run.cancelled,
        stdout: run.stdout,
        stderr: run.stderr,
        outcome,
        decode_error,
        blocked,
        wall_time_ms: run.wall_time.as_millis(),
        warnings,
        dropped: Vec::new(),
    })
}

fn find_row(rows: &[IndexRow], target: Target, hook: &str) -> Result<IndexRow, SimulateError> {
    // A host another host's plugin serves (Kilo CLI) runs that plugin's hooks.
    let built = crate::hosts::table(target).built_as();
    if let Some(row) = rows.iter().find(|r| r.host == built && (r.name == hook || r.id == hook)) {
        return Ok(row.clone());
    }
    let names: Vec<&str> = rows.iter().filter(|r| r.host == built).map(|r| r.name.as_str()).collect();
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
