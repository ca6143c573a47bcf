//! The Workbench: a local web page for running a bundle's hooks. It builds the bundle, serves one
//! self-contained page (no external assets) and a small JSON API on 127.0.0.1, rebuilds when a
//! source changes, and runs hooks through `hooks simulate`'s path (the real emitted wrapper, from an
//! isolated copy of the artifact).
//!
//! Security: it binds loopback only; every API request needs the session's token (a header), and a
//! request whose `Host` or `Origin` is not this server's is refused (DNS rebinding, cross-site
//! posts); the browser names a host and a hook of the artifact's index and sends JSON input, never a
//! command, a path or an environment.

mod samples;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use camino::{Utf8Path, Utf8PathBuf};
use serde_json::{Value, json};

use crate::artifact::read_verified;
use crate::build::{BuildOptions, BuildOutcome};
use crate::hosts;
use crate::io::RealDisk;
use crate::pipeline::Loaded;
use crate::tools::simulate::{SimulateInput, SimulateRequest, simulate};

const PAGE: &str = include_str!("page.html");
/// The header an API request carries the session token in.
pub const TOKEN_HEADER: &str = "x-agent-bundle-token";
/// A request body larger than this is refused (an envelope is at most 1 MiB).
const BODY_LIMIT: usize = 2 * 1024 * 1024;
/// How often the sources are checked for changes (a no-op build reads stamps only).
const WATCH_INTERVAL: Duration = Duration::from_millis(500);

/// What the Workbench serves.
#[derive(Debug, Clone)]
pub struct WorkbenchOptions {
    pub root: Utf8PathBuf,
    /// 0 picks a free port.
    pub port: u16,
    pub cache_dir: Option<Utf8PathBuf>,
    /// Where "Save as recorded input" writes (`<dir>/<plugin>/inputs/<hook>/<case>.json`, what
    /// `cargo agent-bundle snapshot` replays).
    pub snapshot_dir: Utf8PathBuf,
}

/// The latest build, as the page shows it.
#[derive(Debug, Default)]
struct BuildState {
    /// Counts builds that wrote something (the page reloads the hook list when it changes).
    generation: u64,
    ok: bool,
    /// The diagnostics, as the terminal would print them.
    diagnostics: String,
    /// Per output file, why it was rebuilt, from the last build that wrote something.
    explanations: Vec<String>,
    artifact: Option<Utf8PathBuf>,
    /// The artifact's hooks as the page lists them, computed once per build that changed something
    /// (the page polls every second).
    hooks: Vec<Value>,
}

struct Workbench {
    options: WorkbenchOptions,
    token: String,
    /// `127.0.0.1:<port>`, what `Host` must say.
    authority: String,
    state: Mutex<BuildState>,
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
    });
    workbench.rebuild();
    {
        let workbench = Arc::clone(&workbench);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(WATCH_INTERVAL);
                workbench.rebuild();
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
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot read /dev/urandom for the session token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

fn read_request(stream: &TcpStream) -> std::io::Result<Request> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    if length > BODY_LIMIT {
        return Err(std::io::Error::other("request body too large"));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Request { method, path, headers, body })
}

