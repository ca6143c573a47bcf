//! Pi's extension (`pi/extension.mjs`), driven under the real node the way Pi 0.73.1 calls an
//! extension's handlers, with the events and contexts Pi really passed (`testdata/envelopes/pi/`): a
//! denial is `{ block: true, reason }`, a rewrite edits the call's input in place, after-tool context
//! is added to the result the model reads (not for a failed call, which is no afterTool), session
//! context joins the system prompt, a stop's denial is a follow-up message that starts another run
//! (released on re-entry), and a failing fail-closed guard throws (Pi blocks the call) while a failing
//! open one lets the call through. The real program runs the same artifacts in the real-host suite.

use crate::common;

use camino::Utf8Path;
use common::{build_root, copy_tree, require_node};
use serde_json::{Value, json};

fn recorded(name: &str) -> Value {
    let path = format!("testdata/envelopes/pi/{name}.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

/// Builds `root`, copies the artifact's `pi/` folder away from the source tree, and runs `steps`
/// through its extension; returns each step's `{threw, returned, event, sent}`.
fn drive(root: &str, steps: Value) -> Vec<Value> {
    require_node();
    let (_guard, artifact) = build_root(Utf8Path::new(root));
    let away = tempfile::tempdir().unwrap();
    copy_tree(artifact.join("pi").as_std_path(), &away.path().join("extension"));
    let extension = away.path().join("extension/extension.mjs");
    let results = common::node_json("pi-host.mjs", &[extension.as_os_str()], &steps);
    serde_json::from_value(results).unwrap()
}

/// The recorded `tool_call` of `tool`, with its input replaced by `input`.
fn call(tool: &str, input: Value) -> Value {
    let mut step = recorded(&format!("tool_call.{tool}"));
    step["event"]["input"] = input;
    step
}

#[test]
fn the_guards_example_blocks_with_its_reason_and_lets_other_calls_through() {
    let steps = json!([
        call("bash", json!({ "command": "git push --force origin main" })),
        call("bash", json!({ "command": "ls" })),
        call("write", json!({ "path": "/w/project/secrets/token.txt", "content": "KEY=value" })),
        call("write", json!({ "path": "/w/project/notes.txt", "content": "hello" })),
        // The fail-closed policy cannot tell what an empty command touches: it throws, so Pi blocks.
        call("bash", json!({ "command": "" })),
        // A tool none of the guards selects is not theirs to judge.
        call("read", json!({ "path": "/w/project/.env" })),
    ]);
    let results = drive("testdata/bundles/guards", steps);
    let block = |reason: &str| json!([{ "block": true, "reason": reason }]);
    assert_eq!(results[0]["returned"], block("This repository does not allow `git push --force origin main`."));
    assert_eq!(results[1]["returned"], json!([]));
    assert_eq!(results[2]["returned"], block("secrets/ is protected by policy."));
    assert_eq!(results[3]["returned"], json!([]));
    let broken = results[4]["threw"].as_str().expect("a failing fail-closed guard blocks");
    assert!(
        broken.contains("cannot tell what bash touches") && broken.contains("the tool call is blocked"),
        "{broken}"
    );
    assert_eq!(results[5]["returned"], json!([]));
    assert!(results.iter().enumerate().all(|(i, r)| i == 4 || r["threw"].is_null()), "{results:?}");
    // Nothing is rewritten by a guard that only judges.
    assert_eq!(results[1]["event"]["input"], json!({ "command": "ls" }));
}

#[test]
fn a_rewrite_edits_the_input_the_tool_runs_with() {
    let results = drive("testdata/e2e/rewrite-shell", json!([call("bash", json!({ "command": "echo hi > x" }))]));
    assert_eq!(results[0]["threw"], Value::Null);
    assert_eq!(results[0]["returned"], json!([]), "a rewrite is no block");
    assert_eq!(results[0]["event"]["input"], json!({ "command": "echo rewritten > rewritten.txt" }));
}

#[test]
fn after_tool_context_is_added_to_the_result_the_model_reads_but_not_for_a_failed_call() {
    let ran = recorded("tool_result.bash");
    let failed = recorded("tool_result.read.error");
    assert_eq!(failed["event"]["isError"], true);
    let results = drive("testdata/e2e/after-context", json!([ran, failed]));
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    let mut content = ran["event"]["content"].as_array().unwrap().clone();
    content.push(json!({ "type": "text", "text": "E2E_AFTER_MARKER: seen after the tool ran" }));
    assert_eq!(results[0]["returned"], json!([{ "content": content }]));
    assert_eq!(results[1]["returned"], json!([]), "a failed call is no afterTool: Pi's result stands");
}

#[test]
fn session_context_joins_the_system_prompt_of_each_prompt() {
    let mut prompt = recorded("before_agent_start");
    prompt["event"]["systemPrompt"] = json!("You are Pi.");
    let results = drive("testdata/e2e/session-context", json!([recorded("session_start"), prompt]));
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    assert_eq!(results[0]["returned"], json!([]), "Pi ignores what session_start returns");
    assert_eq!(
        results[1]["returned"],
        json!([{ "systemPrompt": "You are Pi.\n\nE2E_SESSION_MARKER: context from agent-bundle" }])
    );
}

#[test]
fn a_stop_denial_sends_a_follow_up_that_starts_a_run_and_re_entry_releases_it() {
    let end = recorded("agent_end");
    let user = recorded("input");
    assert_eq!(user["event"]["source"], "interactive");
    let results = drive("testdata/e2e/stop-once", json!([end, end, user, end]));
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    let follow_up = json!([{
        "message": { "customType": "agent-bundle", "content": "E2E_STOP_REASON: check the work once more", "display": true },
        "options": { "deliverAs": "followUp", "triggerTurn": true }
    }]);
    assert_eq!(results[0]["sent"], follow_up, "the agent goes on with the reason");
    assert_eq!(results[1]["sent"], json!([]), "re-entry: the hook releases");
    assert_eq!(results[3]["sent"], follow_up, "the user's next prompt starts afresh");
    let registered = results[0]["registered"].as_array().unwrap();
    assert!(!registered.contains(&json!("tool_call")), "only the events the plugin's hooks take: {registered:?}");
}

#[test]
fn a_failing_hook_without_fail_closed_lets_the_call_through() {
    let results = drive("testdata/e2e/throws", json!([call("bash", json!({ "command": "echo hi > x" }))]));
    assert_eq!(results[0]["threw"], Value::Null, "the call goes on");
    assert_eq!(results[0]["returned"], json!([]));
    assert_eq!(results[0]["event"]["input"]["command"], "echo hi > x", "and nothing is fabricated");
}

#[test]
fn a_failed_call_is_a_tool_failure_routes_told_its_text() {
    let failed = recorded("tool_result.read.error");
    let text = failed["event"]["content"][0]["text"].as_str().unwrap().to_string();
    let results = drive("testdata/e2e/route-tool-failure", json!([failed, recorded("tool_result.read")]));
    assert!(results.iter().all(|r| r["threw"].is_null()), "{results:?}");
    let added = results[0]["returned"][0]["content"].as_array().expect("the route's context is added").clone();
    let context = added.last().unwrap()["text"].as_str().unwrap();
    assert!(context.starts_with("E2E_FAILURE_CONTEXT: "), "{context}");
    assert!(
        text.starts_with(&context["E2E_FAILURE_CONTEXT: ".len()..]),
        "the route is told the failure's text: {context}"
    );
    assert_eq!(results[1]["returned"], json!([]), "a call that ran is no failure");
}

#[test]
fn session_hooks_run_for_the_sources_they_name() {
    let mut prompt = recorded("before_agent_start");
    prompt["event"]["systemPrompt"] = json!("You are Pi.");
    let started = recorded("session_start");
    assert_eq!(started["event"]["reason"], "startup");
    let ran = drive("testdata/e2e/session-sources-startup", json!([started, prompt]));
    let prompt_of = |results: &[Value]| results[1]["returned"][0]["systemPrompt"].as_str().map(str::to_string);
    assert!(prompt_of(&ran).is_some_and(|p| p.contains("E2E_SOURCES_MARKER")), "{ran:?}");
    let skipped = drive("testdata/e2e/session-sources-resume", json!([started, prompt]));
    assert_eq!(skipped[1]["returned"], json!([]), "a resume hook does not run at startup: {skipped:?}");
}
