//! The shared route runtime (D12): the generated MCP server of `testdata/bundles/shared-runtime`
//! run under the real node, with the real wrappers as its clients. Each test gets its own runtime
//! folder (`AGENT_BUNDLE_RUNTIME_DIR`), so servers of parallel tests never meet.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use camino::Utf8Path;
use common::{Run, build_bundle, copy_tree, require_node, run_wrapper};
use serde_json::{Value, json};

const SERVER: &str = "mcp/shared-runtime-runtime.mjs";
const TOOL_WRAPPER: &str = "hooks/event-route-tool-before.claude.mjs";
const PROMPT_WRAPPER: &str = "hooks/event-route-prompt-submit.mjs";

/// The generated server of an artifact, started as a host starts it: stdio piped, stdin kept open.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: PathBuf,
}

impl Server {
    fn start(artifact: &Utf8Path, runtime_dir: &Path) -> Server {
        Server::start_with(artifact, &runtime_dir.with_extension("log"), &[("AGENT_BUNDLE_RUNTIME_DIR", runtime_dir)])
    }

    /// Started with these environment variables, its stderr in a file beside `log_base`.
    fn start_with(artifact: &Utf8Path, log_base: &Path, env: &[(&str, &Path)]) -> Server {
        let stderr = log_base.with_extension(format!("{}.stderr", std::process::id() ^ rand_suffix()));
        let mut child = Command::new("node")
            .arg(artifact.join(SERVER))
            .env_remove("AGENT_BUNDLE_RUNTIME_DIR")
            .env_remove("XDG_RUNTIME_DIR")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("node runs the server");
        let stdin = child.stdin.take();
        Server { child, stdin, stderr }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

fn rand_suffix() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Waits (at most 10 s) until `condition` holds.
fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    let started = Instant::now();
    while !condition() {
        assert!(started.elapsed() < Duration::from_secs(10), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The socket files in a runtime folder.
fn sockets(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "sock")).collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

fn runtime_dir(temp: &tempfile::TempDir) -> PathBuf {
    temp.path().join("runtime")
}

fn tool_envelope(command: &str) -> String {
    json!({
        "session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": { "command": command }, "tool_use_id": "toolu_1",
    })
    .to_string()
}

fn prompt_envelope(prompt: &str) -> String {
    json!({
        "session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp", "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    })
    .to_string()
}

fn call(artifact: &Utf8Path, wrapper: &str, stdin: &str, dir: &Path) -> Run {
    run_wrapper(artifact, wrapper, stdin.as_bytes(), &[("AGENT_BUNDLE_RUNTIME_DIR", dir.to_str().unwrap())])
}

fn context(run: &Run) -> String {
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let answer: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|_| panic!("not JSON: {}", run.stdout));
    answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_string()
}

/// One raw request on a socket, and the reply line; `None` when nothing listens there (yet).
fn try_raw(socket: &Path, bytes: &[u8]) -> Option<Value> {
    let mut stream = UnixStream::connect(socket).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = stream.write_all(bytes);
    let mut reply = String::new();
    let _ = stream.read_to_string(&mut reply);
    Some(serde_json::from_str(reply.trim_end()).unwrap_or_else(|_| panic!("reply is not JSON: {reply:?}")))
}

/// One raw request on a socket, and the reply line.
fn raw(socket: &Path, bytes: &[u8]) -> Value {
    try_raw(socket, bytes).unwrap_or_else(|| panic!("nothing listens on {}", socket.display()))
}

fn started(artifact: &Utf8Path, dir: &Path) -> Server {
    let server = Server::start(artifact, dir);
    // Listening, not only bound: the socket file exists a moment before the server listens on it,
    // and a connection in that moment is refused (seen once under load).
    eventually("the server listening on its socket", || {
        sockets(dir).first().is_some_and(|socket| UnixStream::connect(socket).is_ok())
    });
    server
}

/// Two servers of one install: the first owns the socket, the second stands by.
fn owner_and_standby(artifact: &Utf8Path, dir: &Path) -> (Server, Server) {
    let owner = started(artifact, dir);
    let standby = Server::start(artifact, dir);
    eventually("the standby's log line", || standby.log().contains("is owned by another process; standing by"));
    (owner, standby)
}

#[test]
fn routes_render_in_one_warm_process_that_keeps_their_state() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let server = started(&artifact, &dir);
    let first = context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir));
    let second = context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir));
    let pid = server.child.id();
    assert_eq!(first, format!("call 1 in process {pid}"));
    assert_eq!(second, format!("call 2 in process {pid}"));
    // A denial comes back as the host's own answer, as a standalone route would write it.
    let denied = call(&artifact, TOOL_WRAPPER, &tool_envelope("echo deny-me"), &dir);
    assert_eq!(denied.code, Some(0), "{}", denied.stderr);
    assert_eq!(
        denied.stdout,
        format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"E2E_SHARED_DENY after 3 call(s) in process {pid}"}}}}"#
        )
    );
    // The prompt route shares the process but counts on its own.
    assert_eq!(context(&call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir)), "prompt 1");
    // The folder is the user's alone, and so is the socket.
    assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
    let socket = &sockets(&dir)[0];
    assert_eq!(std::fs::metadata(socket).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(socket.file_name().unwrap().to_str().unwrap().starts_with("event-"));
}

#[test]
fn the_server_completes_the_mcp_handshake_and_lists_no_tools() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let mut server = Server::start(&artifact, &runtime_dir(&temp));
    let mut stdout = BufReader::new(server.child.stdout.take().unwrap());
    let stdin = server.stdin.as_mut().unwrap();
    let mut exchange = |message: Value| {
        writeln!(stdin, "{message}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap()
    };
    let init = exchange(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "test", "version": "1" } } }));
    assert_eq!(init["id"], 1);
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(init["result"]["serverInfo"]["name"], "shared-runtime-runtime");
    writeln!(server.stdin.as_mut().unwrap(), "{}", json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .unwrap();
    let mut exchange = |message: Value| {
        writeln!(server.stdin.as_mut().unwrap(), "{message}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap()
    };
    assert_eq!(
        exchange(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }))["result"],
        json!({ "tools": [] })
    );
    assert_eq!(exchange(json!({ "jsonrpc": "2.0", "id": 3, "method": "resources/list" }))["error"]["code"], -32601);
    // Closing stdin (the host's session ending) stops the server and removes its socket.
    drop(server.stdin.take());
    let status = server.child.wait().unwrap();
    assert!(status.success());
    assert!(sockets(&runtime_dir(&temp)).is_empty(), "the owner removes its socket");
}

