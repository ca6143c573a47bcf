//! `hooks simulate` runs a hook in its host's place (issue 47, item 1): the working folder and the
//! variables the host gives a plugin's hook process, with the project taken from `--project` or the
//! input, `--env` on top, and the file the host reads back (`CLAUDE_ENV_FILE`) captured.
//!
//! The held-out check: for every host, a hook that reports where it runs answers the same in
//! `hooks simulate` as when it is run by hand, in the project, with the variables the real host was
//! recorded giving its plugins (`testdata/envelopes/*/hook-env.json`, read here independently of the
//! host tables), or that its documentation names where no run was recorded.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::{self, cli};

/// The hook every host runs: it reports its working folder, the host's variables it sees and the
/// places its context gives it, as a denial's reason (a channel every host carries) or as context.
/// Like the hooks of real plugins, it also greps the project for `TODO:` (a Stop check's job) and
/// keeps a count of its calls in the plugin's data folder.
const REPORTER: &str = "import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';\n\
import { join } from 'node:path';\n\
const relevant = /^(CLAUDE|CODEX|COPILOT|GEMINI|QWEN|CURSOR|FACTORY|DROID|PLUGIN)_|^CLAUDECODE$/;\n\
const todos = (dir) => readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => readFileSync(join(dir, f), 'utf8').split('TODO:').length - 1).reduce((a, b) => a + b, 0);\n\
export const report = (context) => {\n\
  const counter = join(context.dataDir, 'calls');\n\
  const calls = (existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0) + 1;\n\
  writeFileSync(counter, String(calls));\n\
  return JSON.stringify({\n\
    cwd: process.cwd(),\n\
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => relevant.test(k)).sort()),\n\
    projectDir: context.projectDir,\n\
    dataDir: context.dataDir,\n\
    todosInProject: context.projectDir && existsSync(context.projectDir) ? todos(context.projectDir) : null,\n\
    calls,\n\
  });\n\
};\n";

const HOSTS: &[&str] = &["claude", "codex", "copilot", "gemini", "qwen", "cursor", "droid", "opencode"];

fn bundle() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let targets = HOSTS.iter().map(|h| format!("'{h}'")).collect::<Vec<_>>().join(", ");
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        &format!(
            "export default {{\n  hooks: {{\n    beforeTool: {{ handler: './src/hooks/where.ts', tools: ['shell'] }},\n    sessionStart: {{ handler: './src/hooks/start.ts' }},\n  }},\n  plugin: {{ name: 'where', description: 'Says where it runs.', version: '1.0.0', author: 'agent-bundle tests' }},\n  targets: [{targets}],\n}};\n"
        ),
    );
    common::write_file(root.path(), "src/hooks/report.ts", REPORTER);
    common::write_file(
        root.path(),
        "src/hooks/where.ts",
        "import { report } from './report';\nexport default (_event, context) => ({ outcome: 'deny', reason: report(context) });\n",
    );
    common::write_file(
        root.path(),
        "src/hooks/start.ts",
        "import { appendFileSync } from 'node:fs';\nimport { report } from './report';\n\
         export default (_event, context) => {\n\
           if (process.env.CLAUDE_ENV_FILE) appendFileSync(process.env.CLAUDE_ENV_FILE, 'export WHERE_STARTED=1\\n');\n\
           return { additionalContext: report(context) };\n\
         };\n",
    );
    root
}

fn build(root: &Path) -> (PathBuf, Value) {
    let built = cli().arg("agent-bundle").arg("build").arg("--root").arg(root).output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let artifact = root.join("artifact").canonicalize().unwrap();
    let index = std::fs::read_to_string(artifact.join("agent-bundle.manifest.json")).unwrap();
    (artifact, serde_json::from_str(&index).unwrap())
}

fn row<'i>(index: &'i Value, host: &str, event: &str) -> &'i Value {
    let rows = index["hooks"].as_array().unwrap();
    rows.iter()
        .find(|r| r["host"] == host && r["event"] == event)
        .unwrap_or_else(|| panic!("no {event} hook for {host}"))
}