fn respond(mut stream: &TcpStream, status: &str, content_type: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\ncache-control: no-store\r\n\
         x-content-type-options: nosniff\r\ncontent-security-policy: default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'\r\n\
         connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

fn respond_json(stream: &TcpStream, status: &str, value: &Value) -> std::io::Result<()> {
    respond(stream, status, "application/json", crate::vocabulary::json::pretty(value).as_bytes())
}

impl Workbench {
    fn handle(&self, stream: TcpStream) -> std::io::Result<()> {
        let request = match read_request(&stream) {
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
        let path = request.path.split('?').next().unwrap_or_default();
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
        if request.header(TOKEN_HEADER) != Some(self.token.as_str()) {
            return respond_json(&stream, "403 Forbidden", &json!({ "error": "a missing or wrong session token" }));
        }
        match (request.method.as_str(), path) {
            ("GET", "/api/state") => respond_json(&stream, "200 OK", &self.state_json()),
            ("POST", "/api/run") => match self.run(&request.body) {
                Ok(value) => respond_json(&stream, "200 OK", &value),
                Err(error) => respond_json(&stream, "422 Unprocessable Entity", &json!({ "error": error })),
            },
            ("POST", "/api/save") => match self.save(&request.body) {
                Ok(value) => respond_json(&stream, "200 OK", &value),
                Err(error) => respond_json(&stream, "422 Unprocessable Entity", &json!({ "error": error })),
            },
            _ => respond_json(&stream, "404 Not Found", &json!({ "error": "no such API" })),
        }
    }

    /// Builds the bundle (a no-op when nothing changed), keeping what the page shows.
    fn rebuild(&self) {
        let options = BuildOptions {
            root: self.options.root.clone(),
            cache_dir: self.options.cache_dir.clone(),
            ..Default::default()
        };
        // Guarded: whatever the edited bundle does to a build, the Workbench keeps running.
        let report = crate::build::build_guarded(&options, &RealDisk, &mut |_| {});
        let mut state = self.state.lock().expect("the state is never poisoned");
        match report {
            Ok(mut report) => {
                let fresh = matches!(report.outcome, BuildOutcome::Fresh { .. });
                if fresh && state.ok && state.generation > 0 {
                    // Nothing changed since the build the page shows.
                    return;
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
                    state.hooks = listed_hooks(&report.output, &loaded);
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
    }

    fn state_json(&self) -> Value {
        let state = self.state.lock().expect("the state is never poisoned");
        json!({
            "root": self.options.root,
            "generation": state.generation,
            "ok": state.ok,
            "diagnostics": state.diagnostics,
            "explanations": state.explanations,
            "hooks": state.hooks,
        })
    }

    /// Runs one hook of the artifact: `{ host, hook, input }` (canonical) or `{ host, hook, native }`.
    fn run(&self, body: &[u8]) -> Result<Value, String> {
        let request: Value = serde_json::from_slice(body).map_err(|e| format!("the request is not JSON: {e}"))?;
        let target = request["host"].as_str().ok_or("`host` names the host")?;
        let target = target.parse().map_err(|e: String| e)?;
        let hook = request["hook"].as_str().ok_or("`hook` names the hook")?.to_string();
        let input = match (request.get("input"), request.get("native")) {
            (Some(input), None) => SimulateInput::Canonical(input.clone()),
            (None, Some(native)) => SimulateInput::Native(native.clone()),
            _ => return Err("give either `input` (canonical) or `native` (a host's envelope)".into()),
        };
        let artifact = self.state.lock().expect("the state is never poisoned").artifact.clone();
        let artifact = artifact.ok_or("the bundle has not built yet")?;
        let started = Instant::now();
        let simulation = simulate(&SimulateRequest { artifact, target, hook, input, timeout: None }, &RealDisk)
            .map_err(|e| e.to_string())?;
        let mut value = serde_json::to_value(&simulation).map_err(|e| e.to_string())?;
        value["elapsedMs"] = json!(started.elapsed().as_millis());
        Ok(value)
    }
}

impl Workbench {
    /// Saves a canonical input as a recorded snapshot input: `{ hook, case, input }`. The hook must be
    /// one of the artifact's, and the case a plain file name, so nothing is written elsewhere.
    fn save(&self, body: &[u8]) -> Result<Value, String> {
        let request: Value = serde_json::from_slice(body).map_err(|e| format!("the request is not JSON: {e}"))?;
        let hook = request["hook"].as_str().ok_or("`hook` names the hook")?;
        let case = request["case"].as_str().ok_or("`case` names the recorded input")?;
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_');
        if case.is_empty() || case.len() > 64 || !case.chars().all(plain) {
            return Err(format!("`{case}` is not a plain name (letters, digits, `-`, `_`; at most 64)"));
        }
        let input = request.get("input").filter(|i| i.is_object()).ok_or("`input` is a canonical input object")?;
        let artifact = self.state.lock().expect("the state is never poisoned").artifact.clone();
        let manifest =
            read_verified(&artifact.ok_or("the bundle has not built yet")?, &RealDisk).map_err(|e| e.to_string())?;
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
}

/// Per hook of `artifact`, which `loaded` built: its index row, a sample input (canonical and as the host
/// writes it) and its declaration as the config (or the route module) states it.
fn listed_hooks(artifact: &Utf8Path, loaded: &Loaded) -> Vec<Value> {
    let Ok(manifest) = read_verified(artifact, &RealDisk) else { return Vec::new() };
    let declarations: std::collections::BTreeMap<&str, Value> = loaded
        .bundle
        .iter()
        .flat_map(|bundle| &bundle.normalised.hooks)
        .map(|hook| {
            let at = &hook.declared_at;
            let mut value = serde_json::to_value(hook).expect("hooks serialise");
            value["declaredAt"] = json!(format!("{}:{}:{}", at.file, at.line, at.column));
            (hook.id.as_str(), value)
        })
        .collect();
    manifest
        .hooks
        .iter()
        .map(|row| {
            let mut value = serde_json::to_value(row).expect("rows serialise");
            let sample = sample_input(row);
            // A real host's envelope where one was recorded, else the sample as the host would write it.
            value["nativeSample"] = samples::recorded(row.host.name(), &row.native_event)
                .or_else(|| crate::tools::simulate::encode(row, &sample).ok())
                .unwrap_or(Value::Null);
            value["sample"] = sample;
            value["declaration"] = declarations.get(row.id.as_str()).cloned().unwrap_or(Value::Null);
            value
        })
        .collect()
}

/// A canonical input every field of which the host sends always: what the editor starts with.
fn sample_input(row: &crate::artifact::IndexRow) -> Value {
    let table = hosts::table(row.host);
    let (Some(surface), Ok(mapping)) = (&table.hooks, table.mapping_for(row.event, row.hooks_module)) else {
        return json!({});
    };
    let mut sample = serde_json::Map::new();
    for field in surface.input_fields(mapping) {
        let Some(name) = &field.canonical else { continue };
        if !field.required || field.simulate.is_some() {
            continue;
        }
        let value = match (name.as_str(), field.kind) {
            // The host's own name for its shell tool, so a shell guard's matcher fires.
            ("toolName", _) => json!(shell_tool_name(table).unwrap_or_else(|| format!("example-{name}"))),
            ("toolInput", _) => json!({ "command": "ls" }),
            (_, hosts::FieldKind::Boolean) => json!(false),
            (_, hosts::FieldKind::Number) => json!(0),
            (_, hosts::FieldKind::Object) => json!({}),
            (_, hosts::FieldKind::StringArray) => json!(["/tmp/project"]),
            (_, hosts::FieldKind::Enum) => json!(field.values.first().cloned().unwrap_or_default()),
            (_, hosts::FieldKind::Any) => json!({}),
            (_, _) => json!(format!("example-{name}")),
        };
        sample.insert(name.clone(), value);
    }
    Value::Object(sample)
}

/// The first plain tool name (not a regex) the host table lists for its shell.
fn shell_tool_name(table: &hosts::HostTable) -> Option<String> {
    let shell = table.selector(crate::vocabulary::canonical::Selector::Shell).ok()?;
    shell.matches.iter().find(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).cloned()
}