#[test]
fn malformed_oversized_and_foreign_requests_are_refused_with_the_protocols_codes() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let _server = started(&artifact, &dir);
    let socket = sockets(&dir).remove(0);
    let code = |reply: Value| reply["code"].as_str().unwrap_or_default().to_string();
    assert_eq!(code(raw(&socket, b"not json\n")), "invalid-message");
    assert_eq!(code(raw(&socket, b"{\"protocolVersion\":1}\n")), "invalid-message");
    let mut oversized = vec![b' '; 1024 * 1024 + 10];
    oversized.push(b'\n');
    assert_eq!(code(raw(&socket, &oversized)), "invalid-message");
    let request = |epoch: &str, extra: Option<(&str, Value)>| {
        let mut request = json!({ "protocolVersion": 1, "artifactEpoch": epoch, "event": "tool/before",
            "hostContractRevision": "claude-code@2.1.332", "target": "claude",
            "native": serde_json::from_str::<Value>(&tool_envelope("ls")).unwrap() });
        if let Some((key, value)) = extra {
            request[key] = value;
        }
        format!("{request}\n")
    };
    assert_eq!(code(raw(&socket, request("another-epoch", None).as_bytes())), "epoch-mismatch");
    let status = raw(&socket, b"{\"kind\":\"status\",\"protocolVersion\":1}\n");
    let epoch = status["runtime"]["artifactEpoch"].as_str().unwrap().to_string();
    assert_eq!(status["runtime"]["availability"], "available");
    assert_eq!(code(raw(&socket, request(&epoch, Some(("extra", json!(1)))).as_bytes())), "invalid-message");
    let ok = raw(&socket, request(&epoch, None).as_bytes());
    assert_eq!(ok["status"], "ok", "{ok}");
    // The reply carries the checked result, which the wrapper projects into the host's answer itself.
    assert!(ok["result"]["additionalContext"].as_str().unwrap().starts_with("call 1"), "{ok}");
    assert_eq!(ok["result"]["outcome"], "continue", "{ok}");
}

#[test]
fn a_shared_route_fails_without_fabricating_on_timeout_and_error_and_falls_back_only_when_unavailable() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    // No server: the route with a fallback renders in its own wrapper (another process each time);
    // the shared-only route fails, saying why.
    let alone = context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir));
    assert!(alone.starts_with("call 1 in process "), "{alone}");
    let unavailable = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir);
    assert_eq!((unavailable.code, unavailable.stdout.as_str()), (Some(1), ""));
    assert!(unavailable.stderr.contains("runtime-unavailable"), "{}", unavailable.stderr);
    let _server = started(&artifact, &dir);
    let failed = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("throw"), &dir);
    assert_eq!((failed.code, failed.stdout.as_str()), (Some(1), ""));
    assert!(failed.stderr.contains("runtime-failed") && failed.stderr.contains("on purpose"), "{}", failed.stderr);
    // A route with a fallback falls back only when no server answers: a failure in the server is final.
    let guard_failed = call(&artifact, TOOL_WRAPPER, &tool_envelope("throw-me"), &dir);
    assert_eq!((guard_failed.code, guard_failed.stdout.as_str()), (Some(1), ""));
    assert!(guard_failed.stderr.contains("runtime-failed"), "{}", guard_failed.stderr);
    let slow = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("sleep"), &dir);
    assert_eq!((slow.code, slow.stdout.as_str()), (Some(1), ""));
    assert!(slow.stderr.contains("runtime-timeout"), "{}", slow.stderr);
}

/// A delivery's clock starts with the delivery (D13): on a server up far longer than a route's
/// budget, the route still gets a live signal (its budget counts from the request's arrival), and a
/// route that runs past its budget still sees the signal abort.
#[test]
fn a_routes_budget_counts_from_the_requests_arrival_not_from_the_servers_start() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    // The budget is the plan's, recorded in the manifest's index and baked into the contract.
    let manifest = agent_bundle::artifact::read_verified(&artifact, &agent_bundle::io::RealDisk).unwrap();
    let row = manifest.hooks.iter().find(|row| row.path == PROMPT_WRAPPER).expect("the prompt route's row");
    let budget = Duration::from_millis(row.route_budget_ms.expect("a route has a budget"));
    assert_eq!(budget, Duration::from_millis(1000));
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let up = Instant::now();
    let server = started(&artifact, &dir);
    assert_eq!(context(&call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir)), "prompt 1");
    // Up for well over the budget (at most 2.5 budgets of waiting): a clock counted from the
    // server's start would hand every delivery a signal that aborts at once.
    if let Some(rest) = (budget * 5 / 2).checked_sub(up.elapsed()) {
        std::thread::sleep(rest);
    }
    let socket = sockets(&dir).remove(0);
    let status = raw(&socket, b"{\"kind\":\"status\",\"protocolVersion\":1}\n");
    let request = json!({ "protocolVersion": 1, "artifactEpoch": status["runtime"]["artifactEpoch"],
        "event": "prompt/submit", "hostContractRevision": "claude-code@2.1.332", "target": "claude",
        "native": serde_json::from_str::<Value>(&prompt_envelope("outlast")).unwrap() });
    // Asked on the socket, so that only the server's clock is measured (not the wrapper's start on a
    // loaded machine): live at the start of the delivery and 50 ms in.
    let mut signal = request.clone();
    signal["native"] = serde_json::from_str::<Value>(&prompt_envelope("signal")).unwrap();
    let live = raw(&socket, format!("{signal}\n").as_bytes());
    assert_eq!(
        live["result"]["additionalContext"],
        "signal aborted at start: false, after 50 ms: false",
        "{live}: {}",
        server.log()
    );
    // The budget still holds: a route that outlasts it sees its signal abort (on the socket too,
    // since the wrapper stops waiting when the budget is spent).
    let outlasted = raw(&socket, format!("{request}\n").as_bytes());
    assert_eq!(outlasted["result"]["additionalContext"], "signal aborted: true (TimeoutError)", "{outlasted}");
    // Through the wrapper, a route that outlasts its budget is a timeout, not an answer.
    let slow = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("outlast"), &dir);
    assert_eq!((slow.code, slow.stdout.as_str()), (Some(1), ""));
    assert!(slow.stderr.contains("runtime-timeout"), "{}", slow.stderr);
}

#[test]
fn a_second_server_of_the_install_stands_by_and_takes_over_when_the_owner_is_killed() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let (mut owner, standby) = owner_and_standby(&artifact, &dir);
    assert!(
        context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir)).ends_with(&owner.child.id().to_string())
    );
    // SIGKILL: the owner cleans nothing up; the standby finds its claim stale and takes the socket.
    owner.kill();
    eventually("the takeover", || standby.log().contains("was released by its owner; took it over"));
    let answer = context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir));
    assert_eq!(answer, format!("call 1 in process {}", standby.child.id()));
}

