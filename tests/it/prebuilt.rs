//! Prebuilt handlers, simulated and listed (issue 47, item 5): a prebuilt handler is a program of its
//! own, which each host's document runs with its `args`; `hooks list` lists it, `hooks simulate`
//! runs the host's command for it as the host runs it (its own native answer decoded, its own
//! blocking exit taken as its answer), and a snapshot records its answers.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{self, cli};

/// A prebuilt guard: it reads the host's envelope, blocks (exit 2, the reason on stderr) a command
/// that removes everything, and otherwise says which event, folder and arguments it ran with.
const GUARD: &str = "let input = '';\n\
process.stdin.on('data', (chunk) => { input += chunk; });\n\
process.stdin.on('end', () => {\n\
  const envelope = JSON.parse(input);\n\
  const args = envelope.tool_input ?? envelope.toolArgs ?? {};\n\
  const command = typeof args === 'string' ? args : String(args.command ?? '');\n\
  if (command.includes('rm -rf')) { process.stderr.write('prebuilt: not rm -rf'); process.exit(2); }\n\
  process.stdout.write(JSON.stringify({ systemMessage: `prebuilt ran with ${process.argv.slice(2).join(' ')}` }));\n\
});\n";

const HOSTS: &[&str] = &["claude", "codex", "copilot", "gemini", "cursor", "droid", "qwen"];

fn built() -> (tempfile::TempDir, std::path::PathBuf, Value) {
    let root = tempfile::tempdir().unwrap();
    let targets = HOSTS.iter().chain(["opencode"].iter()).map(|h| format!("'{h}'")).collect::<Vec<_>>().join(", ");
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        &format!(
            "export default {{\n  hooks: {{\n    beforeTool: {{ handler: {{ prebuilt: './dist/rt/guard.js' }}, args: ['--mode', 'strict'], tools: ['shell'] }},\n  }},\n  payload: {{ rt: {{ source: './dist/rt' }} }},\n  plugin: {{ name: 'prebuilt-guard', description: 'A guard built by its project.', version: '1.0.0', author: 'agent-bundle tests' }},\n  targets: [{targets}],\n}};\n"
        ),
    );
    common::write_file(root.path(), "dist/rt/guard.js", GUARD);
    let output = cli().args(["agent-bundle", "build", "--root"]).arg(root.path()).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let artifact = root.path().join("artifact").canonicalize().unwrap();
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(artifact.join("agent-bundle.manifest.json")).unwrap()).unwrap();
    (root, artifact, index)
}

fn simulate(artifact: &Path, host: &str, hook: &str, input: &Value) -> (Option<i32>, Value) {
    let output = cli()
        .args(["agent-bundle", "hooks", "simulate", "--json", "--target", host, "--hook", hook, "--artifact"])
        .arg(artifact)
        .arg("--input")
        .arg(input.to_string())
        .output()
        .unwrap();
    let run = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{host}: {}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code(), run)
}

#[test]
fn a_prebuilt_handler_is_listed_and_simulated_as_its_host_runs_it() {
    common::require_node();
    let (_root, artifact, index) = built();
    let rows = index["hooks"].as_array().unwrap();
    // Every command host indexes it, as the program its document runs; OpenCode cannot run it.
    for host in HOSTS {
        let row = rows.iter().find(|r| r["host"] == *host).unwrap_or_else(|| panic!("{host}: {index:#}"));
        assert_eq!(row["prebuilt"], true, "{row}");
        assert!(row["path"].as_str().unwrap().ends_with("rt/guard.js"), "{row}");
        assert!(artifact.join(row["path"].as_str().unwrap()).is_file(), "{row}");
    }
    assert!(!rows.iter().any(|r| r["host"] == "opencode"), "{index:#}");
    let listed = cli()
        .args(["agent-bundle", "hooks", "list", "--target", "gemini", "--artifact"])
        .arg(&artifact)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.contains("gemini/rt/guard.js (prebuilt)"), "{listed}");
    assert!(listed.contains("Listed 1 hook for gemini"), "{listed}");

    for host in HOSTS {
        let hook = rows.iter().find(|r| r["host"] == *host).unwrap()["name"].as_str().unwrap().to_string();
        // Its own answer, with the arguments the document gives it: decoded as the host reads it.
        let (code, run) =
            simulate(&artifact, host, &hook, &json!({ "toolName": "Bash", "toolInput": { "command": "ls" } }));
        assert_eq!(code, Some(0), "{host}: {run:#}");
        assert_eq!(run["exitCode"], 0, "{host}: {run:#}");
        assert_eq!(run["stdout"], "{\"systemMessage\":\"prebuilt ran with --mode strict\"}", "{host}: {run:#}");
        // Its own blocking exit is its answer: simulate exits 0 and says so.
        let (code, run) =
            simulate(&artifact, host, &hook, &json!({ "toolName": "Bash", "toolInput": { "command": "rm -rf /" } }));
        assert_eq!(run["exitCode"], 2, "{host}: {run:#}");
        assert_eq!(run["blocked"]["reason"], "prebuilt: not rm -rf", "{host}: {run:#}");
        assert_eq!(code, Some(0), "{host}: a block the program meant is an answer: {run:#}");
    }
}

