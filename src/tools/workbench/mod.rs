//! The Workbench: a local web app for writing hooks. It builds the bundle, serves one self-contained
//! page (no external assets) and a small JSON API on 127.0.0.1, rebuilds when a source changes and
//! pushes every build and run to the open pages as Server-Sent Events (no page polls), and runs hooks
//! through `hooks simulate`'s path (the real emitted wrapper, from an isolated copy of the artifact):
//! one input on every host side by side, a pasted or dropped file of captured envelopes, the last
//! saved recorded input against its golden snapshot.
//!
//! Code map: `http` (requests, responses, the event stream's head), `events` (the streams),
//! `entries` (one entry per hook with its hosts side by side), `runs` (runs in flight, cancel,
//! history), `replay` (captured envelopes matched to hooks), `compare` (against the golden
//! snapshots), `editor` (opening a declaration), `samples` (recorded envelopes), `page.html`.
//!
//! Security: it binds loopback only; every API request needs the session's token (a header; the
//! event stream, which a browser opens without headers, takes it in its query), and a request whose
//! `Host` or `Origin` is not this server's is refused (DNS rebinding, cross-site posts); the browser
//! names a host and a hook of the artifact's index and sends JSON input, never a command, a path or
//! an environment.

mod compare;
mod editor;
mod entries;
mod events;
mod http;
mod replay;
mod runs;
mod samples;
pub(crate) use samples::recorded;

use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use camino::Utf8PathBuf;
use serde_json::{Value, json};

use crate::artifact::read_verified;
use crate::driver::{BuildOptions, BuildOutcome};
use crate::io::{Disk, RealDisk};
use crate::tools::simulate::{SimulateInput, SimulateRequest, simulate_cancellable};
use crate::vocabulary::target::Target;
use http::{Request, respond, respond_json};

const PAGE: &str = include_str!("page.html");
/// The header an API request carries the session token in.
pub const TOKEN_HEADER: &str = "x-agent-bundle-token";
/// How often the sources are checked for changes (a no-op build reads stamps only).
const WATCH_INTERVAL: Duration = Duration::from_millis(300);
/// How long an event stream stays silent before a keep-alive comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What the Workbench serves.
#[derive(Debug, Clone)]
pub struct WorkbenchOptions {
    pub root: Utf8PathBuf,
    /// 0 picks a free port.
    pub port: u16,
    pub cache_dir: Option<Utf8PathBuf>,
    /// Where "Save as recorded input" writes (`<dir>/<plugin>/inputs/<hook>/<case>.json`, what
    /// `cargo agent-bundle snapshot` replays), and where the golden snapshots are compared.
    pub snapshot_dir: Utf8PathBuf,
}

/// The latest build, as the page shows it.
#[derive(Debug, Default)]
struct BuildState {
    /// Counts builds that changed what the page shows.
    generation: u64,
    ok: bool,
    /// The diagnostics, as the terminal would print them.
    diagnostics: String,
    /// Per output file, why it was rebuilt, from the last build that wrote something.
    explanations: Vec<String>,
    artifact: Option<Utf8PathBuf>,
    /// One entry per hook or route, with its hosts side by side.
    entries: Vec<Value>,
    /// The artifact's index rows (what a run names by host and hook), with sample inputs.
    rows: Vec<Value>,
}

struct Workbench {
    options: WorkbenchOptions,
    token: String,
    /// `127.0.0.1:<port>`, what `Host` must say.
    authority: String,
    state: Mutex<BuildState>,
    events: events::Broadcaster,
    runs: runs::Runs,
}

/// Serves until the process ends. `ready` receives the page's address (with the token) once the
/// first build is done and the port is bound.
pub fn serve(options: WorkbenchOptions, ready: impl FnOnce(&str)) -> Result<(), String> {
    let listener = TcpListener::bind(("127.0.0.1", options.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", options.port))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let workbench = Arc::new(Workbench {
        token: session_token()?,
        authority: format!("127.0.0.1:{port}"),
        options,
        state: Mutex::new(BuildState::default()),
        events: events::Broadcaster::default(),
        runs: runs::Runs::default(),
    });
    workbench.rebuild();
    {
        let workbench = Arc::clone(&workbench);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(WATCH_INTERVAL);
                if workbench.rebuild() {
                    workbench.events.publish("build", &workbench.state_json());
                }
            }
        });
    }
    ready(&format!("http://{}/?token={}", workbench.authority, workbench.token));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let workbench = Arc::clone(&workbench);
        std::thread::spawn(move || {
            let _ = workbench.handle(stream);
        });
    }
    Ok(())
}