/// The handover between two sessions of one install leaves no gap a guard falls through: a wrapper
/// that finds no socket while a standby lives waits for the takeover, within its budget, instead of
/// failing the route (a failed route lets the call run). The standby is stopped (SIGSTOP) across the
/// owner's exit, so the wrapper surely meets the gap; resumed, it takes over at once (its watch on
/// the folder saw the owner's lock go).
#[test]
fn a_wrapper_that_meets_the_gap_between_owner_and_standby_waits_for_the_takeover() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let (mut owner, standby) = owner_and_standby(&artifact, &dir);
    let signal = |name: &str, pid: u32| {
        let status = Command::new("kill").args([name, &pid.to_string()]).status().expect("kill runs");
        assert!(status.success(), "kill {name} {pid}");
    };
    signal("-STOP", standby.child.id());
    // The owner's session ends: the host closes its stdin, and it releases the socket and the lock.
    drop(owner.stdin.take());
    owner.child.wait().unwrap();
    assert!(sockets(&dir).is_empty(), "the owner left its socket behind");
    let waiting = {
        let (artifact, dir) = (artifact.clone(), dir.clone());
        std::thread::spawn(move || call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir))
    };
    std::thread::sleep(Duration::from_millis(300));
    signal("-CONT", standby.child.id());
    let answer = context(&waiting.join().unwrap());
    // Not the standalone fallback's answer (its own process): the standby's, after the takeover.
    assert_eq!(answer, format!("call 1 in process {}", standby.child.id()));
    assert!(standby.log().contains("was released by its owner; took it over"), "{}", standby.log());
}

/// With no server of the install left, nothing is coming: the wrapper does not wait, and a standby
/// that stopped leaves no marker behind that would make wrappers wait.
#[test]
fn with_every_server_gone_a_wrapper_fails_at_once_and_nothing_is_left_behind() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let (mut owner, mut standby) = owner_and_standby(&artifact, &dir);
    drop(standby.stdin.take());
    standby.child.wait().unwrap();
    drop(owner.stdin.take());
    owner.child.wait().unwrap();
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    let unavailable = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir);
    assert_eq!((unavailable.code, unavailable.stdout.as_str()), (Some(1), ""));
    assert!(unavailable.stderr.contains("runtime-unavailable"), "{}", unavailable.stderr);
}

#[test]
fn two_installs_and_two_builds_never_share_a_server() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let copy = camino::Utf8PathBuf::from_path_buf(temp.path().join("second-install")).unwrap();
    copy_tree(artifact.as_std_path(), copy.as_std_path());
    let first = started(&artifact, &dir);
    let second = Server::start(&copy, &dir);
    eventually("two sockets", || sockets(&dir).len() == 2);
    assert!(
        context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir)).ends_with(&first.child.id().to_string())
    );
    assert!(context(&call(&copy, TOOL_WRAPPER, &tool_envelope("ls"), &dir)).ends_with(&second.child.id().to_string()));
    assert!(!second.log().contains("standing by"), "another install is not a second session");

    // A rebuild with other code is another epoch: another endpoint, so its wrappers never reach the
    // old server (which refuses the new epoch), and its state starts over.
    let source = tempfile::tempdir().unwrap();
    copy_tree(Path::new("testdata/bundles/shared-runtime"), source.path());
    let route = source.path().join("src/events/tool/before.tsx");
    std::fs::write(&route, std::fs::read_to_string(&route).unwrap().replace("call ${seen}", "rebuilt call ${seen}"))
        .unwrap();
    let (_guard2, rebuilt) = common::build_root(camino::Utf8Path::from_path(source.path()).unwrap());
    let epoch = |artifact: &Utf8Path| {
        let entry = std::fs::read_to_string(artifact.join(SERVER)).unwrap();
        entry.split("epoch: \"").nth(1).unwrap().split('"').next().unwrap().to_string()
    };
    assert_ne!(epoch(&artifact), epoch(&rebuilt));
    // The old build's server refuses a request of the new epoch.
    let old_socket = sockets(&dir)
        .into_iter()
        .find(|socket| {
            raw(socket, b"{\"kind\":\"status\",\"protocolVersion\":1}\n")["runtime"]["pid"] == json!(first.child.id())
        })
        .expect("the first server's socket");
    let request = json!({ "protocolVersion": 1, "artifactEpoch": epoch(&rebuilt), "event": "tool/before",
        "hostContractRevision": "claude-code@2.1.332", "target": "claude",
        "native": serde_json::from_str::<Value>(&tool_envelope("ls")).unwrap() });
    assert_eq!(raw(&old_socket, format!("{request}\n").as_bytes())["code"], "epoch-mismatch");
    let _third = started(&rebuilt, &dir);
    eventually("three sockets", || sockets(&dir).len() == 3);
    let fresh = context(&call(&rebuilt, TOOL_WRAPPER, &tool_envelope("ls"), &dir));
    assert!(fresh.starts_with("rebuilt call 1 in process "), "{fresh}");
}

#[test]
fn the_official_mcp_sdk_client_completes_the_handshake() {
    require_node();
    let sdk = camino::Utf8Path::new("testdata/mcp-sdk");
    common::npm_installed(sdk);
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let output = Command::new("node")
        .arg("handshake.mjs")
        .arg(artifact.join(SERVER))
        .env("AGENT_BUNDLE_RUNTIME_DIR", runtime_dir(&temp))
        .current_dir(sdk)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["server"]["name"], "shared-runtime-runtime");
    assert_eq!(report["tools"], json!([]));
}

// ---------------------------------------------------------------------------------------------
// The shared runtime trusts nothing it did not create (issue 23).

/// This process's uid: the owner of a folder it has just made.
fn current_uid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    let probe = tempfile::tempdir().unwrap();
    std::fs::metadata(probe.path()).unwrap().uid()
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

/// The artifact epoch the build baked into the server entry.
fn epoch_of(artifact: &Utf8Path) -> String {
    let entry = std::fs::read_to_string(artifact.join(SERVER)).unwrap();
    entry.split("epoch: \"").nth(1).unwrap().split('"').next().unwrap().to_string()
}

/// The endpoint's socket in `dir`, computed as the runtime does: a hash of `<epoch>:<install root>`.
fn socket_in(artifact: &Utf8Path, dir: &Path) -> PathBuf {
    let root = std::fs::canonicalize(artifact).unwrap();
    let id = format!("{}:{}", epoch_of(artifact), root.display());
    dir.join(format!("event-{}.sock", &agent_bundle::vocabulary::digest::sha256_hex(id.as_bytes())[..32]))
}

/// A private runtime folder made by the test (mode 0700), as the server would make it.
fn private_dir(dir: &Path) {
    std::fs::create_dir(dir).unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
}

/// A server that is not ours: it listens on `socket` and answers each connection's request line with
/// the next of `replies`, recording the requests it was sent.
struct FakeServer {
    requests: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    thread: Option<std::thread::JoinHandle<()>>,
    socket: PathBuf,
}