/// A prebuilt handler's answers are recorded in a snapshot, like a wrapper's.
#[test]
fn a_prebuilt_handlers_answers_are_snapshotted() {
    common::require_node();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    common::write_file(
        dir,
        "bundles/guard/agent-bundle.config.ts",
        "export default {\n  hooks: { beforeTool: { handler: { prebuilt: './dist/rt/guard.js' }, args: ['--mode', 'strict'], tools: ['shell'] } },\n  payload: { rt: { source: './dist/rt' } },\n  plugin: { name: 'prebuilt-guard', description: 'A guard built by its project.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['claude'],\n};\n",
    );
    common::write_file(dir, "bundles/guard/dist/rt/guard.js", GUARD);
    common::write_file(
        dir,
        "snapshots/prebuilt-guard/inputs/beforeTool/rm.json",
        r#"{ "sessionId": "s", "transcriptPath": "/t", "cwd": "/w", "toolName": "Bash", "toolInput": { "command": "rm -rf /" }, "toolUseId": "t1" }"#,
    );
    let snapshot = |args: &[&str]| {
        cli().current_dir(dir).arg("snapshot").args(args).args(["--root", "bundles", "--recursive"]).output().unwrap()
    };
    snapshot(&[]);
    assert!(snapshot(&["accept"]).status.success());
    let golden = std::fs::read_to_string(dir.join("snapshots/prebuilt-guard/claude.snap")).unwrap();
    assert!(golden.contains("  prebuilt  rt/guard.js\n"), "{golden}");
    assert!(golden.contains("\nexit   2\nstdout (empty)\nstderr prebuilt: not rm -rf\n"), "{golden}");
    let checked = snapshot(&["--check"]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stdout));
}

/// A prebuilt handler serves every event a config hook with a module handler serves, on every host
/// that runs commands: the same rows are indexed for both, each of them runnable.
#[test]
fn a_prebuilt_handler_serves_every_event_a_module_handler_serves() {
    common::require_node();
    let events = ["sessionStart", "beforeTool", "afterTool", "stop", "agentStart", "agentStop", "workspaceOpen"];
    let targets = HOSTS.iter().chain(["opencode"].iter()).map(|h| format!("'{h}'")).collect::<Vec<_>>().join(", ");
    let rows_for = |handler: &str| -> Vec<(String, String, String)> {
        let root = tempfile::tempdir().unwrap();
        let hooks: String = events.iter().map(|e| format!("    {e}: {{ handler: {handler} }},\n")).collect();
        common::write_file(
            root.path(),
            "agent-bundle.config.ts",
            &format!(
                "export default {{\n  hooks: {{\n{hooks}  }},\n  payload: {{ rt: {{ source: './dist/rt' }} }},\n  plugin: {{ name: 'every-event', description: 'd', version: '1.0.0', author: 'agent-bundle tests' }},\n  targets: [{targets}],\n}};\n"
            ),
        );
        common::write_file(root.path(), "dist/rt/guard.js", GUARD);
        common::write_file(root.path(), "src/hooks/guard.ts", "export default () => undefined;\n");
        let output = cli().args(["agent-bundle", "build", "--root"]).arg(root.path()).output().unwrap();
        assert!(output.status.success(), "{handler}: {}", String::from_utf8_lossy(&output.stderr));
        let index: Value = serde_json::from_str(
            &std::fs::read_to_string(root.path().join("artifact/agent-bundle.manifest.json")).unwrap(),
        )
        .unwrap();
        let mut rows: Vec<(String, String, String)> = index["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["host"].to_string(), r["event"].to_string(), r["nativeEvent"].to_string()))
            .collect();
        rows.sort();
        rows
    };
    let prebuilt = rows_for("{ prebuilt: './dist/rt/guard.js' }");
    let module: Vec<_> =
        rows_for("'./src/hooks/guard.ts'").into_iter().filter(|(host, ..)| host != "\"opencode\"").collect();
    assert_eq!(prebuilt, module);
    assert!(prebuilt.len() >= 30, "{prebuilt:?}");
}
