//! Cline CLI's hook files (`cline/PreToolUse.mjs`, …) as Cline runs them: under node, in the project,
//! with a recorded payload on stdin and the answer read from stdout. The artifact's `cline/` folder is
//! a hooks folder of its own; the files run its hooks through its module and answer in Cline's words
//! (`cancel`, `overrideInput`, `contextModification`), and a fail-closed hook that fails cancels the
//! call, since Cline runs the tool when a hook file fails.

use crate::common;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// The artifact of a real-host scenario (testdata/e2e/<name>), its `cline/` folder copied away.
fn hooks_folder(scenario: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (_built, artifact) = common::build_root(camino::Utf8Path::new("testdata/e2e").join(scenario).as_path());
    let temp = tempfile::tempdir().unwrap();
    let folder = temp.path().join("hooks");
    common::copy_tree(artifact.join("cline").as_std_path(), &folder);
    (temp, folder)
}

/// Runs the hook file `file` of `folder` on `payload`: its exit code, stdout and stderr.
fn run(folder: &Path, file: &str, payload: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new("node")
        .arg(folder.join(file))
        .current_dir(folder)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload).unwrap();
    let output = child.wait_with_output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

fn recorded(name: &str) -> Vec<u8> {
    std::fs::read(format!("testdata/envelopes/cline/{name}")).unwrap()
}

fn answer(stdout: &str) -> Value {
    if stdout.is_empty() { Value::Null } else { serde_json::from_str(stdout).unwrap() }
}

#[test]
fn a_denial_cancels_the_call_with_its_reason_and_other_tools_pass() {
    common::require_node();
    let (_temp, folder) = hooks_folder("deny-shell");
    let (code, stdout, stderr) = run(&folder, "PreToolUse.mjs", &recorded("PreToolUse.run_commands.json"));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        answer(&stdout),
        json!({ "cancel": true, "errorMessage": "E2E_DENY_REASON: agent-bundle blocked this command" })
    );
    // The guard takes the shell only: a read is not its call.
    let (code, stdout, _) = run(&folder, "PreToolUse.mjs", &recorded("PreToolUse.read_files.json"));
    assert_eq!((code, stdout.as_str()), (Some(0), ""));
    // The files of the events the plugin has no hooks on are not written.
    assert!(!folder.join("PostToolUse.mjs").exists() && !folder.join("TaskStart.mjs").exists());
}

#[test]
fn a_rewrite_is_the_input_cline_runs_and_context_follows_the_tool() {
    common::require_node();
    let (_temp, folder) = hooks_folder("rewrite-shell");
    let (code, stdout, stderr) = run(&folder, "PreToolUse.mjs", &recorded("PreToolUse.run_commands.json"));
    assert_eq!(code, Some(0), "{stderr}");
    // Cline's `commands` list, in the handler's canonical `command`: a list of the one line.
    assert_eq!(answer(&stdout), json!({ "overrideInput": { "commands": ["echo rewritten > rewritten.txt"] } }));

    let (_temp, folder) = hooks_folder("after-context");
    let (code, stdout, stderr) = run(&folder, "PostToolUse.mjs", &recorded("PostToolUse.run_commands.json"));
    assert_eq!(code, Some(0), "{stderr}");
    let context = answer(&stdout)["contextModification"].as_str().unwrap().to_string();
    assert!(context.starts_with("E2E_AFTER_MARKER"), "{stdout}");
}

#[test]
fn a_failing_hook_cancels_only_when_it_is_fail_closed() {
    common::require_node();
    let (_temp, folder) = hooks_folder("fail-closed-throws");
    let (code, stdout, stderr) = run(&folder, "PreToolUse.mjs", &recorded("PreToolUse.run_commands.json"));
    assert_eq!(code, Some(0), "{stderr}");
    let answer_given = answer(&stdout);
    assert_eq!(answer_given["cancel"], true, "{stdout}");
    assert!(answer_given["errorMessage"].as_str().unwrap().contains("E2E_FAIL_CLOSED"), "{stdout}");

    // Fail-open: nothing on stdout, so the call runs; the failure is on stderr.
    let (_temp, folder) = hooks_folder("throws");
    let (code, stdout, stderr) = run(&folder, "PreToolUse.mjs", &recorded("PreToolUse.run_commands.json"));
    assert_eq!((code, stdout.as_str()), (Some(0), ""), "{stderr}");
    assert!(stderr.contains("E2E_THROW"), "{stderr}");
}

/// The canonical guard (testdata/bundles/canonical-tools: no `rm -rf`, no `.env` read or written,
/// fail-closed) judges every command line of a call, every file a read lists and the file an editor
/// creates; a call whose input it cannot read cancels.
#[test]
fn the_canonical_guard_judges_every_line_and_file_of_a_call() {
    common::require_node();
    let (_built, artifact) = common::build_bundle("canonical-tools");
    let temp = tempfile::tempdir().unwrap();
    let folder = temp.path().join("hooks");
    common::copy_tree(artifact.join("cline").as_std_path(), &folder);
    let decide = |file: &str, recorded_name: &str, input: Value| {
        let mut payload: Value = serde_json::from_slice(&recorded(recorded_name)).unwrap();
        payload["tool_call"]["input"] = input;
        let (code, stdout, stderr) = run(&folder, file, payload.to_string().as_bytes());
        assert_eq!(code, Some(0), "{stderr}");
        answer(&stdout)
    };
    let cancelled = |answer: &Value| answer["cancel"] == true;
    let shell = |input: Value| decide("PreToolUse.mjs", "PreToolUse.run_commands.json", input);
    assert!(!cancelled(&shell(json!({ "commands": ["ls -la", "echo done"] }))));
    assert!(cancelled(&shell(json!({ "commands": ["ls -la", "rm -rf /"] }))), "the second line is judged too");
    let unreadable = shell(json!({ "commands": [{ "command": "rm", "args": ["-rf", "/"] }] }));
    assert!(cancelled(&unreadable), "{unreadable}");
    assert!(unreadable["errorMessage"].as_str().unwrap().contains("tool.command cannot be read"), "{unreadable}");

    let read = |input: Value| decide("PreToolUse.mjs", "PreToolUse.read_files.json", input);
    assert!(!cancelled(&read(json!({ "files": [{ "path": "/w/README.md" }] }))));
    assert!(cancelled(&read(json!({ "files": [{ "path": "/w/README.md" }, { "path": "/w/.env" }] }))));
    assert!(cancelled(&read(json!({ "files": ["/w/.env"] }))), "a list of plain paths");

    let edit = |input: Value| decide("PreToolUse.mjs", "PreToolUse.editor.create.json", input);
    assert!(!cancelled(&edit(json!({ "path": "/w/src/main.ts", "new_text": "x" }))));
    assert!(cancelled(&edit(json!({ "path": "/w/.env", "new_text": "KEY=value" }))), "a created file");
    assert!(cancelled(&edit(json!({ "path": "/w/.env", "old_text": "A", "new_text": "B" }))), "an edit");
}
