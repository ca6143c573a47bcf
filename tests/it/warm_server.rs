//! The plugin's warm server (`bundle.warmServer`, issue 46 item 2, D18): on Claude Code, the hooks
//! that may fail open are answered by the plugin's own MCP server through `mcp_tool` entries, each
//! hook in a worker thread of its own. The artifact is copied away from the source tree and its
//! server driven over MCP under the real node, with the fields Claude Code's entry interpolates; its
//! answers are compared with the same hooks' wrappers run as commands. The real program runs it in
//! the real-host suite (`testdata/e2e/warm-server`).

use crate::common;

use camino::Utf8Path;
use common::{build_root, copy_tree, require_node};
use serde_json::{Value, json};

const BUNDLE: &str = "testdata/e2e/warm-server";

fn read_json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// The bundle built and copied away: the guard that keeps the copy, and its path.
fn artifact() -> (tempfile::TempDir, std::path::PathBuf) {
    require_node();
    let (_guard, built) = build_root(Utf8Path::new(BUNDLE));
    let away = tempfile::tempdir().unwrap();
    copy_tree(built.as_std_path(), &away.path().join("plugin"));
    let path = away.path().join("plugin");
    (away, path)
}

/// The entries of the document that call the server, by hook key, with their input templates.
fn warm_entries(artifact: &std::path::Path) -> Vec<(String, Value)> {
    let document = read_json(&artifact.join("hooks/hooks.json"));
    let mut entries = Vec::new();
    for groups in document["hooks"].as_object().unwrap().values() {
        for group in groups.as_array().unwrap() {
            for hook in group["hooks"].as_array().unwrap() {
                if hook["type"] == "mcp_tool" {
                    entries.push((hook["input"]["hook"].as_str().unwrap().to_string(), hook["input"].clone()));
                }
            }
        }
    }
    entries
}

fn drive(artifact: &std::path::Path, rounds: Value) -> Value {
    let entry = artifact.join("mcp/e2e-warm-server-runtime.mjs");
    common::node_json("warm-server-client.mjs", &[entry.as_os_str()], &json!({ "rounds": rounds }))
}

