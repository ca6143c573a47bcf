//! Amp in the real program, as far as it runs offline (issue 48, item 5). A thread does not: Amp
//! creates it on its service (`/api/thread-actors`), which runs it over a WebSocket and does the
//! inference. What does run is Amp's plugin side:
//! - its plugin runtime, the `plugin-runtime.ts` its binary runs under its own Bun for every plugin
//!   (captured by `amp plugins exec` with a plugin that copies it), driven over its stdio protocol by
//!   `tests/support/amp-runtime.mjs` as Amp's client drives it: the artifact's `amp/index.js` loads
//!   there and answers each request event;
//! - `amp plugins list`, against a stand-in of the two calls of Amp's internal API it makes
//!   (`loadPlugins`, `getUserInfo`), which lists the plugins it would load: the folder `cargo
//!   agent-bundle install --host amp --scope project` placed is one, with its events.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use super::{build_into, copy_tree, ensure};
use crate::hosts::{Programs, run_bounded};

const THREAD: &str = "T-0f4c2a7e-5d1b-4c3e-9a8f-2b6d7e1c0a93";

/// A copy of `bundle` under `temp` that also targets Amp, built; the artifact's folder.
fn built_with_amp(bundle: &str, temp: &Path) -> Result<std::path::PathBuf, String> {
    let name = Path::new(bundle).file_name().unwrap().to_string_lossy().to_string();
    let copy = temp.join(&name);
    crate::common::copy_adding_target(Path::new(bundle), &copy, "amp");
    let out = temp.join(format!("{name}-out"));
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    build_into(&copy, &out)
}

fn call(tool: &str, input: Value) -> Value {
    json!({ "hookEvent": "tool.call", "event": { "tool": tool, "input": input, "toolUseID": "toolu_01", "thread": { "id": THREAD } } })
}

/// Amp's own plugin runtime, copied out of the binary by a plugin that `amp plugins exec` runs in it.
fn captured_runtime(programs: &Programs, home: &Path, temp: &Path) -> Result<std::path::PathBuf, String> {
    let capture = temp.join("capture.js");
    std::fs::write(
        &capture,
        "import { copyFileSync } from 'node:fs';\nexport default function () { copyFileSync(process.argv[1], process.env.AB_CAPTURE_TO); }\n",
    )
    .map_err(|e| e.to_string())?;
    let runtime = temp.join("plugin-runtime.ts");
    let mut command = programs.offline_command(&programs.amp, home);
    command.args(["plugins", "exec"]).arg(&capture).args(["session.start", "--data", "{\"thread\":{\"id\":\"T-1\"}}"]);
    command.env("AB_CAPTURE_TO", &runtime).current_dir(temp);
    let (code, _, stdout, stderr) = run_bounded(command, Duration::from_secs(120)).map_err(|e| e.to_string())?;
    ensure(runtime.is_file(), format!("`amp plugins exec` ran no plugin runtime ({code:?}): {stdout}{stderr}"))?;
    Ok(runtime)
}

/// The answers of the artifact's plugin in Amp's plugin runtime to `steps`.
fn in_runtime(
    programs: &Programs,
    runtime: &Path,
    artifact: &Path,
    temp: &Path,
    steps: &Value,
) -> Result<Vec<Value>, String> {
    let away = temp.join(format!("plugin-{}", artifact.parent().unwrap().file_name().unwrap().to_string_lossy()));
    copy_tree(&artifact.join("amp"), &away).map_err(|e| e.to_string())?;
    let workspace = temp.join("workspace");
    std::fs::create_dir_all(&workspace).map_err(|e| e.to_string())?;
    let mut command = Command::new("node");
    command
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/amp-runtime.mjs"))
        .arg(&programs.amp)
        .arg(runtime)
        .arg(away.join("index.js"))
        .arg(&workspace)
        .env("AB_STEPS", steps.to_string());
    let (_, _, stdout, stderr) = run_bounded(command, Duration::from_secs(120)).map_err(|e| e.to_string())?;
    let printed: Value = serde_json::from_str(&stdout)
        .map_err(|e| format!("the runtime's driver printed no JSON ({e}): {stdout} {stderr}"))?;
    Ok(printed["results"].as_array().cloned().unwrap_or_default())
}