/// 128 random bits, hex.
fn session_token() -> Result<String, String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot read /dev/urandom for the session token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn parse_body(body: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(body).map_err(|e| format!("the request is not JSON: {e}"))
}

/// A page-chosen name for the runs one click starts: plain, short.
fn batch_of(request: &Value) -> Result<String, String> {
    let batch = request["batch"].as_str().unwrap_or("single");
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_');
    if batch.is_empty() || batch.len() > 64 || !batch.chars().all(plain) {
        return Err(format!("`batch` `{batch}` is not a plain name (letters, digits, `-`, `_`; at most 64)"));
    }
    Ok(batch.to_string())
}

fn host_of(request: &Value, key: &str) -> Result<Option<Target>, String> {
    match request[key].as_str() {
        None | Some("auto") | Some("") => Ok(None),
        Some(name) => name.parse().map(Some).map_err(|e: String| e),
    }
}

fn now_ms() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis())
}

impl Workbench {
    fn handle(&self, stream: TcpStream) -> std::io::Result<()> {
        let request = match http::read_request(&stream) {
            Ok(request) => request,
            Err(error) => return respond_json(&stream, "400 Bad Request", &json!({ "error": error.to_string() })),
        };
        // Only this server's own address: a page elsewhere cannot reach it by a rebound name.
        if request.header("host") != Some(self.authority.as_str()) {
            return respond_json(
                &stream,
                "403 Forbidden",
                &json!({ "error": "the Host header is not this Workbench" }),
            );
        }
        let path = request.path().to_string();
        if request.method == "GET" && path == "/" {
            return respond(&stream, "200 OK", "text/html; charset=utf-8", PAGE.as_bytes());
        }
        if !path.starts_with("/api/") {
            return respond_json(&stream, "404 Not Found", &json!({ "error": "no such page" }));
        }
        if let Some(origin) = request.header("origin")
            && origin != format!("http://{}", self.authority)
        {
            return respond_json(
                &stream,
                "403 Forbidden",
                &json!({ "error": "requests from another origin are refused" }),
            );
        }
        // The event stream is opened by `EventSource`, which sends no headers of its own.
        let token = match (request.method.as_str(), path.as_str()) {
            ("GET", "/api/events") => request.query("token"),
            _ => request.header(TOKEN_HEADER),
        };
        if token != Some(self.token.as_str()) {
            return respond_json(&stream, "403 Forbidden", &json!({ "error": "a missing or wrong session token" }));
        }
        let answer = |result: Result<Value, String>| match result {
            Ok(value) => respond_json(&stream, "200 OK", &value),
            Err(error) => respond_json(&stream, "422 Unprocessable Entity", &json!({ "error": error })),
        };
        match (request.method.as_str(), path.as_str()) {
            ("GET", "/api/state") => respond_json(&stream, "200 OK", &self.state_json()),
            ("GET", "/api/history") => respond_json(&stream, "200 OK", &self.runs.history()),
            ("GET", "/api/events") => self.stream_events(&stream),
            ("POST", "/api/run") => answer(self.run(&request)),
            ("POST", "/api/cancel") => answer(self.cancel(&request)),
            ("POST", "/api/save") => answer(self.save(&request.body)),
            ("POST", "/api/compare") => answer(self.compare(&request.body)),
            ("POST", "/api/replay") => answer(self.replay(&request.body)),
            ("POST", "/api/open") => answer(self.open(&request.body)),
            _ => respond_json(&stream, "404 Not Found", &json!({ "error": "no such API" })),
        }
    }