/// The hook's wrapper run by itself under node, as a command of its own: its exit code and stdout.
fn run_alone(artifact: &std::path::Path, key: &str, envelope: &Value) -> (Option<i32>, String) {
    use std::io::Write as _;
    let mut child = std::process::Command::new("node")
        .arg(artifact.join(format!("hooks/{key}.mjs")))
        .env("CLAUDE_PLUGIN_ROOT", artifact)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(envelope.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

fn claude_envelope(event: &str, command: &str) -> Value {
    let mut envelope = read_json(std::path::Path::new(&format!("testdata/envelopes/claude-code/{event}.json")));
    envelope["tool_name"] = json!("Bash");
    envelope["tool_input"] = json!({ "command": command, "description": "generated" });
    if event == "PostToolUse" {
        envelope["tool_response"] = json!({ "stdout": "ran", "stderr": "", "interrupted": false });
    }
    envelope
}

#[test]
fn the_document_calls_the_server_for_the_hooks_that_may_fail_open() {
    let (_away, artifact) = artifact();
    let entries = warm_entries(&artifact);
    let keys: Vec<&str> = entries.iter().map(|(key, _)| key.as_str()).collect();
    assert_eq!(keys.len(), 4, "{keys:?}");
    for name in ["after-tool-after-", "before-tool-guard-", "before-tool-spin-", "event-route-tool-after"] {
        assert!(keys.iter().any(|k| k.starts_with(name)), "{name}: {keys:?}");
    }
    let document = std::fs::read_to_string(artifact.join("hooks/hooks.json")).unwrap();
    assert!(document.contains(r#""server": "plugin:e2e-warm-server:e2e-warm-server-runtime""#), "{document}");
    assert!(document.contains(r#""tool_input": "${tool_input}""#), "{document}");
    // The fail-closed audit stays a command: the host skips a server that is not connected.
    assert_eq!(document.matches(r#""type": "command""#).count(), 1, "{document}");
    let mcp = read_json(&artifact.join(".mcp.json"));
    assert!(mcp["mcpServers"]["e2e-warm-server-runtime"].is_object(), "{mcp}");
    let manifest = read_json(&artifact.join("agent-bundle.manifest.json"));
    let warm: Vec<bool> =
        manifest["hooks"].as_array().unwrap().iter().map(|row| row["warmServer"] == json!(true)).collect();
    assert_eq!(warm.iter().filter(|w| **w).count(), 4, "{manifest}");
    // inspect says which channel each hook got, and why not for the audit.
    let output = common::cli().args(["inspect", "--root", BUNDLE, "--hooks", "--json"]).output().unwrap();
    let inspected: Value = serde_json::from_slice(&output.stdout).unwrap();
    let audit =
        inspected["hooks"].as_array().unwrap().iter().find(|h| h["handler"]["path"] == "src/hooks/audit.ts").unwrap();
    let declined = audit["hosts"][0]["warmServer"]["declined"].as_str().unwrap();
    assert!(declined.contains("fail-closed"), "{declined}");
}

/// For generated commands, the server's answer (through the entry's interpolated fields) is the
/// command wrapper's: the same text for the host, success alike.
#[test]
fn the_server_answers_as_the_command_wrapper_does() {
    let (_away, artifact) = artifact();
    let entries = warm_entries(&artifact);
    let mut random = common::Random::seeded(46);
    let words = ["ls", "echo", "E2E_GO_AWAY", "git", "push", "x > y", "\"quoted\"", "ünïcode", "$HOME", ""];
    let mut commands: Vec<String> = vec!["echo E2E_GO_AWAY > marker.txt".into(), "ls".into(), String::new()];
    for _ in 0..12 {
        let length = 1 + random.below(4);
        commands.push((0..length).map(|_| random.pick(&words)).collect::<Vec<_>>().join(" "));
    }
    // The spinning hook spins on E2E_GO_AWAY: it is left to the next test.
    let compared: Vec<&(String, Value)> = entries.iter().filter(|(key, _)| !key.contains("-spin-")).collect();
    let mut calls = Vec::new();
    let mut expected = Vec::new();
    for command in &commands {
        for (key, template) in &compared {
            let event = if key.contains("after") { "PostToolUse" } else { "PreToolUse" };
            let envelope = claude_envelope(event, command);
            calls.push(common::claude_interpolated(template, &envelope));
            expected.push((format!("{key} on `{command}`"), run_alone(&artifact, key, &envelope)));
        }
    }
    let driven = drive(&artifact, json!([calls]));
    let mut answers: Vec<Value> = driven["answers"][0].as_array().unwrap().clone();
    answers.sort_by_key(|a| a["index"].as_u64().unwrap());
    assert_eq!(answers.len(), expected.len());
    for ((what, (code, stdout)), answer) in expected.iter().zip(&answers) {
        let result = &answer["result"];
        let text =
            result["content"].as_array().unwrap().iter().map(|c| c["text"].as_str().unwrap()).collect::<String>();
        assert_eq!(result["isError"], json!(*code != Some(0)), "{what}: {result} vs exit {code:?}");
        if *code == Some(0) {
            // The testdata hooks say where they ran; the rest is the same text.
            assert_eq!(text, stdout.replace("a process of its own", "the warm server"), "{what}");
        }
    }
    // Every hook but the denying guard answers every call with success here: the wrappers agree.
    assert!(expected.iter().all(|(what, (code, _))| *code == Some(0) || what.contains("-guard-")), "{expected:?}");
    assert!(
        answers.iter().any(|a| a["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("E2E_WARM_DENY from the warm server"))),
        "{answers:?}"
    );
}

/// One hook that spins holds only its own worker (D18): the guard beside it answers while it spins,
/// it fails at its own deadline with its worker ended, and its next call starts a new worker.
#[test]
fn a_spinning_hook_holds_only_its_own_worker() {
    let (_away, artifact) = artifact();
    let entries = warm_entries(&artifact);
    let template = |name: &str| entries.iter().find(|(key, _)| key.contains(name)).unwrap().1.clone();
    let denied = claude_envelope("PreToolUse", "echo E2E_GO_AWAY > marker.txt");
    let benign = claude_envelope("PreToolUse", "ls");
    let driven = drive(
        &artifact,
        json!([
            [
                common::claude_interpolated(&template("-spin-"), &denied),
                common::claude_interpolated(&template("-guard-"), &denied)
            ],
            [common::claude_interpolated(&template("-spin-"), &benign)],
        ]),
    );
    let first = driven["answers"][0].as_array().unwrap();
    assert_eq!(first[0]["index"], 1, "the guard answers first, while the other hook spins: {first:?}");
    let guard = first[0]["result"]["content"][0]["text"].as_str().unwrap();
    assert!(guard.contains("\"permissionDecision\":\"deny\""), "{guard}");
    let spin = &first[1]["result"];
    assert_eq!(spin["isError"], true, "{spin}");
    assert!(spin["content"][0]["text"].as_str().unwrap().contains("its worker is ended"), "{spin}");
    let again = &driven["answers"][1][0]["result"];
    assert_eq!(again["isError"], false, "a new worker answers the next call: {again}");
}