/// `hooks simulate --json`, with `HOME` of our own, exiting 0.
fn simulate(artifact: &Path, home: &Path, host: &str, hook: &str, args: &[&str]) -> Value {
    let output = cli()
        .env("HOME", home)
        .args(["agent-bundle", "hooks", "simulate", "--json", "--target", host, "--hook", hook, "--artifact"])
        .arg(artifact)
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{host} {hook}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// What a recorded variable of a host's plugin hook holds, read from its recorded value alone: the
/// harness's project is a folder named `work`, data folders are named so, a session id is a UUID.
enum Recorded {
    Project,
    PluginRoot,
    PluginData,
    HooksFolder,
    SessionId,
    Literal(String),
}

fn classify(name: &str, value: &str) -> Option<Recorded> {
    let uuid = value.len() == 36 && value.matches('-').count() == 4;
    Some(match () {
        _ if value.ends_with("/work") => Recorded::Project,
        _ if name.ends_with("PLUGIN_DATA") => Recorded::PluginData,
        _ if name.ends_with("PLUGIN_ROOT") => Recorded::PluginRoot,
        _ if name == "COPILOT_HOOK_DIR" => Recorded::HooksFolder,
        _ if name.ends_with("SESSION_ID") && uuid => Recorded::SessionId,
        // The host's mark that a hook runs under it.
        _ if matches!(name, "COPILOT_CLI" | "CLAUDECODE") => Recorded::Literal(value.into()),
        // The host's own variables (its PID, sockets, tokens, model, caches): not the plugin's business.
        _ => return None,
    })
}

/// The recorded environment of a plugin's hook on `native_event`, by its host's envelope folder.
fn recorded(folder: &str, native_event: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(format!("testdata/envelopes/{folder}/hook-env.json")).unwrap();
    let recording: Value = serde_json::from_str(&text).unwrap();
    let by_event = recording["by_event"].as_object().unwrap();
    let entry = ["plugin:", "extension:"]
        .iter()
        .find_map(|prefix| by_event.get(&format!("{prefix}{native_event}")))
        .unwrap_or_else(|| panic!("{folder}: no plugin hook recorded on {native_event}"));
    entry.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect()
}

/// How the host runs the hook, by hand: its working folder and variables.
struct ByHand {
    cwd: PathBuf,
    env: Vec<(String, String)>,
}

/// The place of `host`'s hook on `native_event`, from the recording where there is one, else from
/// the host's documentation.
fn by_hand(host: &str, native_event: &str, project: &Path, root: &Path, data: &Path, session: &str) -> ByHand {
    let folder = match host {
        "claude" => Some("claude-code"),
        "codex" => Some("codex"),
        "copilot" => Some("copilot-cli"),
        "gemini" => Some("gemini-cli"),
        "qwen" => Some("qwen-code"),
        _ => None,
    };
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let mut env = Vec::new();
    if let Some(folder) = folder {
        for (name, value) in recorded(folder, native_event) {
            let Some(kind) = classify(&name, &value) else { continue };
            let value = match kind {
                Recorded::Project => path(project),
                Recorded::PluginRoot => path(root),
                Recorded::PluginData => path(data),
                Recorded::HooksFolder => {
                    let document = &agent_bundle::hosts::table(host.parse().unwrap()).hooks.as_ref().unwrap().document;
                    path(root.join(document).parent().unwrap())
                }
                Recorded::SessionId => session.to_string(),
                Recorded::Literal(text) => text,
            };
            env.push((name, value));
        }
        // CLAUDE_ENV_FILE is recorded on SessionStart; the reporter prints its name, the path is the run's.
        if host == "claude" && native_event == "SessionStart" {
            env.push(("CLAUDE_ENV_FILE".into(), path(&data.join("env-file.sh"))));
        }
    }
    // Named by the programs but not in their recordings (whose filters left them out).
    let documented: &[(&str, &str)] = match host {
        // hosts-claude-codex.md §1.1: `CLAUDECODE=1` [run].
        "claude" => &[("CLAUDECODE", "1")],
        // hosts-claude-codex.md §2.1: PLUGIN_ROOT and PLUGIN_DATA beside the CLAUDE_ ones [src][run].
        "codex" => &[("PLUGIN_ROOT", "root"), ("PLUGIN_DATA", "data")],
        // hosts-cursor-gemini-copilot.md: CURSOR_PROJECT_DIR and CLAUDE_PROJECT_DIR for every hook;
        // its plugin docs' root variable.
        "cursor" => {
            &[("CURSOR_PROJECT_DIR", "project"), ("CLAUDE_PROJECT_DIR", "project"), ("CURSOR_PLUGIN_ROOT", "root")]
        }
        // hosts-wave3-and-engines.md: the project variables the Factory Droid binary exports.
        "droid" => {
            &[("FACTORY_PROJECT_DIR", "project"), ("DROID_PROJECT_DIR", "project"), ("CLAUDE_PROJECT_DIR", "project")]
        }
        _ => &[],
    };
    for (name, what) in documented {
        let value = match *what {
            "project" => path(project),
            "root" => path(root),
            "data" => path(data),
            literal => literal.to_string(),
        };
        env.push((name.to_string(), value));
    }
    // Copilot CLI runs a plugin's hooks in the plugin's folder (its recording's note,
    // hosts-gemini-copilot-layout.md §2.3); every other host in the project.
    let cwd = if host == "copilot" { root.to_path_buf() } else { project.to_path_buf() };
    ByHand { cwd, env }
}

/// Runs the host's command for `row` by hand: a cleared environment but for `PATH` and `HOME`, the
/// place's variables, the envelope on stdin.
fn run_by_hand(artifact: &Path, row: &Value, place: &ByHand, home: &Path, envelope: &Value) -> (String, String) {
    let row: agent_bundle::artifact::IndexRow = serde_json::from_value(row.clone()).unwrap();
    let mut command =
        agent_bundle::tools::simulate::host_command(camino::Utf8Path::from_path(artifact).unwrap(), &row).unwrap();
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .envs(place.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&place.cwd);
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(envelope.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// The hook's report in an answer: a string of the host's JSON answer (the denial's reason, the
/// context), or text on stdout or stderr.
fn report(stdout: &str, stderr: &str) -> Value {
    fn plain(text: &str) -> Option<Value> {
        let start = text.find("{\"cwd\"")?;
        serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>().next()?.ok()
    }
    fn find(value: &Value) -> Option<Value> {
        match value {
            Value::String(text) => plain(text),
            Value::Object(map) => map.values().find_map(find),
            Value::Array(items) => items.iter().find_map(find),
            _ => None,
        }
    }
    serde_json::from_str::<Value>(stdout.trim())
        .ok()
        .as_ref()
        .and_then(find)
        .or_else(|| plain(stdout))
        .or_else(|| plain(stderr))
        .unwrap_or_else(|| panic!("no report in stdout {stdout:?}, stderr {stderr:?}"))
}

#[test]
fn every_host_runs_a_simulated_hook_where_and_with_what_it_was_recorded_running_plugins() {
    common::require_node();
    let root = bundle();
    let (artifact, index) = build(root.path());
    let project = tempfile::tempdir().unwrap();
    let project = project.path().canonicalize().unwrap();
    std::fs::write(project.join("NOTES.md"), "TODO: one\nTODO: two\n").unwrap();
    let session = "3f6c1a2e-7b4d-4e8f-9a01-23456789abcd";
    let mut checked = 0;
    for host in HOSTS {
        for (event, input) in [
            ("beforeTool", json!({ "sessionId": session, "toolName": "Bash", "toolInput": { "command": "ls" } })),
            ("sessionStart", json!({ "sessionId": session })),
        ] {
            let row = row(&index, host, event);
            let hook = row["name"].as_str().unwrap();
            let native = row["nativeEvent"].as_str().unwrap();
            let input = input.to_string();
            // A home of each run's own: a host with no data folder of its own gets agent-bundle's
            // default one there, which keeps state across sessions.
            let (home, hand_home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            let run = simulate(
                &artifact,
                home.path(),
                host,
                hook,
                &["--project", project.to_str().unwrap(), "--input", &input],
            );
            let plugin_root =
                match agent_bundle::hosts::table(host.parse().unwrap()).hooks.as_ref().unwrap().folder.as_deref() {
                    Some(folder) => artifact.join(folder),
                    None => artifact.clone(),
                };
            // A fresh data folder for each run by hand, as `hooks simulate` gives each run one.
            let data = tempfile::tempdir().unwrap();
            let place = by_hand(host, native, &project, &plugin_root, data.path(), session);
            let (stdout, stderr) = run_by_hand(&artifact, row, &place, hand_home.path(), &run["envelope"]);
            let (sim_stdout, sim_stderr) = (run["stdout"].as_str().unwrap(), run["stderr"].as_str().unwrap());
            if host == &"opencode" && event == "sessionStart" && !stdout.contains("cwd") {
                // OpenCode's sessionStart carries no context: nothing to compare but that both say so.
                assert_eq!((sim_stdout, sim_stderr.is_empty()), (stdout.as_str(), stderr.is_empty()), "{host} {event}");
                continue;
            }
            let mut simulated = report(sim_stdout, sim_stderr);
            let mut hand = report(&stdout, &stderr);
            // The data folder and the env file are the run's own: compared by name, not path.
            let sim_data: Vec<&str> = run["place"]["env"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| k.ends_with("PLUGIN_DATA"))
                .map(|(_, v)| v.as_str().unwrap())
                .collect();
            let runs = [
                (&mut simulated, sim_data.first().copied(), home.path()),
                (&mut hand, data.path().to_str(), hand_home.path()),
            ];
            for (report, data_dir, home) in runs {
                let text = report.to_string().replace(home.to_str().unwrap(), "[HOME]");
                let text = match data_dir {
                    Some(dir) => text.replace(dir, "[DATA]"),
                    None => text,
                };
                *report = serde_json::from_str(&text).unwrap();
                if let Some(file) = report["env"].get_mut("CLAUDE_ENV_FILE") {
                    *file = json!("[FILE]");
                }
            }
            assert_eq!(simulated, hand, "{host} {event}: simulate ran the hook elsewhere than the host would");
            assert_eq!(simulated["todosInProject"], 2, "{host} {event}: the project's TODOs are found");
            assert_eq!(simulated["calls"], 1, "{host} {event}: each run starts with a fresh data folder");
            // And where that is, plainly: the project (or Copilot's plugin folder) and its variables.
            let expected_cwd = place.cwd.to_str().unwrap();
            assert_eq!(simulated["cwd"], expected_cwd, "{host} {event}");
            assert_eq!(run["place"]["workingFolder"], expected_cwd, "{host} {event}");
            assert_eq!(run["place"]["project"], project.to_str().unwrap(), "{host} {event}");
            assert_eq!(run["place"]["projectFrom"], "--project", "{host} {event}");
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked}");
}

/// Claude Code gives a SessionStart hook a file whose `export` lines later Bash commands get: what
/// the hook wrote there is shown, and only SessionStart gets one.
#[test]
fn simulate_captures_what_a_hook_writes_to_the_hosts_env_file() {
    common::require_node();
    let root = bundle();
    let (artifact, index) = build(root.path());
    let home = tempfile::tempdir().unwrap();
    let start = row(&index, "claude", "sessionStart")["name"].as_str().unwrap().to_string();
    let run = simulate(&artifact, home.path(), "claude", &start, &["--input", "{}"]);
    let file = &run["place"]["envFile"];
    assert_eq!(file["variable"], "CLAUDE_ENV_FILE", "{run:#}");
    assert_eq!(file["written"], "export WHERE_STARTED=1\n", "{run:#}");
    let guard = row(&index, "claude", "beforeTool")["name"].as_str().unwrap().to_string();
    let run = simulate(&artifact, home.path(), "claude", &guard, &["--input", r#"{"toolName":"Bash"}"#]);
    assert!(run["place"].get("envFile").is_none(), "{run:#}");
    assert!(!run["place"]["env"].as_object().unwrap().contains_key("CLAUDE_ENV_FILE"), "{run:#}");
    // The text output says it too.
    let output = cli()
        .env("HOME", home.path())
        .args([
            "agent-bundle",
            "hooks",
            "simulate",
            "--target",
            "claude",
            "--hook",
            &start,
            "--input",
            "{}",
            "--artifact",
        ])
        .arg(&artifact)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("env file   CLAUDE_ENV_FILE: the hook wrote 1 line (its `export` lines are sourced before each later Bash command of the session)\n           | export WHERE_STARTED=1\n"),
        "{text}"
    );
}

/// Without `--project`, the input's `cwd` is the project where that folder exists here; a `cwd`
/// that is not a folder here runs the hook in the current folder and says so; an input with no
/// `cwd` gets the project as its `cwd`, so the envelope and the process agree; `--env` sets a
/// variable over the host's.
#[test]
fn the_project_comes_from_the_input_or_the_current_folder_and_env_adds_to_the_hosts() {
    common::require_node();
    let root = bundle();
    let (artifact, index) = build(root.path());
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let project = project.path().canonicalize().unwrap();
    let here = tempfile::tempdir().unwrap();
    let here = here.path().canonicalize().unwrap();
    let guard = row(&index, "claude", "beforeTool")["name"].as_str().unwrap().to_string();
    let run_in = |cwd: &Path, args: &[&str]| -> (Value, String) {
        let output = cli()
            .env("HOME", home.path())
            .current_dir(cwd)
            .args(["agent-bundle", "hooks", "simulate", "--json", "--target", "claude", "--hook", &guard, "--artifact"])
            .arg(&artifact)
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        (serde_json::from_slice(&output.stdout).unwrap(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let given = json!({ "cwd": project, "toolName": "Bash" }).to_string();
    let (run, _) = run_in(&here, &["--input", &given]);
    assert_eq!(run["place"]["workingFolder"], project.to_str().unwrap());
    assert_eq!(run["place"]["projectFrom"], "the input");
    assert_eq!(run["place"]["env"]["CLAUDE_PROJECT_DIR"], project.to_str().unwrap());

    let (run, warnings) = run_in(&here, &["--input", r#"{"cwd":"/no/such/project","toolName":"Bash"}"#]);
    assert_eq!(run["place"]["workingFolder"], here.to_str().unwrap());
    assert_eq!(run["envelope"]["cwd"], "/no/such/project", "the input's cwd is sent as given");
    assert!(warnings.contains("the input's project `/no/such/project` is not a folder here"), "{warnings}");

    let (run, warnings) = run_in(
        &here,
        &["--input", r#"{"toolName":"Bash"}"#, "--env", "CLAUDE_PROJECT_DIR=/elsewhere", "--env", "EXTRA=1"],
    );
    assert_eq!(run["envelope"]["cwd"], here.to_str().unwrap(), "the project fills the input's cwd");
    assert!(warnings.contains("`cwd` filled with the project folder"), "{warnings}");
    assert_eq!(run["place"]["env"]["CLAUDE_PROJECT_DIR"], "/elsewhere");
    assert_eq!(run["place"]["env"]["EXTRA"], "1");
    let reason = report(run["stdout"].as_str().unwrap(), "");
    assert_eq!(reason["env"]["CLAUDE_PROJECT_DIR"], "/elsewhere", "--env reaches the hook");
    assert_eq!(reason["projectDir"], "/elsewhere", "and its context reads it as the host's variable");

    // A --project that is not a folder, and an --env that is not KEY=VALUE, are refused plainly.
    let refused = |extra: &[&str]| {
        let output = cli()
            .args(["agent-bundle", "hooks", "simulate", "--target", "claude", "--hook", &guard, "--input", "{}"])
            .args(extra)
            .arg("--artifact")
            .arg(&artifact)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    assert!(refused(&["--project", "/no/such/dir"]).contains("--project `/no/such/dir`"));
    assert!(refused(&["--env", "NOVALUE"]).contains("write it as KEY=VALUE"));
}

/// A ported plugin whose rules live in the project (hookify: `.claude/hookify.*.local.md`, read from
/// the envelope's `cwd`) finds them when simulated with `--project`, on each host it targets: the
/// project fills the input's `cwd`. Run from a folder with no rules, the same call goes through.
#[test]
fn a_ported_plugin_finds_its_rules_in_the_project_it_is_simulated_for() {
    common::require_node();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("hookify");
    common::copy_tree(Path::new("testdata/bundles/ported-hookify"), &root);
    let _ = std::fs::remove_dir_all(root.join("artifact"));
    let (artifact, index) = build(&root);
    let project = work.path().join("project");
    common::write_file(
        &project,
        ".claude/hookify.no-rm.local.md",
        "---\nevent: bash\npattern: rm -rf\naction: block\n---\nNo recursive deletes in this project.\n",
    );
    let elsewhere = work.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let input = r#"{"toolName":"Bash","toolInput":{"command":"rm -rf build"}}"#;
    for host in ["claude", "codex"] {
        let hook = "event-route-tool-before";
        assert!(index["hooks"].as_array().unwrap().iter().any(|r| r["host"] == host && r["name"] == hook), "{index:#}");
        let simulate_in = |cwd: &Path, args: &[&str]| -> Value {
            let output = cli()
                .current_dir(cwd)
                .args([
                    "agent-bundle",
                    "hooks",
                    "simulate",
                    "--json",
                    "--target",
                    host,
                    "--hook",
                    hook,
                    "--input",
                    input,
                ])
                .args(args)
                .arg("--artifact")
                .arg(&artifact)
                .output()
                .unwrap();
            assert!(output.status.success(), "{host}: {}", String::from_utf8_lossy(&output.stderr));
            serde_json::from_slice(&output.stdout).unwrap()
        };
        let run = simulate_in(&elsewhere, &["--project", project.to_str().unwrap()]);
        assert_eq!(run["outcome"]["outcome"], "deny", "{host}: {run:#}");
        assert_eq!(run["outcome"]["reason"], "[no-rm] No recursive deletes in this project.", "{host}: {run:#}");
        let run = simulate_in(&elsewhere, &[]);
        assert_eq!(run["exitCode"], 0, "{host}: {run:#}");
        assert_eq!(run["outcome"], Value::Null, "{host}: no rules in the current folder, so no answer: {run:#}");
    }
}