pub fn plugin_in_amps_runtime(programs: &Programs) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let home = temp.path().join("home");
    std::fs::create_dir_all(&home).map_err(|e| e.to_string())?;
    let runtime = captured_runtime(programs, &home, temp.path())?;

    // The guards example: a rejection whose reason the model reads, the calls it allows, a patch's
    // files judged, and a failing fail-closed guard that rejects.
    let guards = built_with_amp("testdata/bundles/guards", temp.path())?;
    let steps = json!([
        call("shell_command", json!({ "command": "git push --force origin main" })),
        call("shell_command", json!({ "command": "ls" })),
        call(
            "apply_patch",
            json!({ "patchText": "*** Begin Patch\n*** Add File: secrets/x.txt\n+hi\n*** End Patch\n" })
        ),
        call("shell_command", json!({ "command": "" })),
    ]);
    let results = in_runtime(programs, &runtime, &guards, temp.path(), &steps)?;
    ensure(results.len() == 4, format!("four answers: {results:?}"))?;
    let reject = |message: &str| json!({ "action": "reject-and-continue", "message": message });
    ensure(
        results[0]["result"] == reject("This repository does not allow `git push --force origin main`."),
        format!("the guard's rejection: {}", results[0]),
    )?;
    ensure(results[1]["result"] == json!({ "action": "allow" }), format!("ls runs: {}", results[1]))?;
    ensure(results[2]["result"] == reject("secrets/ is protected by policy."), format!("the patch: {}", results[2]))?;
    let broken = &results[3]["result"];
    ensure(
        broken["action"] == "reject-and-continue"
            && broken["message"].as_str().is_some_and(|m| m.contains("cannot tell what shell_command touches")),
        format!("a failing fail-closed guard rejects: {broken}"),
    )?;

    // A rewrite, after-tool context, and a stop kept going once.
    let rewrite = built_with_amp("testdata/e2e/rewrite-shell", temp.path())?;
    let results = in_runtime(
        programs,
        &runtime,
        &rewrite,
        temp.path(),
        &json!([call("shell_command", json!({ "command": "echo hi > x" }))]),
    )?;
    ensure(
        results.first().map(|r| &r["result"])
            == Some(&json!({ "action": "modify", "input": { "command": "echo rewritten > rewritten.txt" } })),
        format!("the rewrite: {results:?}"),
    )?;
    let after = built_with_amp("testdata/e2e/after-context", temp.path())?;
    let mut done = call("shell_command", json!({ "command": "ls" }));
    done["hookEvent"] = json!("tool.result");
    done["event"]["status"] = json!("done");
    done["event"]["output"] = json!("a.txt");
    let results = in_runtime(programs, &runtime, &after, temp.path(), &json!([done]))?;
    ensure(
        results.first().map(|r| &r["result"])
            == Some(&json!({ "status": "done", "output": "a.txt\n\nE2E_AFTER_MARKER: seen after the tool ran" })),
        format!("after-tool context: {results:?}"),
    )?;
    let stop = built_with_amp("testdata/e2e/stop-once", temp.path())?;
    let reason = "E2E_STOP_REASON: check the work once more";
    let end = |message: &str| json!({ "hookEvent": "agent.end", "event": { "thread": { "id": THREAD }, "message": message, "id": 1, "status": "done", "messages": [] } });
    let results = in_runtime(programs, &runtime, &stop, temp.path(), &json!([end("do it"), end(reason)]))?;
    ensure(
        results.first().map(|r| &r["result"]) == Some(&json!({ "action": "continue", "userMessage": reason })),
        format!("the stop's continue: {results:?}"),
    )?;
    ensure(results.get(1).map(|r| &r["result"]) == Some(&Value::Null), format!("re-entry releases: {results:?}"))?;

    // Where install puts it, Amp finds it: `amp plugins list` against a stand-in of its internal API.
    let project = temp.path().join("project");
    std::fs::create_dir_all(&project).map_err(|e| e.to_string())?;
    let mut install = programs.offline_command(Path::new(env!("CARGO_BIN_EXE_cargo-agent-bundle")), &home);
    install.args(["agent-bundle", "install", "--host", "amp", "--scope", "project", "--artifact"]).arg(&guards);
    install.current_dir(&project);
    let (_, _, stdout, stderr) = run_bounded(install, Duration::from_secs(120)).map_err(|e| e.to_string())?;
    ensure(
        project.join(".amp/plugins/guards/index.js").is_file(),
        format!("install placed no plugin: {stdout}{stderr}"),
    )?;
    let listed = plugins_list(programs, &home, &project)?;
    ensure(
        listed.contains(".amp/plugins/guards/index.js active") && listed.contains("events: tool.call"),
        format!("`amp plugins list` does not list the installed plugin with its events:\n{listed}"),
    )?;
    Ok(())
}

/// `amp plugins list` in `project`, with Amp pointed at a stand-in of its internal API on loopback.
fn plugins_list(programs: &Programs, home: &Path, project: &Path) -> Result<String, String> {
    const STAND_IN: &str = "const http = require('node:http');\
        const server = http.createServer((req, res) => { let body = ''; req.on('data', (d) => body += d); req.on('end', () => {\
        const result = req.url.includes('loadPlugins') ? [] : {};\
        res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ ok: true, result })); }); });\
        server.listen(0, '127.0.0.1', () => console.log(server.address().port)); setTimeout(() => process.exit(0), 110000);";
    let mut stand_in = Command::new("node")
        .args(["-e", STAND_IN])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let port = {
        use std::io::BufRead;
        let mut line = String::new();
        std::io::BufReader::new(stand_in.stdout.take().unwrap()).read_line(&mut line).map_err(|e| e.to_string())?;
        line.trim().to_string()
    };
    let settings = home.join(".config/amp/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).map_err(|e| e.to_string())?;
    std::fs::write(&settings, format!("{{\"amp.url\": \"http://127.0.0.1:{port}\"}}\n")).map_err(|e| e.to_string())?;
    let mut command = programs.offline_command(&programs.amp, home);
    command.args(["plugins", "list"]).env("AMP_API_KEY", "offline").current_dir(project);
    let output = run_bounded(command, Duration::from_secs(90));
    let _ = stand_in.kill();
    let _ = stand_in.wait();
    let (_, _, stdout, stderr) = output.map_err(|e| e.to_string())?;
    Ok(format!("{stdout}{stderr}"))
}
