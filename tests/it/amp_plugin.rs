//! Amp's plugin (`amp/index.js`), driven under the real node the way Amp's plugin runtime calls a
//! plugin's handlers, with events shaped as Amp's plugin API types them (`amp plugins show-docs` of
//! the pinned version: Amp's threads run on its service, so no event was recorded offline): a denial
//! is `reject-and-continue` with the reason, a rewrite is `modify` with the new input, after-tool
//! context joins the result the model reads (not for a failed call), session and prompt context are
//! the prompt's added message, a stop's denial is `continue` with the reason (released on re-entry),
//! a failing fail-closed guard rejects the call while a failing open one allows it. The real-host
//! suite runs the same artifacts in Amp's own plugin runtime.

use crate::common;

use camino::{Utf8Path, Utf8PathBuf};
use common::{build_root, copy_tree, require_node};
use serde_json::{Value, json};

/// A copy of the bundle at `root` that also targets Amp.
fn with_amp(root: &str) -> (tempfile::TempDir, Utf8PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    common::copy_adding_target(Utf8Path::new(root).as_std_path(), &dir.path().join("bundle"), "amp");
    let bundle = Utf8PathBuf::from_path_buf(dir.path().join("bundle")).unwrap();
    (dir, bundle)
}

/// Builds `root` for Amp, copies the artifact's `amp/` folder away from the source tree, and runs
/// `steps` through its plugin; returns each step's `{threw, returned, registered}`.
fn drive(root: &str, steps: Value) -> Vec<Value> {
    require_node();
    let (_bundle_dir, bundle) = with_amp(root);
    let (_guard, artifact) = build_root(&bundle);
    let away = tempfile::tempdir().unwrap();
    copy_tree(artifact.join("amp").as_std_path(), &away.path().join("plugin"));
    let plugin = away.path().join("plugin/index.js");
    let workspace = away.path().join("workspace");
    std::fs::create_dir_all(&workspace).unwrap();
    let results = common::node_json("amp-host.mjs", &[plugin.as_os_str(), workspace.as_os_str()], &steps);
    serde_json::from_value(results).unwrap()
}

const THREAD: &str = "T-0f4c2a7e-5d1b-4c3e-9a8f-2b6d7e1c0a93";

fn call(tool: &str, input: Value) -> Value {
    json!({ "hookEvent": "tool.call", "event": { "tool": tool, "input": input, "toolUseID": "toolu_01", "thread": { "id": THREAD } } })
}

fn result(tool: &str, input: Value, status: &str, output: Value) -> Value {
    let mut step = call(tool, input);
    step["hookEvent"] = json!("tool.result");
    step["event"]["status"] = json!(status);
    step["event"]["output"] = output;
    step
}

fn prompt(message: &str) -> Value {
    json!({ "hookEvent": "agent.start", "event": { "thread": { "id": THREAD }, "message": message, "id": 1 } })
}

fn turn_end(message: &str) -> Value {
    json!({ "hookEvent": "agent.end", "event": { "thread": { "id": THREAD }, "message": message, "id": 1, "status": "done", "messages": [] } })
}

#[test]
fn the_guards_example_rejects_with_its_reason_and_allows_other_calls() {
    let steps = json!([
        call("shell_command", json!({ "command": "git push --force origin main", "workdir": "/w" })),
        call("shell_command", json!({ "command": "ls" })),
        call("create_file", json!({ "path": "/w/project/secrets/token.txt", "content": "KEY=value" })),
        call(
            "apply_patch",
            json!({ "patchText": "*** Begin Patch\n*** Add File: secrets/x.txt\n+hi\n*** End Patch\n" })
        ),
        call("edit_file", json!({ "path": "/w/project/notes.txt", "old_str": "a", "new_str": "b" })),
        // The fail-closed policy cannot tell what an empty command touches: the call is rejected.
        call("shell_command", json!({ "command": "" })),
        // A tool none of the guards selects is not theirs to judge.
        call("read_web_page", json!({ "url": "https://example.com/" })),
    ]);
    let results = drive("testdata/bundles/guards", steps);
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    let reject = |message: &str| json!({ "action": "reject-and-continue", "message": message });
    assert_eq!(results[0]["returned"], reject("This repository does not allow `git push --force origin main`."));
    assert_eq!(results[1]["returned"], json!({ "action": "allow" }));
    assert_eq!(results[2]["returned"], reject("secrets/ is protected by policy."));
    assert_eq!(results[3]["returned"], reject("secrets/ is protected by policy."), "a patch's files are judged");
    assert_eq!(results[4]["returned"], json!({ "action": "allow" }));
    let broken = &results[5]["returned"];
    assert_eq!(broken["action"], "reject-and-continue", "{broken}");
    let message = broken["message"].as_str().unwrap();
    assert!(message.contains("cannot tell what shell_command touches") && message.contains("blocked"), "{message}");
    assert_eq!(results[6]["returned"], json!({ "action": "allow" }));
    assert_eq!(results[0]["registered"], json!(["tool.call"]), "only the events the plugin's hooks take");
}