impl FakeServer {
    fn start(socket: &Path, replies: Vec<String>) -> FakeServer {
        let listener = std::os::unix::net::UnixListener::bind(socket).unwrap();
        let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = requests.clone();
        let thread = std::thread::spawn(move || {
            for reply in replies {
                let Ok((stream, _)) = listener.accept() else { return };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                let _ = reader.read_line(&mut line);
                seen.lock().unwrap().push(line);
                let _ = (&stream).write_all(reply.as_bytes());
            }
        });
        FakeServer { requests, thread: Some(thread), socket: socket.to_path_buf() }
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        // Wake an accept that is still waiting (the replies not all asked for), then join.
        if let Some(thread) = self.thread.take() {
            while !thread.is_finished() {
                if UnixStream::connect(&self.socket).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = thread.join();
        }
    }
}

/// A failure as the wrapper contract has it: exit 1, nothing on stdout, one line on stderr.
fn one_line_failure(run: &Run, wanted: &[&str]) {
    assert_eq!((run.code, run.stdout.as_str()), (Some(1), ""), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "one stderr line: {}", run.stderr);
    for part in wanted {
        assert!(run.stderr.contains(part), "{part:?} not in: {}", run.stderr);
    }
}

/// The server refuses a folder it cannot trust: one line saying why, exit 1, nothing made in it.
fn refused_by_the_server(artifact: &Utf8Path, dir: &Path, wanted: &[&str]) {
    let mut server = Server::start(artifact, dir);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the server did not refuse {}: {}",
            dir.display(),
            server.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(1), "{}", server.log());
    let log = server.log();
    assert!(log.contains("refusing to serve"), "{log}");
    for part in wanted {
        assert!(log.contains(part), "{part:?} not in: {log}");
    }
}

/// Another user (uid 65534) made `/tmp/agent-bundle-<uid>` first and runs a server in it that answers
/// `allow`. Our server refuses the folder instead of dying on a chmod it may not do, and our wrappers
/// refuse it with one line (no fallback: a fallback would hide that someone holds the folder), never
/// asking the stranger. A folder of ours with the stranger's socket in it is refused the same way.
#[test]
fn a_runtime_folder_or_socket_of_another_user_is_never_used() {
    require_node();
    assert_eq!(
        current_uid(),
        0,
        "this test plays a second user (uid 65534) by chown, which needs root: run it as root, as CI does (the \
         symlink and mode tests need no root)"
    );
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    private_dir(&dir);
    let socket = socket_in(&artifact, &dir);
    let allow = format!(
        "{}\n",
        json!({ "status": "ok", "protocolVersion": 1, "artifactEpoch": epoch_of(&artifact),
            "result": { "outcome": "allow" } })
    );
    let stranger = FakeServer::start(&socket, vec![allow.clone(), allow.clone(), allow]);
    std::os::unix::fs::chown(&socket, Some(65534), Some(65534)).unwrap();
    std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
    let dir_text = dir.display().to_string();

    let shared_only = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir);
    one_line_failure(
        &shared_only,
        &["runtime-untrusted", &dir_text, "belongs to uid 65534", "not to this user (uid 0)"],
    );
    let guard = call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir);
    one_line_failure(&guard, &["runtime-untrusted", &dir_text, "belongs to uid 65534"]);
    refused_by_the_server(&artifact, &dir, &[&dir_text, "belongs to uid 65534"]);
    let owned = std::fs::symlink_metadata(&dir).unwrap();
    assert_eq!((std::os::unix::fs::MetadataExt::uid(&owned), mode(&dir)), (65534, 0o700), "the folder was changed");

    // The folder ours, the socket in it the stranger's.
    std::os::unix::fs::chown(&dir, Some(0), Some(0)).unwrap();
    let socket_text = socket.display().to_string();
    let run = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir);
    one_line_failure(&run, &["runtime-untrusted", &socket_text, "belongs to uid 65534"]);
    assert!(stranger.requests().is_empty(), "the stranger was asked: {:?}", stranger.requests());
}

/// A runtime folder that is a link (even to a good folder, even named with a trailing slash), or a
/// folder of ours that others may write to, or not a folder: refused by the server (which follows
/// and changes nothing) and by the wrapper. No root needed.
#[test]
fn a_symlinked_open_or_odd_runtime_folder_is_refused_and_left_as_it_is() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let target = temp.path().join("elsewhere");
    std::fs::create_dir(&target).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755)).unwrap();
    let link = runtime_dir(&temp);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let link_text = link.display().to_string();
    for dir in [link.clone(), PathBuf::from(format!("{link_text}/"))] {
        refused_by_the_server(&artifact, &dir, &[&link_text, "is a symbolic link"]);
        let run = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir);
        one_line_failure(&run, &["runtime-untrusted", &link_text, "is a symbolic link", "no server in it is asked"]);
    }
    assert_eq!(mode(&target), 0o755, "the link's target's mode was changed");
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0, "something was made through the link");
    // A link to a folder that would pass is refused all the same.
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o700)).unwrap();
    refused_by_the_server(&artifact, &link, &["is a symbolic link"]);

    // Our own folder, open to others: refused, not "repaired" (anything may have been put in it).
    let open = temp.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    refused_by_the_server(&artifact, &open, &["has mode 0755, not 0700"]);
    assert_eq!(mode(&open), 0o755);
    let run = call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &open);
    one_line_failure(&run, &["runtime-untrusted", "has mode 0755, not 0700", "XDG_RUNTIME_DIR"]);

    let file = temp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    refused_by_the_server(&artifact, &file, &["is not a folder"]);
}

