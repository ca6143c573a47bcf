//! Claude Code's hooks module (`targets: ['claude-mod']`): the artifact's Claude Code plugin (at its
//! root, where `claude`'s is) has a `hooks/hooks.json` that names agent-bundle's hooks module beside
//! the command hooks. A tool hook whose bundle needs nothing the module's environment lacks (no import, no
//! `import()`, only its globals) and whose timeout fits its budget runs there, in-process; every
//! other hook stays a command, and `inspect` says why. The module is driven here under the real node
//! the way Claude Code 2.1.332's engine calls it (`tests/support/claude-mod-host.mjs`), with the
//! artifact copied away from the source tree; the real program runs it in the real-host suite.

use crate::common;

use camino::Utf8Path;
use common::{build_root, cli, copy_tree, require_node};
use serde_json::{Value, json};

const BUNDLE: &str = "testdata/bundles/claude-mod";

fn read_json(path: &Utf8Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

/// Builds `root`, copies its artifact away from the source tree, and raises each step's
/// `tool.call` through its hooks module.
fn drive(root: &str, steps: Value) -> Value {
    require_node();
    let (_guard, artifact) = build_root(Utf8Path::new(root));
    let away = tempfile::tempdir().unwrap();
    copy_tree(artifact.as_std_path(), &away.path().join("plugin"));
    let module = away.path().join("plugin/hooks/agent-bundle-mod.mjs");
    common::node_json("claude-mod-host.mjs", &[module.as_os_str()], &steps)
}

fn bash(command: &str) -> Value {
    json!({ "tool": "Bash", "tool_use_id": "toolu_1", "command": command, "description": "d" })
}

#[test]
fn tool_hooks_that_need_nothing_node_has_run_in_the_module_and_the_rest_stay_commands() {
    let (_guard, artifact) = build_root(Utf8Path::new(BUNDLE));
    let document = read_json(&artifact.join("hooks/hooks.json"));
    assert_eq!(document["modules"], json!(["./agent-bundle-mod.mjs"]));
    let commands: Vec<String> = document["hooks"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(event, groups)| {
            groups.as_array().unwrap().iter().flat_map(move |group| {
                group["hooks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(move |h| format!("{event} {} {}", h["command"], h["args"]))
            })
        })
        .collect();
    // sessionStart (no module event), audit-log (imports node:fs), slow-review (30 s): commands,
    // the last two of one event and so one process per call.
    assert_eq!(commands.len(), 2, "{commands:#?}");
    assert!(commands.iter().any(|c| c.starts_with("SessionStart ") && c.contains("greet")), "{commands:#?}");
    let combined = "hooks/agent-bundle-on-PreToolUse.claude-mod.mjs";
    assert!(commands.iter().any(|c| c.starts_with("PreToolUse ") && c.contains(combined)), "{commands:#?}");
    let runs = std::fs::read_to_string(artifact.join(combined)).unwrap();
    assert!(runs.contains("audit-log") && runs.contains("slow-review"), "{runs}");
    // The module registers the other two, each with its matcher and a failure handler.
    let module = std::fs::read_to_string(artifact.join("hooks/agent-bundle-mod.mjs")).unwrap();
    assert_eq!(module.matches("on(\"tool.call\"").count(), 2, "{module}");
    assert!(module.contains("{ tool: /^(?:Bash|PowerShell)$/ }, ($, e, next) => beforeTool(hook"), "{module}");
    assert!(module.contains("($, e, next) => afterTool(hook"), "{module}");
    assert_eq!(module.matches(".catch(($, e, next) => onFailure(hook").count(), 2, "{module}");
    // A hooks module may not hold `import()`: nothing the module loads does.
    for file in ["agent-bundle-mod.mjs", "agent-bundle-mod-runtime.mjs", "agent-bundle-core.mjs"] {
        let text = std::fs::read_to_string(artifact.join("hooks").join(file)).unwrap();
        assert!(!text.contains("import("), "{file} holds import()");
        assert!(!text.contains("from 'node:") && !text.contains("from \"node:"), "{file} imports node");
    }
    // Nothing is written twice: no second plugin, and the catalog lists the one there is.
    assert!(!artifact.join("claude-mod").exists());
    let index = read_json(&artifact.join("agent-bundle.manifest.json"));
    let in_module: Vec<&str> = index["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["hooksModule"] == json!(true))
        .map(|row| row["nativeEvent"].as_str().unwrap())
        .collect();
    assert_eq!(in_module, ["tool.call", "tool.call"]);
}

#[test]
fn inspect_says_where_each_hook_runs_and_why() {
    let output = cli().args(["inspect", "--root", BUNDLE, "--hooks", "--target", "claude-mod"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    insta::assert_snapshot!("inspect_claude_mod_hooks", stdout);
}

#[test]
fn the_module_denies_rewrites_adds_context_and_keeps_a_fail_closed_guard_closed() {
    let steps = json!([
        bash("git push --force origin main"),
        bash("npm test"),
        bash("ls"),
        bash("throw-in-guard"),
        bash(""),
        // A call the tool answered with an error: afterTool does not judge it (nor does PostToolUse).
        { "tool": "Bash", "tool_use_id": "toolu_2", "command": "false", "result": { "isError": true, "result": "exit 1", "text": "exit 1" } },
        // A tool no module hook selects is not theirs.
        { "tool": "Read", "tool_use_id": "toolu_3", "file_path": "/w/project/.env" },
    ]);
    let driven = drive(BUNDLE, steps);
    let registrations = driven["registrations"].as_array().unwrap();
    assert_eq!(registrations.len(), 2, "{registrations:?}");
    assert!(registrations.iter().all(|r| r["catches"] == json!(true)));
    let results = driven["results"].as_array().unwrap();

    // A denial, with the context the model should read after it; the tool never ran.
    assert_eq!(
        results[0]["settled"]["deny"],
        json!(
            "This repository does not allow `git push --force origin main`.\n\nUse `git push --force-with-lease` for rewritten branches."
        )
    );
    assert_eq!(results[0]["ran"], json!([]));

    // A rewrite: the tool ran with the new command, its name and id kept; afterTool saw what ran.
    assert_eq!(results[1]["ran"][0]["command"], json!("npm test -- --reporter=dot"));
    assert_eq!(results[1]["ran"][0]["tool"], json!("Bash"));
    assert_eq!(results[1]["ran"][0]["tool_use_id"], json!("toolu_1"));
    assert_eq!(results[1]["settled"]["context"], json!(["after-shell saw: npm test -- --reporter=dot"]));

    // Nothing to say before; context after.
    assert_eq!(results[2]["ran"], json!([bash("ls")]));
    assert_eq!(results[2]["settled"]["result"], json!({ "stdout": "ran" }));
    assert_eq!(results[2]["settled"]["context"], json!(["after-shell saw: ls"]));

    // A fail-closed guard that throws refuses the call, naming why, and logs it for the debug log.
    for broken in [&results[3], &results[4]] {
        let reason = broken["settled"]["deny"].as_str().unwrap_or_else(|| panic!("{broken}"));
        assert!(reason.starts_with("Agent Bundle hook error: before-tool-guard-"), "{reason}");
        assert!(reason.contains("the hook is fail-closed, so the tool call is blocked"), "{reason}");
        assert_eq!(broken["ran"], json!([]));
        let logged = broken["logs"].as_array().unwrap();
        assert!(logged.iter().any(|l| l["to"] == "debug" && l["text"] == reason), "{logged:?}");
    }
    assert!(results[3]["settled"]["deny"].as_str().unwrap().contains("the guard broke on purpose"));

    // An errored call is left as the tool answered it.
    assert_eq!(results[5]["settled"], json!({ "isError": true, "result": "exit 1", "text": "exit 1" }));
    // A Read is no hook's: it runs untouched.
    assert_eq!(results[6]["settled"], json!({ "result": { "stdout": "ran" }, "text": "ran" }));
}

/// The module and the command hook are one runtime: for generated shell commands, the hooks module's
/// answer and Claude Code's command wrapper's answer (run by `hooks simulate`) agree on whether the
/// call is denied, with which reason, and on the command that runs.
#[test]
fn the_module_and_the_command_hook_decide_alike_for_generated_commands() {
    let mut random = common::Random::seeded(27);
    let words = ["ls", "git", "push", "--force", "-f", "origin", "rm", "-rf", "/", "npm", "test", "echo", "x", "  "];
    let mut commands: Vec<String> = vec!["npm test".into(), "git push -f".into(), "rm -rf /".into(), String::new()];
    for _ in 0..40 {
        let length = 1 + random.below(4);
        commands.push((0..length).map(|_| random.pick(&words)).collect::<Vec<_>>().join(" "));
    }
    let steps: Vec<Value> = commands.iter().map(|c| bash(c)).collect();
    let driven = drive(BUNDLE, Value::Array(steps));
    // The same bundle for Claude Code's command hooks only (`claude`, the other form of its plugin).
    let (_guards, artifact) = build_for_commands();
    // Its hooks' names differ (a name's digest covers its targets).
    let (_guard, module_artifact) = build_root(Utf8Path::new(BUNDLE));
    let names = (guard_name(&artifact, "claude"), guard_name(&module_artifact, "claude-mod"));
    for (command, result) in commands.iter().zip(driven["results"].as_array().unwrap()) {
        let output = cli()
            .args(["hooks", "simulate", "--artifact", artifact.as_str(), "--target", "claude", "--json", "--hook"])
            .arg(guard_name(&artifact, "claude"))
            .args(["--input", &json!({ "sessionId": "s", "transcriptPath": "/t", "cwd": "/w/project", "toolName": "Bash", "toolInput": { "command": command }, "toolUseId": "toolu_1" }).to_string()])
            .output()
            .unwrap();
        let simulated: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
        let module_denied = result["settled"]["deny"].as_str();
        let command_denied =
            simulated["outcome"]["reason"].as_str().filter(|_| simulated["outcome"]["outcome"] == "deny");
        let blocked = simulated["blocked"]["reason"].as_str();
        match (module_denied, command_denied, blocked) {
            (Some(module), Some(command_reason), _) => {
                assert!(module.starts_with(command_reason), "`{command}`: {module} vs {command_reason}")
            }
            // The same failure, said by each host's wrapper: the module's names its own host and native
            // event, and no source position (a hooks module has no file system to read source maps from).
            (Some(module), None, Some(block)) => {
                let unplaced = regex_lite_strip_position(block)
                    .replace("(claude PreToolUse)", "(claude-mod tool.call)")
                    .replace(&names.0, &names.1);
                assert_eq!(module, unplaced, "`{command}`")
            }
            (None, None, None) => {
                let rewritten = simulated["outcome"]["updatedInput"]["command"].as_str().unwrap_or(command);
                assert_eq!(result["ran"][0]["command"], json!(rewritten), "`{command}`: {simulated}");
            }
            other => panic!("`{command}` decided differently: module {result}, command {simulated} ({other:?})"),
        }
    }
}

/// A failure line without the source position a command wrapper adds (` (at src/…:10:29)`).
fn regex_lite_strip_position(line: &str) -> String {
    match (line.find(" (at src/"), line.find("); the hook")) {
        (Some(start), Some(end)) if start < end => format!("{}{}", &line[..start], &line[end + 1..]),
        _ => line.to_string(),
    }
}

/// The bundle built for `claude` instead of `claude-mod` (a copy whose config says so): the guards
/// that keep the copy and its artifact, and the artifact's path.
fn build_for_commands() -> ((tempfile::TempDir, tempfile::TempDir), camino::Utf8PathBuf) {
    let copy = tempfile::tempdir().unwrap();
    copy_tree(std::path::Path::new(BUNDLE), copy.path());
    let config = copy.path().join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap();
    let changed = text.replace("targets: ['claude-mod']", "targets: ['claude']");
    assert_ne!(changed, text, "the bundle targets claude-mod");
    std::fs::write(&config, changed).unwrap();
    let _ = std::fs::remove_dir_all(copy.path().join("artifact"));
    let (guard, artifact) = build_root(&common::utf8(copy.path()));
    ((copy, guard), artifact)
}

fn guard_name(artifact: &Utf8Path, host: &str) -> String {
    let index = read_json(&artifact.join("agent-bundle.manifest.json"));
    index["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["host"] == host && row["name"].as_str().unwrap().contains("-guard-"))
        .map(|row| row["name"].as_str().unwrap().to_string())
        .expect("the guard reaches Claude Code")
}

#[test]
fn hooks_simulate_runs_a_module_hook_as_the_module_does() {
    let (_guard, artifact) = build_root(Utf8Path::new(BUNDLE));
    let input = json!({ "sessionId": "s", "transcriptPath": "/t", "cwd": "/w/project", "toolName": "Bash", "toolInput": { "command": "git push --force" }, "toolUseId": "toolu_1" });
    let output = cli()
        .args(["hooks", "simulate", "--artifact", artifact.as_str(), "--target", "claude-mod", "--json", "--hook"])
        .arg(guard_name(&artifact, "claude-mod"))
        .args(["--input", &input.to_string()])
        .output()
        .unwrap();
    let simulated: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(simulated["hook"]["nativeEvent"], "tool.call", "{simulated}");
    assert_eq!(simulated["envelope"]["hook_event_name"], "tool.call");
    assert_eq!(simulated["outcome"]["outcome"], "deny", "{simulated}");
    assert_eq!(simulated["outcome"]["reason"], "This repository does not allow `git push --force`.");
    let answer: Value = serde_json::from_str(simulated["stdout"].as_str().unwrap()).unwrap();
    assert_eq!(answer["deny"], "This repository does not allow `git push --force`.");
}

/// Every part of a result through the hooks module's contract, from a pure handler that answers by
/// the command it is given: an explicit allow is dropped with a note (`tool.call` has no permission
/// decision), an ask blocks the call rather than let it through unasked, a result of the wrong shape
/// fails the hook (open here: the call runs), and the model never reads a failure as an answer.
#[test]
fn every_result_part_takes_its_way_through_the_module() {
    let temp = tempfile::tempdir().unwrap();
    common::write_file(
        temp.path(),
        "agent-bundle.config.ts",
        "export default {\n  hooks: { beforeTool: { handler: './shapes.ts', tools: ['shell'] } },\n  plugin: { name: 'shapes', description: 'd', version: '1.0.0' },\n  targets: ['claude-mod'],\n};\n",
    );
    common::write_file(
        temp.path(),
        "shapes.ts",
        "export default ({ toolInput }: { toolInput: { command: string } }) => {\n\
           switch (toolInput.command) {\n\
             case 'allow': return { outcome: 'allow' };\n\
             case 'ask': return { outcome: 'ask' };\n\
             case 'bad': return { outcome: 'maybe' };\n\
             case 'context': return { additionalContext: 'before-context' };\n\
             case 'nothing': return undefined;\n\
             default: throw new Error('unknown shape');\n\
           }\n\
         };\n",
    );
    let root = common::utf8(temp.path());
    let steps: Vec<Value> = ["allow", "ask", "bad", "context", "nothing"].iter().map(|c| bash(c)).collect();
    let driven = drive(root.as_str(), Value::Array(steps));
    let results = driven["results"].as_array().unwrap();
    let debug = |index: usize| -> Vec<String> {
        results[index]["logs"].as_array().unwrap().iter().map(|l| l["text"].as_str().unwrap().to_string()).collect()
    };
    // allow: the call runs, and one note says what was dropped.
    assert_eq!(results[0]["ran"], json!([bash("allow")]));
    assert!(debug(0)[0].contains("dropped an explicit allow"), "{:?}", debug(0));
    // ask: blocked, with the runtime's own line as the reason; the tool never ran.
    let refused = results[1]["settled"]["deny"].as_str().unwrap_or_else(|| panic!("{}", results[1]));
    assert!(refused.starts_with("Agent Bundle hook blocked: "), "{refused}");
    assert_eq!(results[1]["ran"], json!([]));
    // A result of the wrong shape: the hook fails open (not fail-closed), the call runs, nothing fabricated.
    assert_eq!(results[2]["ran"], json!([bash("bad")]));
    assert_eq!(results[2]["settled"], json!({ "result": { "stdout": "ran" }, "text": "ran" }));
    assert!(debug(2)[0].starts_with("Agent Bundle hook error: "), "{:?}", debug(2));
    // Context before the call reaches the model with the call's result.
    assert_eq!(results[3]["settled"]["context"], json!(["before-context"]));
    assert_eq!(results[4]["settled"], json!({ "result": { "stdout": "ran" }, "text": "ran" }));
    assert!(debug(4).is_empty());
}