    /// Holds the connection open and writes every published event to it, the current state first.
    fn stream_events(&self, stream: &TcpStream) -> std::io::Result<()> {
        use std::io::Write;
        let Some(events) = self.events.subscribe() else {
            return respond_json(
                stream,
                "503 Service Unavailable",
                &json!({ "error": format!("at most {} pages can follow the Workbench at once", events::MAX_STREAMS) }),
            );
        };
        http::start_events(stream)?;
        let mut writer = stream;
        writer.write_all(http::event_text("build", &self.state_json()).as_bytes())?;
        writer.write_all(http::event_text("history", &self.runs.history()).as_bytes())?;
        writer.flush()?;
        loop {
            let text = match events.recv_timeout(KEEP_ALIVE) {
                Ok(text) => text,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            };
            writer.write_all(text.as_bytes())?;
            writer.flush()?;
        }
    }

    /// Builds the bundle (a no-op when nothing changed), keeping what the page shows; whether that
    /// changed.
    fn rebuild(&self) -> bool {
        let options = BuildOptions {
            root: self.options.root.clone(),
            cache_dir: self.options.cache_dir.clone(),
            ..Default::default()
        };
        // Guarded: whatever the edited bundle does to a build, the Workbench keeps running.
        let report = crate::driver::build_guarded(&options, &RealDisk, &mut |_| {});
        let mut state = self.state.lock().expect("the state is never poisoned");
        let before = state.generation;
        match report {
            Ok(mut report) => {
                let fresh = matches!(report.outcome, BuildOutcome::Fresh { .. });
                if fresh && state.ok && state.generation > 0 {
                    // Nothing changed since the build the page shows.
                    return false;
                }
                // A no-op build loads nothing: load the bundle for its warnings and declarations.
                let loaded = if fresh {
                    crate::pipeline::load(&self.options.root, &RealDisk)
                } else {
                    std::mem::take(&mut report.loaded)
                };
                let sources: Vec<_> = loaded.sources.iter().collect();
                let diagnostics: String =
                    loaded.diagnostics.iter().map(|d| crate::diagnostic::render_human(d, &sources) + "\n").collect();
                let ok = !loaded.has_errors();
                if let BuildOutcome::Built { explanation, .. } = &report.outcome {
                    // What `build --explain` says about the hooks that changed.
                    state.explanations = explanation
                        .hooks
                        .iter()
                        .filter(|hook| !hook.reasons.is_empty())
                        .map(|hook| format!("{}: {}", hook.name, hook.reasons.join("; ")))
                        .collect();
                }
                let wrote = matches!(report.outcome, BuildOutcome::Built { .. });
                if wrote || ok != state.ok || diagnostics != state.diagnostics || state.generation == 0 {
                    state.generation += 1;
                }
                state.ok = ok;
                state.diagnostics = diagnostics;
                if ok {
                    let listed = entries::list(&report.output, &loaded);
                    state.entries = listed.entries;
                    state.rows = listed.rows;
                    state.artifact = Some(report.output.clone());
                }
            }
            Err(error) => {
                if state.ok || state.generation == 0 {
                    state.generation += 1;
                }
                state.ok = false;
                state.diagnostics = error.to_string();
            }
        }
        state.generation != before
    }

    fn state_json(&self) -> Value {
        let state = self.state.lock().expect("the state is never poisoned");
        json!({
            "root": self.options.root,
            "generation": state.generation,
            "ok": state.ok,
            "diagnostics": state.diagnostics,
            "explanations": state.explanations,
            "entries": state.entries,
            "hooks": state.rows,
        })
    }

    fn artifact(&self) -> Result<Utf8PathBuf, String> {
        let artifact = self.state.lock().expect("the state is never poisoned").artifact.clone();
        artifact.ok_or_else(|| "the bundle has not built yet".to_string())
    }

    /// Runs one hook of the artifact: `{ host, hook, input }` (canonical) or `{ host, hook, native }`,
    /// with an optional `batch` that `/api/cancel` stops.
    fn run(&self, request: &Request) -> Result<Value, String> {
        let request = parse_body(&request.body)?;
        let target = host_of(&request, "host")?.ok_or("`host` names the host")?;
        let hook = request["hook"].as_str().ok_or("`hook` names the hook")?.to_string();
        let (input, translated) = match (request.get("input"), request.get("native")) {
            // A tool call written with another host's tool runs as this host's tool of that kind.
            (Some(input), None) => match crate::tools::simulate::translate::for_host(target, input) {
                Some((input, note)) => (SimulateInput::Canonical(input), Some(note)),
                None => (SimulateInput::Canonical(input.clone()), None),
            },
            (None, Some(native)) => (SimulateInput::Native(native.clone()), None),
            _ => return Err("give either `input` (canonical) or `native` (a host's envelope)".into()),
        };
        let mut run = self.execute(&batch_of(&request)?, target, hook, input)?;
        if let Some(note) = translated {
            run["translated"] = json!(note);
        }
        Ok(run)
    }