/// A lock that names a live process which is not its writer (the test's own pid with another start
/// time, pid 1, a pid with no start time recorded), or that is empty or garbled, is stale: a server
/// takes the endpoint at once instead of standing by for ever, and a wrapper does not wait for a
/// server it promises.
#[test]
fn reused_empty_and_garbled_locks_are_stale() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let me = std::process::id();
    let text = |text: String| move |lock: &Path| std::fs::write(lock, &text).unwrap();
    let live_lock = json!({ "pid": me, "startTime": "1", "instanceId": "x" }).to_string();
    type MakeLock = Box<dyn Fn(&Path)>;
    let locks: Vec<(&str, MakeLock)> = vec![
        ("a live pid with another start time", Box::new(text(live_lock.clone()))),
        ("pid 1", Box::new(text(json!({ "pid": 1, "startTime": "2", "instanceId": "x" }).to_string()))),
        ("a live pid and no start time", Box::new(text(json!({ "pid": me }).to_string()))),
        ("an empty lock", Box::new(text(String::new()))),
        ("a garbled lock", Box::new(text("{\"pid\": 12".to_string()))),
        // Not a file: nobody's claim, whatever it holds or points at.
        (
            "a lock that is a folder",
            Box::new(|lock: &Path| {
                std::fs::create_dir(lock).unwrap();
                std::fs::write(lock.join("inside"), "x").unwrap();
            }),
        ),
        (
            "a lock that is a link to a live claim",
            Box::new(move |lock: &Path| {
                let elsewhere = lock.with_extension("elsewhere");
                std::fs::write(&elsewhere, &live_lock).unwrap();
                std::os::unix::fs::symlink(&elsewhere, lock).unwrap();
            }),
        ),
        ("a dangling link", Box::new(|lock: &Path| std::os::unix::fs::symlink("/nonexistent/lock", lock).unwrap())),
    ];
    for (what, make) in locks {
        let temp = tempfile::tempdir().unwrap();
        let dir = runtime_dir(&temp);
        private_dir(&dir);
        let socket = socket_in(&artifact, &dir);
        let lock = socket.with_extension("sock.lock");
        make(&lock);
        // No server yet: nothing is coming, so the guard falls back to rendering in its own process at
        // once rather than wait out its budget (5000 ms) for the lock's holder.
        let asked = Instant::now();
        let alone = context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir));
        assert!(alone.starts_with("call 1 in process "), "{what}: {alone}");
        assert!(asked.elapsed() < Duration::from_millis(2500), "{what}: the wrapper waited {:?}", asked.elapsed());

        let server = Server::start(&artifact, &dir);
        let pid = server.child.id();
        eventually(&format!("the server owning the endpoint beside {what}"), || {
            try_raw(&socket, b"{\"kind\":\"status\",\"protocolVersion\":1}\n")
                .is_some_and(|status| status["runtime"]["pid"] == json!(pid))
        });
        assert!(!server.log().contains("standing by"), "{what}: {}", server.log());
        let held: Value = serde_json::from_str(&std::fs::read_to_string(&lock).unwrap()).unwrap();
        assert_eq!(held["pid"], json!(pid), "{what}");
        assert!(held["startTime"].is_string(), "{what}: the lock records the start time: {held}");
        assert_eq!(context(&call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir)), "prompt 1", "{what}");
    }
}

/// Servers started together beside a dead owner's lock (its owner killed): in every round exactly one
/// takes the endpoint and the others stand by, none dies (two claiming it used to end with one dying
/// on EADDRINUSE).
#[test]
fn servers_started_together_beside_a_dead_owners_lock_elect_exactly_one_owner() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let socket = socket_in(&artifact, &dir);
    let mut first = started(&artifact, &dir);
    first.kill();
    const ROUNDS: usize = 20;
    const SERVERS: usize = 3;
    for round in 1..=ROUNDS {
        let lock: Value = serde_json::from_str(&std::fs::read_to_string(socket.with_extension("sock.lock")).unwrap())
            .unwrap_or_else(|_| panic!("round {round}: no dead owner's lock"));
        let mut servers: Vec<Server> = (0..SERVERS).map(|_| Server::start(&artifact, &dir)).collect();
        let owner_pid = || {
            let stream = UnixStream::connect(&socket).ok()?;
            drop(stream);
            raw(&socket, b"{\"kind\":\"status\",\"protocolVersion\":1}\n")["runtime"]["pid"].as_u64()
        };
        let standing_by = |server: &Server| server.log().contains("is owned by another process; standing by");
        let started = Instant::now();
        let owner = loop {
            let owner = owner_pid();
            let settled = servers.iter().filter(|s| owner == Some(u64::from(s.child.id())) || standing_by(s)).count();
            if settled == SERVERS {
                break owner.unwrap();
            }
            if started.elapsed() > Duration::from_secs(10) {
                let logs: Vec<_> =
                    servers.iter_mut().map(|s| (s.child.id(), s.child.try_wait().unwrap(), s.log())).collect();
                panic!(
                    "round {round}: beside {lock}, not one owner and {} standbys (owner {owner:?}): {logs:#?}",
                    SERVERS - 1
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // A moment later still one owner, the others standing by, and every one alive.
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(owner_pid(), Some(owner), "round {round}");
        let owners: Vec<_> = servers.iter().filter(|s| u64::from(s.child.id()) == owner).collect();
        assert_eq!(owners.len(), 1, "round {round}");
        assert_eq!(servers.iter().filter(|s| standing_by(s)).count(), SERVERS - 1, "round {round}");
        for server in &mut servers {
            assert!(server.child.try_wait().unwrap().is_none(), "round {round}: a server died: {}", server.log());
            assert!(!server.log().contains("failed"), "round {round}: {}", server.log());
        }
        // SIGKILL for all: the owner's lock is the next round's dead owner's.
        for server in &mut servers {
            server.kill();
        }
    }
}

/// One request per connection: more after it (in the same write, or while it renders) is an error,
/// and a request that came with more is not rendered; a connection that sends no complete request
/// is closed after 5 s; at most 64 connections are open at once, and when all are taken, the oldest
/// one without a whole request makes room for the next (closed without an answer).
#[test]
fn a_connection_carries_one_request_within_a_time_limit_and_connections_are_bounded() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let _server = started(&artifact, &dir);
    let socket = sockets(&dir).remove(0);
    let request = |native: String| {
        let request = json!({ "protocolVersion": 1, "artifactEpoch": epoch_of(&artifact), "event": "tool/before",
            "hostContractRevision": "claude-code@2.1.332", "target": "claude",
            "native": serde_json::from_str::<Value>(&native).unwrap() });
        format!("{request}\n")
    };
    let two = format!("{}{}", request(tool_envelope("ls")), request(tool_envelope("ls")));
    let reply = raw(&socket, two.as_bytes());
    assert_eq!(reply["code"], "invalid-message", "{reply}");
    assert!(reply["message"].as_str().unwrap().contains("one request per connection"), "{reply}");
    // Neither was rendered.
    assert!(context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir)).starts_with("call 1 "));

    // More while the first renders (the prompt route sleeps 3 s): refused at once.
    let mut stream = UnixStream::connect(&socket).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let slow = json!({ "protocolVersion": 1, "artifactEpoch": epoch_of(&artifact), "event": "prompt/submit",
        "hostContractRevision": "claude-code@2.1.332", "target": "claude",
        "native": serde_json::from_str::<Value>(&prompt_envelope("sleep")).unwrap() });
    stream.write_all(format!("{slow}\n").as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    stream.write_all(request(tool_envelope("ls")).as_bytes()).unwrap();
    let mut text = String::new();
    let _ = stream.read_to_string(&mut text);
    assert!(sent.elapsed() < Duration::from_secs(2), "the extra request waited for the first's answer");
    let reply: Value = serde_json::from_str(text.trim_end()).unwrap();
    assert_eq!(reply["code"], "invalid-message", "{reply}");

    // 64 idle connections (the oldest with half a request) hold every slot; a 65th with a whole request
    // is served all the same: the oldest unfinished one is closed to make room, without an answer (its
    // request was never taken: a wrapper asks again).
    let mut idle: Vec<UnixStream> = (0..64).map(|_| UnixStream::connect(&socket).unwrap()).collect();
    idle[0].write_all(b"{\"protocolVersion\":").unwrap();
    let opened = Instant::now();
    let served = raw(&socket, request(tool_envelope("ls")).as_bytes());
    assert_eq!(served["status"], "ok", "{served}");
    assert!(served["result"]["additionalContext"].as_str().unwrap().starts_with("call 2 "), "{served}");
    let mut evicted = idle.remove(0);
    evicted.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut text = String::new();
    let _ = evicted.read_to_string(&mut text);
    assert_eq!(text, "", "the evicted connection is closed without an answer");
    // Each other idle one is answered and closed after 5 s without a complete request.
    for stream in &mut idle {
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut text = String::new();
        let _ = stream.read_to_string(&mut text);
        let reply: Value = serde_json::from_str(text.trim_end()).unwrap_or_else(|_| panic!("{text:?}"));
        assert_eq!(reply["code"], "invalid-message", "{reply}");
        assert!(reply["message"].as_str().unwrap().contains("no complete request within 5000 ms"), "{reply}");
    }
    let waited = opened.elapsed();
    assert!(waited >= Duration::from_millis(4500) && waited < Duration::from_secs(9), "closed after {waited:?}");
    // The slots are free again.
    drop(idle);
    eventually("a slot", || raw(&socket, b"{\"kind\":\"status\",\"protocolVersion\":1}\n")["status"] == "ok");
    assert!(context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir)).starts_with("call 3 "));
}