#[test]
fn a_rewrite_is_the_input_the_tool_runs_with() {
    let results =
        drive("testdata/e2e/rewrite-shell", json!([call("shell_command", json!({ "command": "echo hi > x" }))]));
    assert_eq!(results[0]["threw"], Value::Null);
    assert_eq!(
        results[0]["returned"],
        json!({ "action": "modify", "input": { "command": "echo rewritten > rewritten.txt" } })
    );
}

#[test]
fn after_tool_context_joins_the_result_the_model_reads_but_not_for_a_failed_call() {
    let input = json!({ "command": "ls" });
    let steps = json!([
        result("shell_command", input.clone(), "done", json!("a.txt\nb.txt")),
        result("shell_command", input.clone(), "done", json!({ "output": "a.txt", "exitCode": 0 })),
        result("shell_command", input.clone(), "error", json!("no such file")),
    ]);
    let results = drive("testdata/e2e/after-context", steps);
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    let context = "E2E_AFTER_MARKER: seen after the tool ran";
    assert_eq!(results[0]["returned"], json!({ "status": "done", "output": format!("a.txt\nb.txt\n\n{context}") }));
    assert_eq!(
        results[1]["returned"],
        json!({ "status": "done", "output": { "output": "a.txt", "exitCode": 0, "additionalContext": context } })
    );
    assert_eq!(results[2]["returned"], Value::Null, "a failed call is no afterTool: Amp's result stands");
}

#[test]
fn session_context_is_added_to_the_threads_next_prompt_once() {
    let start = json!({ "hookEvent": "session.start", "event": { "thread": { "id": THREAD } } });
    let results = drive("testdata/e2e/session-context", json!([start, prompt("hello"), prompt("again")]));
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    assert_eq!(results[0]["returned"], Value::Null, "session.start takes no answer");
    assert_eq!(
        results[1]["returned"],
        json!({ "message": { "content": "E2E_SESSION_MARKER: context from agent-bundle" } })
    );
    assert_eq!(results[2]["returned"], json!({}), "given once, with the thread's first prompt");
}

#[test]
fn a_stop_denial_continues_the_turn_and_re_entry_releases_it() {
    let reason = "E2E_STOP_REASON: check the work once more";
    let steps = json!([prompt("do it"), turn_end("do it"), turn_end(reason), prompt("next"), turn_end("next")]);
    let results = drive("testdata/e2e/stop-once", steps);
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    let go_on = json!({ "action": "continue", "userMessage": reason });
    assert_eq!(results[1]["returned"], go_on, "the agent goes on with the reason");
    assert_eq!(results[2]["returned"], Value::Null, "the turn the follow-up started: re-entry releases");
    assert_eq!(results[4]["returned"], go_on, "the user's next prompt starts afresh");
}

#[test]
fn a_failing_hook_without_fail_closed_lets_the_call_run() {
    let results = drive("testdata/e2e/throws", json!([call("shell_command", json!({ "command": "echo hi > x" }))]));
    assert_eq!(results[0]["threw"], Value::Null);
    assert_eq!(results[0]["returned"], json!({ "action": "allow" }), "nothing is fabricated");
}
