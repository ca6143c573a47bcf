//! OpenCode's entry module (`opencode/plugin.mjs`), driven under the real node the way OpenCode 1.18.33
//! calls a plugin's hooks, with the hook arguments OpenCode really passed (`testdata/envelopes/opencode/`):
//! a denial is thrown (OpenCode blocks the tool and shows the model the message), a rewrite replaces
//! the arguments, after-tool context is appended to the output the model reads, session context joins
//! the system prompt of that session only, and a failing fail-closed guard blocks while a failing
//! open one lets the call through. The real program runs the same artifacts in the real-host suite.

use crate::common;

use camino::Utf8Path;
use common::{build_root, copy_tree, require_node};
use serde_json::{Value, json};

fn recorded(name: &str) -> Value {
    let path = format!("testdata/envelopes/opencode/{name}.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

/// Builds `root`, copies the artifact away from the source tree, and runs `steps` through its entry
/// module; returns each step's `{threw, output}`.
fn drive(root: &str, steps: Value) -> Vec<Value> {
    require_node();
    let (_guard, artifact) = build_root(Utf8Path::new(root));
    let away = tempfile::tempdir().unwrap();
    copy_tree(artifact.join("opencode").as_std_path(), &away.path().join("plugin"));
    let plugin = away.path().join("plugin/plugin.mjs");
    let results = common::node_json("opencode-host.mjs", &[plugin.as_os_str(), "/w/project".as_ref()], &steps);
    serde_json::from_value(results).unwrap()
}

/// The recorded `tool.execute.before` of `tool`, with its arguments replaced by `args`.
fn before(tool: &str, args: Value) -> Value {
    let mut step = recorded(&format!("hook.tool.execute.before.{tool}"));
    step["hook"] = json!("tool.execute.before");
    step["output"]["args"] = args;
    step
}

#[test]
fn the_guards_example_blocks_by_throwing_and_lets_other_calls_through() {
    let steps = json!([
        before("bash", json!({ "command": "git push --force origin main", "description": "d" })),
        before("bash", json!({ "command": "ls", "description": "d" })),
        before("write", json!({ "filePath": "/w/project/secrets/token.txt", "content": "KEY=value" })),
        before("write", json!({ "filePath": "/w/project/notes.txt", "content": "hello" })),
        // The fail-closed policy cannot tell what an empty command touches: it throws, so the call is blocked.
        before("bash", json!({ "command": "", "description": "d" })),
        // A tool none of the guards selects is not theirs to judge.
        before("read", json!({ "filePath": "/w/project/.env" })),
    ]);
    let results = drive("testdata/bundles/guards", steps);
    let threw: Vec<Option<&str>> = results.iter().map(|r| r["threw"].as_str()).collect();
    assert_eq!(threw[0], Some("This repository does not allow `git push --force origin main`."));
    assert_eq!(threw[1], None);
    assert_eq!(threw[2], Some("secrets/ is protected by policy."));
    assert_eq!(threw[3], None);
    let broken = threw[4].expect("a failing fail-closed guard blocks");
    assert!(
        broken.contains("cannot tell what bash touches") && broken.contains("the tool call is blocked"),
        "{broken}"
    );
    assert_eq!(threw[5], None);
    // Nothing is rewritten by a guard that only judges.
    assert_eq!(results[1]["output"]["args"], json!({ "command": "ls", "description": "d" }));
}

#[test]
fn a_rewrite_replaces_the_arguments_the_tool_runs_with() {
    let results = drive(
        "testdata/e2e/rewrite-shell",
        json!([before("bash", json!({ "command": "echo hi > x", "description": "d" }))]),
    );
    assert_eq!(results[0]["threw"], Value::Null);
    assert_eq!(
        results[0]["output"]["args"],
        json!({ "command": "echo rewritten > rewritten.txt", "description": "d" })
    );
}

#[test]
fn after_tool_context_is_appended_to_the_output_the_model_reads() {
    let mut step = recorded("hook.tool.execute.after.bash");
    step["hook"] = json!("tool.execute.after");
    let results = drive("testdata/e2e/after-context", json!([step]));
    assert_eq!(results[0]["threw"], Value::Null);
    assert_eq!(results[0]["output"]["output"], "(no output)\n\nE2E_AFTER_MARKER: seen after the tool ran");
    assert_eq!(results[0]["output"]["title"], step["output"]["title"], "the rest of the output is OpenCode's");
}

#[test]
fn session_context_joins_the_system_prompt_of_that_session_only() {
    let created = recorded("event.session.created");
    let subagent = recorded("event.session.created.subagent");
    let transform = |session: &Value| {
        let mut step = recorded("hook.experimental.chat.system.transform");
        step["hook"] = json!("experimental.chat.system.transform");
        step["input"]["sessionID"] = session["properties"]["sessionID"].clone();
        step["output"]["system"] = json!(["You are OpenCode."]);
        step
    };
    let steps = json!([
        { "event": created },
        { "event": subagent },
        transform(&created),
        transform(&subagent),
    ]);
    let results = drive("testdata/e2e/session-context", steps);
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    assert_eq!(
        results[2]["output"]["system"],
        json!(["You are OpenCode.", "E2E_SESSION_MARKER: context from agent-bundle"])
    );
    assert_eq!(
        results[3]["output"]["system"],
        json!(["You are OpenCode."]),
        "a subagent's session (parentID) is not a session start"
    );
}

#[test]
fn a_failing_hook_without_fail_closed_lets_the_call_through() {
    let results =
        drive("testdata/e2e/throws", json!([before("bash", json!({ "command": "echo hi > x", "description": "d" }))]));
    assert_eq!(results[0]["threw"], Value::Null, "the call goes on");
    assert_eq!(results[0]["output"]["args"]["command"], "echo hi > x", "and nothing is fabricated");
}