/// A same-user server whose reply is not a legal answer here: the wrapper checks the result against
/// its own contract and projects it itself, so an illegal result (or the old shape's ready-made
/// `output`) is a failure of the hook and never reaches the host, and a legal one is answered in the
/// host's own words.
#[test]
fn an_illegal_reply_never_reaches_the_host() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    private_dir(&dir);
    let epoch = epoch_of(&artifact);
    let ok = |result: Value| {
        format!("{}\n", json!({ "status": "ok", "protocolVersion": 1, "artifactEpoch": epoch, "result": result }))
    };
    let illegal = [
        (
            format!(
                "{}\n",
                json!({ "status": "ok", "protocolVersion": 1, "artifactEpoch": epoch,
                    "output": { "anything": "goes", "continue": false } })
            ),
            "does not have the protocol's shape",
        ),
        (ok(json!({ "anything": "goes", "continue": false })), "unknown key \"anything\""),
        (ok(json!({ "outcome": "deny" })), "a denial needs a non-empty reason"),
        (ok(json!({ "outcome": "deny", "reason": "no", "updatedInput": {} })), "cannot be combined with a denial"),
        (ok(json!({ "outcome": "stop" })), "outcome \"stop\" is not supported"),
        (format!("{}{}", ok(json!({ "outcome": "continue" })), ok(json!({ "outcome": "continue" }))), "shape"),
    ];
    let legal = ok(json!({ "outcome": "deny", "reason": "from a server of ours" }));
    let mut replies: Vec<String> = illegal.iter().map(|(reply, _)| reply.clone()).collect();
    replies.push(legal);
    let fake = FakeServer::start(&socket_in(&artifact, &dir), replies);
    for (reply, wanted) in &illegal {
        let run = call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir);
        one_line_failure(&run, &["invalid-message", wanted]);
        assert!(!run.stderr.contains("goes"), "{reply}: {}", run.stderr);
    }
    let denied = call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir);
    assert_eq!(denied.code, Some(0), "{}", denied.stderr);
    assert_eq!(
        denied.stdout,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"from a server of ours"}}"#
    );
    assert_eq!(fake.requests().len(), illegal.len() + 1);
}

/// Without AGENT_BUNDLE_RUNTIME_DIR the folder is agent-bundle in $XDG_RUNTIME_DIR, for the server
/// and its wrappers alike.
#[test]
fn the_runtime_folder_is_in_xdg_runtime_dir_when_it_is_set() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let xdg = temp.path().join("xdg");
    private_dir(&xdg);
    let server = Server::start_with(&artifact, &xdg, &[("XDG_RUNTIME_DIR", &xdg)]);
    let dir = xdg.join("agent-bundle");
    eventually("the socket in $XDG_RUNTIME_DIR/agent-bundle", || !sockets(&dir).is_empty());
    assert_eq!(mode(&dir), 0o700);
    let mut wrapper = Command::new("node")
        .arg(artifact.join(PROMPT_WRAPPER))
        .current_dir(&artifact)
        .env_remove("AGENT_BUNDLE_RUNTIME_DIR")
        .env("XDG_RUNTIME_DIR", &xdg)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wrapper.stdin.take().unwrap().write_all(prompt_envelope("hello").as_bytes()).unwrap();
    let output = wrapper.wait_with_output().unwrap();
    let run = Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert_eq!(context(&run), "prompt 1", "{}", server.log());
}

/// A fail-closed shared route blocks the call (the host's blocking exit, 2) on every failure: an
/// illegal result from the server, a failure reported by it, a runtime folder it cannot trust, and a
/// route that throws in the real server.
#[test]
fn a_fail_closed_shared_route_blocks_on_an_illegal_reply_a_failure_and_an_untrusted_folder() {
    require_node();
    let source = tempfile::tempdir().unwrap();
    copy_tree(Path::new("testdata/bundles/shared-runtime"), source.path());
    let route = source.path().join("src/events/tool/before.tsx");
    let text = std::fs::read_to_string(&route).unwrap();
    std::fs::write(&route, text.replace("fallback: 'standalone',", "fallback: 'standalone',\n  failClosed: true,"))
        .unwrap();
    let (_guard, artifact) = common::build_root(camino::Utf8Path::from_path(source.path()).unwrap());
    let temp = tempfile::tempdir().unwrap();
    let blocked = |run: &Run, wanted: &[&str]| {
        assert_eq!((run.code, run.stdout.as_str()), (Some(2), ""), "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        for part in wanted.iter().chain(&["the hook is fail-closed, so the tool call is blocked"]) {
            assert!(run.stderr.contains(part), "{part:?} not in: {}", run.stderr);
        }
    };

    let dir = runtime_dir(&temp);
    private_dir(&dir);
    let epoch = epoch_of(&artifact);
    let replies = vec![
        format!(
            "{}\n",
            json!({ "status": "ok", "protocolVersion": 1, "artifactEpoch": epoch, "result": { "anything": "goes" } })
        ),
        format!(
            "{}\n",
            json!({ "status": "error", "protocolVersion": 1, "artifactEpoch": epoch, "code": "runtime-failed",
                "message": "it broke" })
        ),
    ];
    let fake = FakeServer::start(&socket_in(&artifact, &dir), replies);
    blocked(
        &call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir),
        &["invalid-message", "unknown key \"anything\""],
    );
    blocked(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir), &["runtime-failed: it broke"]);
    drop(fake);

    let open = temp.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    blocked(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &open), &["runtime-untrusted", "mode 0755"]);

    let real = temp.path().join("real");
    let _server = started(&artifact, &real);
    blocked(&call(&artifact, TOOL_WRAPPER, &tool_envelope("throw-me"), &real), &["runtime-failed", "on purpose"]);
}