    /// One run through the real wrapper, announced to every page when it starts and ends, and kept
    /// in the history.
    fn execute(&self, batch: &str, target: Target, hook: String, input: SimulateInput) -> Result<Value, String> {
        let artifact = self.artifact()?;
        let ticket = self.runs.start(batch);
        let (form, given) = match &input {
            SimulateInput::Canonical(value) => ("canonical", value.clone()),
            SimulateInput::Native(value) => ("native", value.clone()),
        };
        let started = Instant::now();
        let announced =
            json!({ "phase": "started", "id": ticket.id, "batch": batch, "host": target.name(), "hook": hook });
        self.events.publish("run", &announced);
        let request = SimulateRequest {
            artifact,
            target,
            hook: hook.clone(),
            input,
            timeout: None,
            place: crate::tools::simulate::PlaceRequest::default(),
        };
        let result = simulate_cancellable(&request, &RealDisk, &ticket.cancel)
            .map_err(|e| e.to_string())
            .and_then(|simulation| serde_json::to_value(&simulation).map_err(|e| e.to_string()));
        let elapsed = started.elapsed().as_millis();
        let mut entry = json!({
            "id": ticket.id, "batch": batch, "host": target.name(), "hook": hook, "form": form, "input": given,
            "elapsedMs": elapsed, "at": now_ms(),
        });
        match &result {
            Ok(run) => {
                entry["summary"] = json!(runs::summary(run));
                for key in ["exitCode", "cancelled", "timedOut"] {
                    entry[key] = run.get(key).cloned().unwrap_or(Value::Null);
                }
            }
            Err(error) => entry["summary"] = json!(format!("not run: {error}")),
        }
        drop(ticket);
        self.runs.record(entry.clone());
        self.events.publish("run", &json!({ "phase": "finished", "entry": entry }));
        let mut value = result?;
        value["id"] = json!(entry["id"]);
        value["elapsedMs"] = json!(elapsed);
        Ok(value)
    }

    /// Stops the runs of `{ batch }` still in flight.
    fn cancel(&self, request: &Request) -> Result<Value, String> {
        let request = parse_body(&request.body)?;
        Ok(json!({ "cancelled": self.runs.cancel(&batch_of(&request)?) }))
    }

    /// Saves a canonical input as a recorded snapshot input: `{ hook, case, input }`. The hook must be
    /// one of the artifact's, and the case a plain file name, so nothing is written elsewhere.
    fn save(&self, body: &[u8]) -> Result<Value, String> {
        let request = parse_body(body)?;
        let hook = request["hook"].as_str().ok_or("`hook` names the hook")?;
        let case = request["case"].as_str().ok_or("`case` names the recorded input")?;
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_');
        if case.is_empty() || case.len() > 64 || !case.chars().all(plain) {
            return Err(format!("`{case}` is not a plain name (letters, digits, `-`, `_`; at most 64)"));
        }
        let input = request.get("input").filter(|i| i.is_object()).ok_or("`input` is a canonical input object")?;
        let manifest = read_verified(&self.artifact()?, &RealDisk).map_err(|e| e.to_string())?;
        if !manifest.hooks.iter().any(|row| row.name == hook) {
            return Err(format!("the artifact has no hook named `{hook}`"));
        }
        let dir = self.options.snapshot_dir.join(&manifest.plugin.name).join("inputs").join(hook);
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create `{dir}`: {e}"))?;
        let path = dir.join(format!("{case}.json"));
        std::fs::write(&path, crate::vocabulary::json::pretty(input) + "\n")
            .map_err(|e| format!("cannot write `{path}`: {e}"))?;
        Ok(json!({ "saved": path }))
    }

    /// `{ hook, host? }`: the hook's last saved recorded input, answered now, against the golden
    /// snapshots.
    fn compare(&self, body: &[u8]) -> Result<Value, String> {
        let request = parse_body(body)?;
        let hook = request["hook"].as_str().ok_or("`hook` names the hook")?;
        let artifact = self.artifact()?;
        let compare = compare::Compare {
            snapshot_dir: &self.options.snapshot_dir,
            artifact: &artifact,
            root: &self.options.root,
        };
        compare.run(hook, host_of(&request, "host")?)
    }

