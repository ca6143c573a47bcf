//! The runtime's core (`src/pipeline/emit/runtime/*.mjs`, joined by `runtime_core!`): the decision of a hook as plain
//! ECMAScript, which a host without Node (Claude Code's hooks modules) loads alone and which every
//! artifact's Node runtime begins with, so there is no second implementation. It holds no import, no
//! Node global and no timer: it is run here in a realm that has only the hooks-module worker's globals
//! (`tests/support/bare-core.mjs`), with a real wrapper's contract and handler.

use crate::common;

use common::{build_bundle, require_node, sandbox_dir};
use serde_json::{Value, json};

/// The core's text as the binary embeds it.
const CORE: &str = runtime_core!("../../src/pipeline/emit/runtime/");

/// The core's code lines (comments dropped), each with its line number.
fn code_lines() -> impl Iterator<Item = (usize, &'static str)> {
    CORE.lines().enumerate().map(|(index, line)| {
        let code = if line.trim_start().starts_with("//") { "" } else { line.split(" //").next().unwrap_or(line) };
        (index + 1, code)
    })
}

#[test]
fn the_core_names_nothing_of_node_and_no_timer() {
    // Every path, including those no test runs: a global a worker lacks fails only when it is read.
    let forbidden = regex::Regex::new(concat!(
        r"\bprocess\s*[.\[]|\bBuffer\b|\brequire\s*\(|\b(?:set|clear)(?:Timeout|Interval|Immediate)\b",
        r#"|\bimport\s*[(.]|^\s*import\b|\bfrom\s*['"]|node:|\b__(?:dirname|filename)\b|\bglobal\s*\."#,
    ))
    .unwrap();
    let found: Vec<String> = code_lines()
        .filter(|(_, code)| forbidden.is_match(code))
        .map(|(number, code)| format!("the core's line {number}: {}", code.trim()))
        .collect();
    assert!(
        found.is_empty(),
        "the core must run without Node (ask the host through `services`):\n{}",
        found.join("\n")
    );
    assert!(CORE.ends_with('\n'), "the Node shell follows the core in one file: it ends its last line");
}

#[test]
fn the_core_decides_a_recorded_claude_envelope_with_only_a_hooks_module_worker_globals() {
    require_node();
    let (_guard, artifact) = build_bundle("guards");
    let runtime = std::fs::read_to_string(artifact.join("hooks/agent-bundle-runtime.mjs")).unwrap();
    assert!(runtime.starts_with(CORE), "an artifact's runtime is the core's very text and the Node shell after it");
    let work = sandbox_dir("runtime-core");
    std::fs::write(work.join("core.mjs"), CORE).unwrap();
    let wrapper = std::fs::read_dir(artifact.join("hooks"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("before-tool-deny-dangerous-") && name.ends_with(".claude.mjs")
        })
        .expect("the guards bundle has a Claude wrapper of deny-dangerous");
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string("testdata/envelopes/claude-code/PreToolUse.json").unwrap())
            .unwrap();
    let with_command = |command: &str| {
        let mut envelope = recorded.clone();
        envelope["tool_input"]["command"] = json!(command);
        envelope
    };
    let cases = json!([
        { "envelope": with_command("git push --force origin main") },
        { "envelope": with_command("ls") },
        // A handler that never answers, with the host's timer (firing at once): the deadline fails it.
        { "envelope": with_command("ls"), "handler": "hanging", "timer": true },
    ]);
    let results = run_bare_core(&work, &wrapper, &cases);

    let denied = &results[0];
    assert_eq!(denied["code"], json!(0), "{denied}");
    assert_eq!(denied["stderr"], json!([]), "{denied}");
    let answer: Value = serde_json::from_str(denied["stdout"].as_str().expect("a denial is answered")).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny", "{answer}");
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"],
        "This repository does not allow `git push --force origin main`.",
    );

    // Nothing to say, and no deadline of its own without a timer (the bare realm has none).
    assert_eq!(results[1], json!({ "code": 0, "stderr": [], "timerAsked": [] }));

    let late = &results[2];
    assert_eq!(late["code"], json!(1), "{late}");
    let line = late["stderr"][0].as_str().unwrap();
    assert!(line.contains("the handler did not finish within"), "{line}");
    assert_eq!(late["timerAsked"].as_array().map(Vec::len), Some(1), "the deadline is kept on the host's timer");
}

/// Issue 44, item 4: in a host that runs routes in its own process (OpenCode, Claude Code's hooks
/// modules), `decideInProcess` keeps a route's budget as a wrapper does: a route that never answers
/// is answered for with its failure policy 100 ms after its signal aborted, on the host's timer,
/// before the hook's deadline.
#[test]
fn the_core_keeps_a_routes_budget_on_the_hosts_timer() {
    require_node();
    let (_guard, artifact) = build_bundle("route-matrix");
    let work = sandbox_dir("runtime-core-budget");
    std::fs::write(work.join("core.mjs"), CORE).unwrap();
    // tool/after declares `timeoutMs: 300`.
    let manifest = agent_bundle::artifact::read_verified(&artifact, &agent_bundle::io::RealDisk).unwrap();
    let row = manifest
        .hooks
        .iter()
        .find(|r| r.host == agent_bundle::vocabulary::target::Target::Claude && r.event.name() == "tool/after")
        .unwrap();
    assert_eq!(row.route_budget_ms, Some(300));
    let envelope = common::envelope_with(row, json!({}));
    let cases = json!([{ "envelope": envelope, "handler": "hanging", "timer": "real" }]);
    let results = run_bare_core(&work, artifact.join(&row.path), &cases);
    let late = &results[0];
    assert_eq!((&late["code"], late.get("stdout")), (&json!(1), None), "{late}");
    let line = late["stderr"][0].as_str().unwrap();
    assert!(line.contains("the route did not answer within its budget of 300 ms"), "{line}");
    // The deadline, then the route's signal at its budget (less what has run of it), then its stop
    // 100 ms later.
    let asked: Vec<u64> = late["timerAsked"].as_array().unwrap().iter().map(|ms| ms.as_u64().unwrap()).collect();
    assert_eq!(asked.len(), 3, "{late}");
    assert!(asked[0] > 400 && asked[1] <= 300 && asked[2] == asked[1] + 100, "{late}");
}

/// Runs `cases` through the wrapper module at `wrapper` with the core alone (`core.mjs` in `work`),
/// in the bare environment of tests/support/bare-core.mjs; one result per case.
fn run_bare_core(work: &camino::Utf8Path, wrapper: impl AsRef<std::ffi::OsStr>, cases: &Value) -> Vec<Value> {
    std::fs::write(work.join("cases.json"), cases.to_string()).unwrap();
    let output = std::process::Command::new("node")
        .arg("--experimental-vm-modules")
        .arg("tests/support/bare-core.mjs")
        .arg(work.join("core.mjs"))
        .arg(wrapper)
        .arg(work.join("cases.json"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"))
}
