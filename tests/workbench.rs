//! The Workbench, as its page uses it: the real binary serving a copy of the guards bundle on
//! 127.0.0.1, spoken to over HTTP. The page needs nothing from the network; the API refuses a missing
//! token, another origin and another host name; a run goes through the real wrapper; editing a handler
//! rebuilds and changes the answer.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{cli, copy_tree, require_node};
use serde_json::{Value, json};

struct Served {
    child: Child,
    authority: String,
    token: String,
}

impl Served {
    fn child_alive(&self) -> bool {
        // `try_wait` needs `&mut`; a signal 0 asks the same without reaping.
        std::process::Command::new("kill")
            .arg("-0")
            .arg(self.child.id().to_string())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(root: &std::path::Path) -> Served {
    serve_with(root, &[])
}

fn serve_with(root: &std::path::Path, env: &[(&str, &std::path::Path)]) -> Served {
    let mut command = cli();
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .args(["agent-bundle", "workbench", "--root"])
        .arg(root)
        .arg("--snapshot-dir")
        .arg(root.join("snapshots"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("Workbench on ").unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, query) = rest.split_once("/?token=").unwrap();
    assert!(authority.starts_with("127.0.0.1:"), "loopback only: {authority}");
    Served { child, authority: authority.to_string(), token: query.to_string() }
}

/// One HTTP request; the status code and the body.
fn request(served: &Served, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(&served.authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut text = format!("{method} {path} HTTP/1.1\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(body);
    stream.write_all(text.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

fn api(served: &Served, method: &str, path: &str, body: &str) -> (u16, Value) {
    let host = served.authority.clone();
    let origin = format!("http://{host}");
    let (status, body) = request(
        served,
        method,
        path,
        &[("host", &host), ("origin", &origin), ("x-agent-bundle-token", &served.token)],
        body,
    );
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn deny_guard_name(state: &Value) -> String {
    state["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == "claude" && h["name"].as_str().unwrap().contains("deny-dangerous"))
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn the_workbench_lists_runs_and_rebuilds_and_refuses_what_is_not_its_own() {
    require_node();
    let work = tempfile::tempdir().unwrap();
    copy_tree(std::path::Path::new("testdata/bundles/guards"), work.path());
    let served = serve(work.path());
    let host = served.authority.clone();

    // The page is self-contained: nothing it loads comes from elsewhere.
    let (status, page) = request(&served, "GET", "/", &[("host", &host)], "");
    assert_eq!(status, 200);
    assert!(page.contains("<title>agent-bundle Workbench</title>"));
    assert!(!page.contains("http://") && !page.contains("https://") && !page.contains("src=\"//"), "external assets");

    // Without the token, from another origin, or under another host name: refused.
    let (status, _) = request(&served, "GET", "/api/state", &[("host", &host)], "");
    assert_eq!(status, 403, "no token");
    let token = served.token.clone();
    let (status, _) = request(
        &served,
        "POST",
        "/api/run",
        &[("host", &host), ("origin", "http://evil.example"), ("x-agent-bundle-token", &token)],
        "{}",
    );
    assert_eq!(status, 403, "another origin");
    let (status, _) =
        request(&served, "GET", "/api/state", &[("host", "attacker.example:80"), ("x-agent-bundle-token", &token)], "");
    assert_eq!(status, 403, "a rebound host name");

    // The hook list, with a prefilled input per hook.
    let (status, state) = api(&served, "GET", "/api/state", "");
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["ok"], true, "{}", state["diagnostics"]);
    let guard = deny_guard_name(&state);
    let row = state["hooks"].as_array().unwrap().iter().find(|h| h["name"] == guard.as_str()).unwrap();
    assert_eq!(row["nativeEvent"], "PreToolUse");
    assert_eq!(row["declaration"]["handler"]["path"], "src/hooks/deny-dangerous.ts");
    assert!(row["declaration"]["declaredAt"].as_str().unwrap().starts_with("agent-bundle.config.ts:"));
    assert!(row["sample"]["sessionId"].is_string(), "{}", row["sample"]);
    // The native form starts from the envelope the real Claude Code sent, which replays as it is.
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string("testdata/envelopes/claude-code/PreToolUse.json").unwrap())
            .unwrap();
    assert_eq!(row["nativeSample"], recorded);
    let replay = json!({ "host": "claude", "hook": row["name"], "native": recorded }).to_string();
    let (status, replayed) = api(&served, "POST", "/api/run", &replay);
    assert_eq!((status, replayed["exitCode"].as_i64()), (200, Some(0)), "{replayed}");

    // A run goes through the real wrapper: the envelope sent, the raw answer, the decoded outcome.
    let input = json!({ "sessionId": "s", "transcriptPath": "/tmp/t.jsonl", "cwd": "/tmp", "toolName": "Bash",
        "toolInput": { "command": "rm -rf /" }, "toolUseId": "toolu_1" });
    let body = json!({ "host": "claude", "hook": guard, "input": input }).to_string();
    let (status, run) = api(&served, "POST", "/api/run", &body);
    assert_eq!(status, 200, "{run}");
    assert_eq!(run["outcome"]["outcome"], "deny", "{run}");
    assert!(run["stdout"].as_str().unwrap().contains("permissionDecision"));
    assert_eq!(run["envelope"]["hook_event_name"], "PreToolUse");
    // A bad request names what is wrong; nothing runs.
    let (status, error) =
        api(&served, "POST", "/api/run", &json!({ "host": "claude", "hook": "nope", "input": {} }).to_string());
    assert_eq!(status, 422);
    assert!(error["error"].as_str().unwrap().contains("no hook named `nope`"), "{error}");

    // A run's input saved as a recorded snapshot input, under a plain name only.
    let save = json!({ "hook": guard, "case": "rm-root", "input": input }).to_string();
    let (status, saved) = api(&served, "POST", "/api/save", &save);
    assert_eq!(status, 200, "{saved}");
    let recorded = work.path().join(format!("snapshots/guards/inputs/{guard}/rm-root.json"));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&recorded).unwrap()).unwrap();
    assert_eq!(written, input);
    let escape = json!({ "hook": guard, "case": "../../escape", "input": input }).to_string();
    let (status, refused) = api(&served, "POST", "/api/save", &escape);
    assert_eq!(status, 422, "{refused}");

    // Editing the handler rebuilds, and the same run answers differently.
    let generation = state["generation"].as_u64().unwrap();
    let handler = work.path().join("src/hooks/deny-dangerous.ts");
    let text = std::fs::read_to_string(&handler).unwrap();
    std::fs::write(&handler, text.replace("This repository does not allow", "Workbench edit: no")).unwrap();
    let started = Instant::now();
    loop {
        let (_, state) = api(&served, "GET", "/api/state", "");
        if state["generation"].as_u64().unwrap() > generation {
            assert!(
                state["explanations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e.as_str().unwrap().contains("deny-dangerous")),
                "{state}"
            );
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no rebuild after the edit");
        std::thread::sleep(Duration::from_millis(200));
    }
    let (_, run) = api(&served, "POST", "/api/run", &body);
    assert!(run["outcome"]["reason"].as_str().unwrap().starts_with("Workbench edit: no"), "{run}");

    // A config that no longer parses: the page shows the diagnostics as the terminal would, and the
    // previous artifact still runs.
    let config = work.path().join("agent-bundle.config.ts");
    std::fs::write(&config, std::fs::read_to_string(&config).unwrap().replacen("hooks: {", "hooks: {{", 1)).unwrap();
    let started = Instant::now();
    let state = loop {
        let (_, state) = api(&served, "GET", "/api/state", "");
        if state["ok"] == false {
            break state;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "the broken config was not noticed");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(state["diagnostics"].as_str().unwrap().contains("error[AB1010]"), "{state}");
    let (status, run) = api(&served, "POST", "/api/run", &body);
    assert_eq!(status, 200, "{run}");
}

/// Waits until the Workbench's state satisfies `done`, then returns it.
fn state_until(served: &Served, what: &str, done: &dyn Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (_, state) = api(served, "GET", "/api/state", "");
        if done(&state) {
            return state;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{what}: {state}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Issue 23: whatever an edited bundle does to a build (a panic, nesting deep enough to overflow a
/// parser, a config that is a link to `/dev/zero`), the Workbench shows it, keeps serving the
/// previous artifact, and builds again once the bundle is sound.
#[cfg(unix)]
#[test]
fn the_workbench_survives_a_crashing_a_stack_deep_and_an_endless_build() {
    require_node();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("bundle");
    copy_tree(std::path::Path::new("testdata/bundles/guards"), &root);
    let fault = work.path().join("panic-now");
    let served = serve_with(&root, &[("AGENT_BUNDLE_FAULT_PANIC_WHILE", &fault)]);
    let state = state_until(&served, "the first build", &|s| s["ok"] == true);
    let guard = deny_guard_name(&state);
    let input = json!({ "sessionId": "s", "transcriptPath": "/tmp/t.jsonl", "cwd": "/tmp", "toolName": "Bash",
        "toolInput": { "command": "rm -rf /" }, "toolUseId": "toolu_1" });
    let body = json!({ "host": "claude", "hook": guard, "input": input }).to_string();
    let still_runs = |served: &Served| {
        let (status, run) = api(served, "POST", "/api/run", &body);
        assert_eq!((status, &run["outcome"]["outcome"]), (200, &json!("deny")), "{run}");
    };

    // A build that panics, as a bug would.
    std::fs::write(&fault, "").unwrap();
    let state = state_until(&served, "the panic was not shown", &|s| s["ok"] == false);
    assert!(state["diagnostics"].as_str().unwrap().contains("error[AB5006]"), "{state}");
    still_runs(&served);
    std::fs::remove_file(&fault).unwrap();

    // A config nested deeper than any parser's stack would hold.
    let config = root.join("agent-bundle.config.ts");
    let original = std::fs::read_to_string(&config).unwrap();
    let deep = format!("{}1{}", "[".repeat(200_000), "]".repeat(200_000));
    std::fs::write(&config, format!("const deep = {deep};\n{original}")).unwrap();
    let state = state_until(&served, "the deep config was not shown", &|s| {
        s["diagnostics"].as_str().is_some_and(|d| d.contains("error[AB1015]"))
    });
    assert_eq!(state["ok"], false);
    still_runs(&served);

    // A config that is a link to an endless device.
    std::fs::remove_file(&config).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &config).unwrap();
    let state = state_until(&served, "the endless config was not shown", &|s| {
        s["diagnostics"].as_str().is_some_and(|d| d.contains("error[AB1003]") && d.contains("not a regular file"))
    });
    assert_eq!(state["ok"], false);
    still_runs(&served);

    // Sound again: built, and served.
    std::fs::remove_file(&config).unwrap();
    std::fs::write(&config, &original).unwrap();
    state_until(&served, "no build after the config was restored", &|s| s["ok"] == true);
    still_runs(&served);
    assert!(served.child_alive(), "the Workbench process died");
}

/// The page in a real headless browser (Chromium from the pinned npm package `@sparticuz/chromium`,
/// unpacked once into `target/test-tools`, or `CHROMIUM=<path>`; driven by Playwright's driver, pinned
/// in `testdata/browser`): pick the guard, run a denied command, see the
/// denial; a request without the token is refused; nothing is loaded from elsewhere.
#[test]
fn a_workbench_started_on_a_built_bundle_shows_its_warnings_and_declarations() {
    require_node();
    let work = tempfile::tempdir().unwrap();
    copy_tree(std::path::Path::new("testdata/bundles/guards"), work.path());
    let built = cli().args(["agent-bundle", "build", "--root"]).arg(work.path()).output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    // The Workbench's builds are no-ops now, which load nothing of their own.
    let served = serve(work.path());
    for poll in 0..2 {
        let (status, state) = api(&served, "GET", "/api/state", "");
        assert_eq!(status, 200, "{state}");
        assert!(state["diagnostics"].as_str().unwrap().contains("warning[AB1030]"), "poll {poll}: {state}");
        let guard = deny_guard_name(&state);
        let row = state["hooks"].as_array().unwrap().iter().find(|h| h["name"] == guard.as_str()).unwrap();
        assert_eq!(row["declaration"]["handler"]["path"], "src/hooks/deny-dangerous.ts", "poll {poll}");
        // After the next no-op rebuild, the page still shows the same.
        std::thread::sleep(Duration::from_millis(2500));
    }
}

#[test]
fn the_page_in_a_headless_browser_runs_a_guard_and_shows_the_denial() {
    require_node();
    common::npm_installed(camino::Utf8Path::new("testdata/browser"));
    browser();
    let work = tempfile::tempdir().unwrap();
    copy_tree(std::path::Path::new("testdata/bundles/guards"), work.path());
    let served = serve(work.path());
    let url = format!("http://{}/?token={}", served.authority, served.token);
    let screenshot = work.path().join("workbench.png");
    let report = drive_page(&url, Some(&screenshot));
    assert!(report["title"].as_str().unwrap().starts_with("before-tool-deny-dangerous-"), "{report}");
    assert_eq!(report["nativeEvent"], "PreToolUse");
    assert_eq!(report["handler"], "src/hooks/deny-dangerous.ts", "the declaration is shown");
    assert!(report["outcome"].as_str().unwrap().contains(r#""outcome":"deny""#), "{report}");
    assert!(report["stdout"].as_str().unwrap().contains(r#""permissionDecision":"deny""#), "{report}");
    assert_eq!(report["withoutToken"], 403);
    assert_eq!(report["external"], json!([]), "the page loaded something from elsewhere");
    assert!(screenshot.is_file());

    // Edit the handler: once rebuilt, the same clicks show the new answer.
    let (_, state) = api(&served, "GET", "/api/state", "");
    let generation = state["generation"].as_u64().unwrap();
    let handler = work.path().join("src/hooks/deny-dangerous.ts");
    let text = std::fs::read_to_string(&handler).unwrap();
    std::fs::write(&handler, text.replace("This repository does not allow", "Edited in the browser test:")).unwrap();
    let started = std::time::Instant::now();
    while api(&served, "GET", "/api/state", "").1["generation"].as_u64().unwrap() == generation {
        assert!(started.elapsed() < Duration::from_secs(20), "no rebuild after the edit");
        std::thread::sleep(Duration::from_millis(200));
    }
    let report = drive_page(&url, None);
    assert!(report["outcome"].as_str().unwrap().contains("Edited in the browser test:"), "{report}");
}

/// Makes the browser ready before the page is driven: `$CHROMIUM`, or the npm package's Chromium,
/// unpacked on first use (`testdata/browser/chromium.mjs`). Needs no system package.
fn browser() {
    let output =
        std::process::Command::new("node").arg("chromium.mjs").current_dir("testdata/browser").output().unwrap();
    assert!(
        output.status.success(),
        "could not unpack Chromium from the npm package @sparticuz/chromium (testdata/browser), or set CHROMIUM=<path>: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let path = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    assert!(std::path::Path::new(&path).is_file(), "{path} is not a file");
}

/// Runs `testdata/browser/workbench.mjs` against the page in headless Chromium: what it saw.
fn drive_page(url: &str, screenshot: Option<&std::path::Path>) -> Value {
    let output = std::process::Command::new("node")
        .arg("workbench.mjs")
        .arg(url)
        .args(screenshot)
        .current_dir("testdata/browser")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_str(stdout.trim()).unwrap()
}