    /// `{ text, host?, batch? }`: every envelope of a pasted text or dropped file, matched to the
    /// hooks its host would run for it, each run.
    fn replay(&self, body: &[u8]) -> Result<Value, String> {
        let request = parse_body(body)?;
        let text = request["text"].as_str().ok_or("`text` holds the envelopes, one per line")?;
        let only = host_of(&request, "host")?;
        let batch = batch_of(&request)?;
        let manifest = read_verified(&self.artifact()?, &RealDisk).map_err(|e| e.to_string())?;
        // A cancelled run stops the replay: the rest of its batch is not started.
        let mut cancelled = false;
        let mut items = Vec::new();
        for (line, envelope) in replay::envelopes(text) {
            let envelope = match envelope {
                Ok(envelope) => envelope,
                Err(error) => {
                    items.push(json!({ "line": line, "error": error }));
                    continue;
                }
            };
            let matched = replay::match_envelope(&manifest.hooks, &envelope, only);
            let mut runs = Vec::new();
            for row in &matched.runs {
                if cancelled {
                    break;
                }
                let run = self.execute(&batch, row.host, row.name.clone(), SimulateInput::Native(envelope.clone()));
                let mut shown = json!({ "host": row.host.name(), "hook": row.name });
                match run {
                    Ok(run) => {
                        cancelled = run["cancelled"] == true;
                        shown["summary"] = json!(runs::summary(&run));
                        for key in ["outcome", "blocked", "exitCode", "stdout", "stderr", "wallTimeMs"] {
                            shown[key] = run.get(key).cloned().unwrap_or(Value::Null);
                        }
                    }
                    Err(error) => shown["summary"] = json!(format!("not run: {error}")),
                }
                runs.push(shown);
            }
            let skipped: Vec<Value> = matched
                .skipped
                .iter()
                .map(|(row, why)| json!({ "host": row.host.name(), "hook": row.name, "why": why }))
                .collect();
            let hosts: Vec<&str> = matched.hosts.iter().map(|t| t.name()).collect();
            let mut item = json!({ "line": line, "hosts": hosts, "nativeEvent": matched.native_event,
                "alsoFits": matched.also, "runs": runs, "skipped": skipped });
            if hosts.is_empty() {
                item["error"] = json!(match only {
                    Some(host) => format!("not an envelope of any {host} hook of this artifact (its event and fields)"),
                    None => "no host of this artifact sends an envelope of this shape (event name and fields)".into(),
                });
            }
            items.push(item);
        }
        if items.is_empty() {
            return Err("no envelope: paste one JSON object, or drop a file with one per line".into());
        }
        Ok(json!({ "items": items }))
    }

    /// `{ hook }`: opens the hook's declaration in the user's editor.
    fn open(&self, body: &[u8]) -> Result<Value, String> {
        let request = parse_body(body)?;
        let hook = request["hook"].as_str().ok_or("`hook` names the hook")?;
        let declared = {
            let state = self.state.lock().expect("the state is never poisoned");
            state.entries.iter().find(|e| e["name"] == hook).map(|e| e["declared"].clone())
        };
        let declared = declared.ok_or_else(|| format!("the bundle declares no hook named `{hook}`"))?;
        let (Some(file), Some(line), Some(column)) =
            (declared["file"].as_str(), declared["line"].as_u64(), declared["column"].as_u64())
        else {
            return Err(format!("the declaration of `{hook}` has no place"));
        };
        let (line, column) = (line as u32, column as u32);
        let root = RealDisk.canonicalize(&self.options.root).unwrap_or_else(|| self.options.root.clone());
        let path = root.join(file);
        // Declarations are files of the bundle; never open anything outside it.
        let resolved = RealDisk.canonicalize(&path).ok_or_else(|| format!("`{path}` does not exist"))?;
        if !resolved.starts_with(&root) {
            return Err(format!("`{file}` is outside the bundle root"));
        }
        let command = editor::open(&resolved, line, column)?;
        Ok(json!({ "opened": format!("{file}:{line}:{column}"), "command": command }))
    }
}