// ---------------------------------------------------------------------------------------------
// Stalled clients and stale locks (issue 44).

/// Waits (at most `limit`) until `condition` holds.
fn eventually_within(limit: Duration, what: &str, mut condition: impl FnMut() -> bool) {
    let started = Instant::now();
    while !condition() {
        assert!(started.elapsed() < limit, "timed out ({limit:?}) waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A node process that holds `count` connections to a socket, every other one having sent one byte
/// and then nothing, the rest nothing at all. It opens them one after the other (a connection the
/// full backlog refuses is tried again), says `ready` once all are open, and answers each line on its
/// stdin with how many are open and how many the server has closed. Node rather than this process:
/// a thousand descriptors fit within the limit node raises itself to, not always within the test's.
struct Staller {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

const STALLER: &str = r#"
const net = require('node:net');
const [socket, count] = [process.argv[1], Number(process.argv[2])];
let opened = 0;
let closed = 0;
const held = [];
const open = (i) => {
  if (i === count) return console.log('ready');
  const connection = net.createConnection(socket);
  let connected = false;
  // Whatever the server sends is read (and dropped), so that its closing is seen.
  connection.resume();
  connection.on('connect', () => {
    connected = true;
    held.push(connection);
    if (i % 2 === 0) connection.write('{');
    opened += 1;
    open(i + 1);
  });
  connection.on('error', () => {
    if (!connected) setTimeout(() => open(i), 10);
  });
  connection.on('close', () => {
    if (connected) closed += 1;
  });
};
open(0);
process.stdin.on('data', () => console.log(JSON.stringify({ opened, closed })));
process.stdin.on('end', () => process.exit(0));
setTimeout(() => process.exit(0), 120000);
"#;

impl Staller {
    fn start(socket: &Path, count: usize) -> Staller {
        let mut child = Command::new("node")
            .args(["-e", STALLER, socket.to_str().unwrap(), &count.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs the staller");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "ready", "the staller did not open its {count} connections");
        Staller { child, stdin, stdout }
    }

    /// (open, closed by the server) so far.
    fn counts(&mut self) -> (u64, u64) {
        writeln!(self.stdin).unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        let counts: Value = serde_json::from_str(&line).unwrap();
        (counts["opened"].as_u64().unwrap(), counts["closed"].as_u64().unwrap())
    }
}

impl Drop for Staller {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Stalled clients never starve a real request (issue 44): with hundreds of connections open to the
/// socket, each having sent one byte or nothing, a wrapper's request through the route still gets
/// the route's own answer from the server (not the standalone fallback, not runtime-failed). The
/// oldest connections without a whole request make room; the times are printed (`--nocapture`),
/// not asserted.
#[test]
fn stalled_connections_never_starve_a_wrappers_request() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let server = started(&artifact, &dir);
    let pid = server.child.id();
    let socket = sockets(&dir).remove(0);
    let request = json!({ "protocolVersion": 1, "artifactEpoch": epoch_of(&artifact), "event": "tool/before",
        "hostContractRevision": "claude-code@2.1.332", "target": "claude",
        "native": serde_json::from_str::<Value>(&tool_envelope("ls")).unwrap() });
    let request = format!("{request}\n");
    let mut tool_calls = 0;
    for (round, count) in [0usize, 300, 1000].into_iter().enumerate() {
        let mut staller = (count > 0).then(|| Staller::start(&socket, count));
        if let Some(staller) = &mut staller {
            // The server has taken them all in: all but the 64 it keeps were made room for.
            let evicted = (count as u64).saturating_sub(64);
            eventually_within(Duration::from_secs(20), "the server taking the stalled connections in", || {
                staller.counts().1 >= evicted
            });
        }
        let asked = Instant::now();
        let reply = raw(&socket, request.as_bytes());
        let raw_time = asked.elapsed();
        tool_calls += 1;
        assert_eq!(reply["status"], "ok", "{count} stalled: {reply}");
        assert_eq!(reply["result"]["additionalContext"], format!("call {tool_calls} in process {pid}"), "{reply}");

        let asked = Instant::now();
        let tool = call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir);
        let tool_time = asked.elapsed();
        tool_calls += 1;
        // The server's answer (its process), not the fallback's.
        assert_eq!(context(&tool), format!("call {tool_calls} in process {pid}"), "{count} stalled");

        let asked = Instant::now();
        let prompt = call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir);
        let prompt_time = asked.elapsed();
        assert_eq!(context(&prompt), format!("prompt {}", round + 1), "{count} stalled");

        let (opened, closed) = staller.as_mut().map_or((0, 0), Staller::counts);
        eprintln!(
            "{count} stalled connections ({opened} opened, {closed} closed by the server): a request on the \
             socket answered in {raw_time:?}; through the wrappers, the tool route in {tool_time:?}, the prompt \
             route in {prompt_time:?}"
        );
    }
    assert!(server.log().is_empty() || !server.log().contains("failed"), "{}", server.log());
}

/// Every stale lock form (issue 44) is taken over by a server started beside it, in a fresh 0700
/// folder with no wrapper asked first: empty, cut short, garbage, a dead pid, a folder, a FIFO, a
/// lock of mode 0000 or of another owner, and an empty lock where the socket's path is longer than a
/// socket address holds (the server used to bind a cut path and die in chmod). The server owns the
/// endpoint (its lock names it) and the shared-only route answers through it.
#[test]
fn a_server_takes_the_endpoint_beside_every_stale_lock_form() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let dead = {
        let mut child = Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        child.id()
    };
    let claim =
        json!({ "pid": dead, "startTime": "12345", "instanceId": "0b7f8a4e-dead-4bad-8bad-000000000000" }).to_string();
    type MakeLock = Box<dyn Fn(&Path)>;
    let bytes = |bytes: Vec<u8>| -> MakeLock { Box::new(move |lock: &Path| std::fs::write(lock, &bytes).unwrap()) };
    let mut forms: Vec<(String, MakeLock, bool)> = vec![
        ("an empty lock".into(), bytes(Vec::new()), false),
        ("a dead pid's lock".into(), bytes(claim.clone().into_bytes()), false),
        ("garbage bytes".into(), bytes(vec![0xff, 0xfe, 0x00, 0x7b, 0x0a, 0x80]), false),
        ("a newline".into(), bytes(b"\n".to_vec()), false),
        ("null".into(), bytes(b"null".to_vec()), false),
        ("an array".into(), bytes(b"[1234]".to_vec()), false),
        ("no pid".into(), bytes(b"{}".to_vec()), false),
        ("a negative pid".into(), bytes(br#"{"pid":-1,"startTime":"1"}"#.to_vec()), false),
        ("a pid as text".into(), bytes(br#"{"pid":"1","startTime":"1"}"#.to_vec()), false),
        ("a pid too large".into(), bytes(br#"{"pid":1e30,"startTime":"1"}"#.to_vec()), false),
        (
            "a folder".into(),
            Box::new(|lock: &Path| {
                std::fs::create_dir(lock).unwrap();
                std::fs::write(lock.join("inside"), "x").unwrap();
            }),
            false,
        ),
        (
            "a FIFO".into(),
            Box::new(|lock: &Path| assert!(Command::new("mkfifo").arg(lock).status().unwrap().success())),
            false,
        ),
        (
            "mode 0000".into(),
            Box::new({
                let claim = claim.clone();
                move |lock: &Path| {
                    std::fs::write(lock, &claim).unwrap();
                    std::fs::set_permissions(lock, std::fs::Permissions::from_mode(0o000)).unwrap();
                }
            }),
            false,
        ),
        (
            "mode 0666".into(),
            Box::new(|lock: &Path| {
                std::fs::write(lock, "").unwrap();
                std::fs::set_permissions(lock, std::fs::Permissions::from_mode(0o666)).unwrap();
            }),
            false,
        ),
    ];
    // Bound through the folder's descriptor (/proc/self/fd), which only Linux has; elsewhere the server
    // refuses such a path with a hint.
    if cfg!(target_os = "linux") {
        forms.push(("an empty lock beside a socket path too long for an address".into(), bytes(Vec::new()), true));
    }
    for cut in [1, 2, 8, claim.len() / 2, claim.len() - 1] {
        forms.push((format!("a claim cut at byte {cut}"), bytes(claim.as_bytes()[..cut].to_vec()), false));
    }
    if current_uid() == 0 {
        forms.push((
            "another owner's lock".into(),
            Box::new({
                let claim = claim.clone();
                move |lock: &Path| {
                    std::fs::write(lock, &claim).unwrap();
                    std::os::unix::fs::chown(lock, Some(65534), Some(65534)).unwrap();
                }
            }),
            false,
        ));
    }
    for (what, make, long) in &forms {
        let temp = tempfile::tempdir().unwrap();
        let dir = if *long { temp.path().join("r".repeat(80)) } else { runtime_dir(&temp) };
        private_dir(&dir);
        let socket = socket_in(&artifact, &dir);
        assert_eq!(socket.as_os_str().len() > 107, *long, "{what}: {}", socket.display());
        let lock = socket.with_extension("sock.lock");
        make(&lock);
        let mut server = Server::start(&artifact, &dir);
        let pid = server.child.id();
        eventually_within(Duration::from_secs(20), &format!("the server owning the endpoint beside {what}"), || {
            // Read only once it is a file: opening the FIFO would wait for a writer.
            let file = std::fs::symlink_metadata(&lock).is_ok_and(|meta| meta.is_file());
            let held = file
                .then(|| std::fs::read_to_string(&lock).ok())
                .flatten()
                .and_then(|text| serde_json::from_str::<Value>(&text).ok());
            let owned = held.is_some_and(|held| held["pid"] == json!(pid));
            // A socket, made the user's alone: the server got past its chmod (where it used to die).
            let listening = std::fs::symlink_metadata(&socket).is_ok_and(|meta| {
                std::os::unix::fs::FileTypeExt::is_socket(&meta.file_type())
                    && meta.permissions().mode() & 0o777 == 0o600
            });
            assert!(server.child.try_wait().unwrap().is_none(), "{what}: the server died: {}", server.log());
            owned && listening
        });
        assert!(!server.log().contains("standing by"), "{what}: {}", server.log());
        assert_eq!(mode(&lock), 0o600, "{what}");
        // The shared-only route answers (no fallback): the server serves the endpoint.
        assert_eq!(
            context(&call(&artifact, PROMPT_WRAPPER, &prompt_envelope("hello"), &dir)),
            "prompt 1",
            "{what}: {}",
            server.log()
        );
        if !*long {
            let status = raw(&socket, b"{\"kind\":\"status\",\"protocolVersion\":1}\n");
            assert_eq!(status["runtime"]["pid"], json!(pid), "{what}");
        }
        // Nothing of the takeover is left behind: the folder holds the lock and the socket.
        let left: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(left.len(), 2, "{what}: {left:?}");
        server.kill();
    }
}

/// The bytes of unfinished requests stay bounded (one largest message over every connection: here
/// 64 MiB and 64 KiB, for the default maxInputBytes of 64 MiB) without refusing the newcomer: when
/// they are over, the oldest unfinished requests are dropped (closed without an answer) and the
/// newest go on; a whole request is served meanwhile.
#[test]
fn unfinished_requests_over_the_byte_limit_make_room_oldest_first() {
    require_node();
    let (_guard, artifact) = build_bundle("shared-runtime");
    let temp = tempfile::tempdir().unwrap();
    let dir = runtime_dir(&temp);
    let server = started(&artifact, &dir);
    let socket = sockets(&dir).remove(0);
    // Five unfinished requests (no newline) of 14 MB each: 70 MB in all, more than is held at once.
    let part = vec![b' '; 14_000_000];
    let mut held: Vec<UnixStream> = Vec::new();
    for _ in 0..5 {
        let mut stream = UnixStream::connect(&socket).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        stream.write_all(&part).unwrap();
        held.push(stream);
    }
    // The oldest was dropped to make room: closed without an answer (before its 5 s were up, it would
    // have been answered with an error then).
    let mut text = String::new();
    let _ = held[0].read_to_string(&mut text);
    assert_eq!(text, "", "the oldest unfinished request is dropped without an answer");
    // The newest still goes on: it is finished and served.
    let last = held.last_mut().unwrap();
    last.write_all(b"\n").unwrap();
    let mut text = String::new();
    let _ = last.read_to_string(&mut text);
    let reply: Value = serde_json::from_str(text.trim_end()).unwrap_or_else(|_| panic!("{text:?}"));
    assert_eq!(reply["code"], "invalid-message", "{reply}");
    assert!(!reply["message"].as_str().unwrap().contains("bytes of unfinished requests"), "{reply}");
    let pid = server.child.id();
    assert_eq!(context(&call(&artifact, TOOL_WRAPPER, &tool_envelope("ls"), &dir)), format!("call 1 in process {pid}"));
}
