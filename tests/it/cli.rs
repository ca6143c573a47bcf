//! The real binary, run the way users run it, with snapshots of what it prints.

use crate::common;

use std::process::Command;

use common::{cli, cli_snapshot, copy_tree};

use insta_cmd::assert_cmd_snapshot;

/// `cargo agent-bundle …` runs the binary with the subcommand's own name as first argument (for
/// snapshotted commands, which use no cache).
fn as_cargo_runs_it() -> Command {
    let mut command = cli_snapshot();
    command.arg("agent-bundle");
    command
}

#[test]
fn inspect_hooks_of_the_pages_first_sample() {
    assert_cmd_snapshot!(as_cargo_runs_it().args([
        "inspect",
        "--root",
        "testdata/bundles/page-declaring-a-hook",
        "--hooks"
    ]));
}

#[test]
fn the_pages_first_sample_is_named_as_on_the_page() {
    let output =
        cli().args(["inspect", "--root", "testdata/bundles/page-declaring-a-hook", "--hooks"]).output().unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8(output.stdout).unwrap().lines().any(|l| l == "session-start-session-start-7ab7e8a5"));
}

#[test]
fn inspect_hooks_of_the_pages_second_sample() {
    assert_cmd_snapshot!(cli_snapshot().args([
        "inspect",
        "--root",
        "testdata/bundles/page-several-handlers",
        "--hooks"
    ]));
}

#[test]
fn inspect_hooks_of_the_pages_prebuilt_sample() {
    assert_cmd_snapshot!(cli_snapshot().args(["inspect", "--root", "testdata/bundles/page-prebuilt", "--hooks"]));
}

#[test]
fn inspect_summary() {
    assert_cmd_snapshot!(cli_snapshot().args(["inspect", "--root", "testdata/bundles/showcase"]));
}

#[test]
fn inspect_hooks_for_one_target() {
    assert_cmd_snapshot!(cli_snapshot().args([
        "inspect",
        "--root",
        "testdata/bundles/showcase",
        "--hooks",
        "--target",
        "cursor"
    ]));
}

#[test]
fn inspect_hooks_as_json() {
    assert_cmd_snapshot!(cli_snapshot().args(["inspect", "--root", "testdata/bundles/showcase", "--hooks", "--json"]));
}

/// A route's budget is the plan's, per host: its `timeoutMs`, else (shared) the shared runtime's
/// default, else the wrapper's deadline; counted from the request's arrival where it renders shared.
#[test]
fn inspect_routes_shows_each_hosts_budget_and_where_it_comes_from() {
    assert_cmd_snapshot!(
        "inspect_routes_budgets",
        cli_snapshot().args(["inspect", "--root", "testdata/bundles/shared-runtime", "--routes"])
    );
    assert_cmd_snapshot!(
        "inspect_routes_budgets_as_json",
        cli_snapshot().args(["inspect", "--root", "testdata/bundles/shared-runtime", "--routes", "--json"])
    );
}

#[test]
fn inspect_reports_errors_with_exit_code_1() {
    assert_cmd_snapshot!(cli_snapshot().args([
        "inspect",
        "--root",
        "testdata/diagnostics/AB4230-selector-unmapped",
        "--hooks"
    ]));
}

#[test]
fn diagnostics_as_json_lines() {
    assert_cmd_snapshot!(cli_snapshot().args([
        "inspect",
        "--root",
        "testdata/diagnostics/AB4205-invalid-timeout",
        "--message-format",
        "json"
    ]));
}

#[test]
fn errors_in_json_mode_are_part_of_the_document() {
    assert_cmd_snapshot!(cli_snapshot().args([
        "inspect",
        "--root",
        "testdata/diagnostics/AB4202-invalid-selector",
        "--json"
    ]));
}

#[test]
fn missing_root_is_reported() {
    assert_cmd_snapshot!(cli_snapshot().args(["inspect", "--root", "testdata/no-such-bundle"]));
}

#[test]
fn an_unknown_target_is_a_usage_error() {
    assert_cmd_snapshot!(cli_snapshot().args(["inspect", "--root", "testdata/bundles/showcase", "--target", "gemini"]));
}

#[test]
fn help_lists_the_commands() {
    assert_cmd_snapshot!(as_cargo_runs_it().arg("--help"));
}

#[test]
fn output_is_deterministic_across_runs_and_locations() {
    let run = |root: &std::path::Path| {
        let output = cli().arg("inspect").arg("--root").arg(root).args(["--hooks", "--json"]).output().unwrap();
        assert!(output.status.success());
        output.stdout
    };
    let original = std::path::Path::new("testdata/bundles/showcase");
    let first = run(original);
    assert_eq!(first, run(original), "two runs differ");

    let elsewhere = tempfile::tempdir().unwrap();
    copy_tree(original, &elsewhere.path().join("showcase"));
    assert_eq!(first, run(&elsewhere.path().join("showcase")), "output depends on where the bundle is");
}

/// A copy of `testdata/bundles/<bundle>` in a temporary `<folder>`, built there with `cargo
/// agent-bundle build` as a user types it, and a way to run further commands in it.
fn built_in_a_folder_of_its_own(
    bundle: &str,
    folder: &str,
) -> (tempfile::TempDir, impl Fn(&[&str]) -> std::process::Command) {
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join(folder);
    copy_tree(&std::path::Path::new("testdata/bundles").join(bundle), &root);
    let built = cli().current_dir(&root).args(["agent-bundle", "build"]).status();
    assert!(built.unwrap().success(), "building {bundle} failed");
    let in_bundle = move |args: &[&str]| {
        let mut command = as_cargo_runs_it();
        command.current_dir(&root).args(args);
        command
    };
    (work, in_bundle)
}

/// What changes from run to run in `hooks simulate`'s text: the wall time, the bundle's temporary
/// folder and the run's own place (data folder, env file).
const SIMULATE_FILTERS: &[(&str, &str)] = &[
    (r"wall time  \d+ ms", "wall time  [N] ms"),
    (r#"/[^\s"]*/\.tmp[A-Za-z0-9]{6}"#, "[TMP]"),
    (r#"/[^\s"]*/agent-bundle-place-[A-Za-z0-9]{6}"#, "[PLACE]"),
];

/// The page's event-route sample (`src/events/tool/after.tsx`), built and simulated on Claude Code and
/// Codex the way a new user would: from inside the bundle folder, with canonical input and with a
/// recorded native envelope.
#[test]
fn the_pages_event_route_sample_builds_and_simulates_on_claude_and_codex() {
    let (_work, in_bundle) = built_in_a_folder_of_its_own("page-event-route", "page-event-route");
    assert_cmd_snapshot!("page_route_list", in_bundle(&["hooks", "list", "--artifact", "artifact"]));
    assert_cmd_snapshot!("page_route_inspect", in_bundle(&["inspect", "--hooks"]));
    assert_cmd_snapshot!("page_route_inspect_routes", in_bundle(&["inspect", "--routes"]));
    assert_cmd_snapshot!("page_route_inspect_summary", in_bundle(&["inspect"]));
    let input = r#"{"sessionId":"local","transcriptPath":"/tmp/transcript.jsonl","cwd":"/tmp/project","toolName":"Write","toolInput":{"file_path":"/tmp/project/a.txt","content":"x"},"toolUseId":"toolu_1","toolResponse":{"type":"create"},"turnId":"turn-1","permissionMode":"default","model":"test-model"}"#;
    let filters = SIMULATE_FILTERS.to_vec();
    insta::with_settings!({ filters => filters }, {
        for target in ["claude", "codex"] {
            assert_cmd_snapshot!(format!("page_route_simulate_{target}"), in_bundle(&[
                "hooks", "simulate", "--artifact", "artifact", "--target", target,
                "--hook", "event-route-tool-after", "--input", input,
            ]));
        }
    });
    // A Bash call is not a file write: the host would not run the route, and neither does simulate.
    let bash = input.replace("\"Write\"", "\"Bash\"");
    let output = in_bundle(&[
        "hooks",
        "simulate",
        "--artifact",
        "artifact",
        "--target",
        "claude",
        "--hook",
        "event-route-tool-after",
        "--input",
        &bash,
    ])
    .output()
    .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("does not admit the tool `Bash`"));
}

/// The page's three commands, as a new user types them in the bundle folder.
#[test]
fn the_pages_inspect_list_and_simulate_commands() {
    let (_work, in_bundle) = built_in_a_folder_of_its_own("page-declaring-a-hook", "hooks-and-scripts");
    assert_cmd_snapshot!("page_list", in_bundle(&["hooks", "list", "--artifact", "artifact", "--target", "claude"]));
    let filters = SIMULATE_FILTERS.to_vec();
    insta::with_settings!({ filters => filters }, {
        assert_cmd_snapshot!("page_simulate", in_bundle(&[
            "hooks", "simulate", "--artifact", "artifact", "--target", "claude",
            "--hook", "session-start-session-start-7ab7e8a5",
            "--input", r#"{"sessionId":"local","transcriptPath":"/tmp/transcript.jsonl","cwd":"/tmp/project","source":"startup"}"#,
        ]));
        assert_cmd_snapshot!("page_simulate_bare_event_name", in_bundle(&[
            "hooks", "simulate", "--artifact", "artifact", "--target", "claude", "--hook", "session-start",
            "--input", r#"{"sessionId":"local"}"#,
        ]));
        assert_cmd_snapshot!("page_simulate_missing_fields", in_bundle(&[
            "hooks", "simulate", "--artifact", "artifact", "--target", "claude",
            "--hook", "session-start-session-start-7ab7e8a5", "--input", r#"{"sessionId":"local"}"#,
        ]));
    });
}

#[test]
fn simulate_stops_a_hanging_wrapper_with_term_then_kill() {
    let (_guard, artifact) = {
        let temp = tempfile::tempdir().unwrap();
        let output = temp.path().join("artifact");
        assert!(
            cli()
                .args(["build", "--root", "testdata/bundles/wrapper-matrix", "--output"])
                .arg(&output)
                .status()
                .unwrap()
                .success()
        );
        (temp, output)
    };
    let input = r#"{"sessionId":"s","transcriptPath":"/t","cwd":"/w","source":"startup"}"#;
    let started = std::time::Instant::now();
    let output = cli()
        .env("AGENT_BUNDLE_TEST_SHAPE", "hangs")
        .args([
            "hooks",
            "simulate",
            "--target",
            "claude",
            "--hook",
            "session-start-shape-c84e7d8f",
            "--timeout",
            "1",
            "--json",
            "--input",
            input,
            "--artifact",
        ])
        .arg(&artifact)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["timedOut"], true);
    assert_eq!(report["stdout"], "");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

/// `hooks simulate` runs the command of the host's document through the host's shell; with no
/// `node` on PATH it says so rather than reporting the shell's exit 127 as the wrapper's.
#[test]
fn simulate_without_node_on_path_says_so() {
    let temp = tempfile::tempdir().unwrap();
    let artifact = temp.path().join("artifact");
    let built = cli().args(["build", "--root", "testdata/bundles/wrapper-matrix", "--output"]).arg(&artifact).status();
    assert!(built.unwrap().success());
    let shells = temp.path().join("shells");
    std::fs::create_dir_all(&shells).unwrap();
    for shell in ["bash", "sh"] {
        let found = which(shell);
        std::os::unix::fs::symlink(found, shells.join(shell)).unwrap();
    }
    let input = r#"{"sessionId":"s","transcriptPath":"/t","cwd":"/w","source":"startup"}"#;
    for (target, hook) in [("claude", "session-start-shape-c84e7d8f"), ("codex", "session-start-shape-c84e7d8f")] {
        let output = cli()
            .env("PATH", &shells)
            .args(["hooks", "simulate", "--target", target, "--hook", hook, "--input", input, "--artifact"])
            .arg(&artifact)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{target}: {stderr}");
        assert!(stderr.contains("cannot run `node`"), "{target}: {stderr}");
    }
}

fn which(program: &str) -> std::path::PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("`{program}` is not on PATH"))
}

/// `hooks simulate` behaves like the host: it refuses what the host would never run, waits the
/// host's own timeout, accepts a captured native envelope, and takes one canonical input on every host.
#[test]
fn simulate_behaves_like_the_host() {
    let temp = tempfile::tempdir().unwrap();
    let artifact = temp.path().join("artifact");
    let built = cli().args(["build", "--root", "testdata/bundles/showcase", "--output"]).arg(&artifact).status();
    assert!(built.unwrap().success());
    let simulate = |args: &[&str]| {
        let output = cli().args(["hooks", "simulate", "--artifact"]).arg(&artifact).args(args).output().unwrap();
        (output.status.code(), String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
    };
    let guard = "before-tool-guard-shell-c564ae45";

    // A tool the matcher does not admit: the host would not run the hook, so neither does simulate.
    let (code, _, stderr) = simulate(&[
        "--target",
        "claude",
        "--hook",
        guard,
        "--input",
        r#"{"sessionId":"s","cwd":"/w","transcriptPath":"/t","toolName":"Read","toolInput":{"file_path":"a"},"toolUseId":"t"}"#,
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("does not admit the tool `Read`"), "{stderr}");

    // A captured envelope, replayed as the host sent it.
    let (code, stdout, stderr) = simulate(&[
        "--target",
        "claude",
        "--hook",
        guard,
        "--native-input-file",
        "testdata/envelopes/claude-code/PreToolUse.json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("outcome    continue (no output)"), "{stdout}");
    assert!(stdout.contains("823983f9-9bf3-4232-abc5-1f3b0ff0c604"), "the envelope was not sent as given: {stdout}");
    // ...and one of another event is refused.
    let (code, _, stderr) = simulate(&[
        "--target",
        "claude",
        "--hook",
        guard,
        "--native-input-file",
        "testdata/envelopes/claude-code/PostToolUse.json",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("not on PostToolUse"), "{stderr}");

    // One canonical input for every host: fields a host does not send are simply not sent.
    let input = r#"{"sessionId":"s","cwd":"/w","transcriptPath":"/t","agentId":"a","agentType":"Explore","agentTranscriptPath":"/a","lastAssistantMessage":"done","reentry":false,"turnId":"t1","model":"m","permissionMode":"default"}"#;
    for target in ["claude", "codex", "cursor"] {
        let (code, stdout, stderr) =
            simulate(&["--target", target, "--hook", "agent-stop-subagent-done-92f529a2", "--json", "--input", input]);
        assert_eq!(code, Some(0), "{target}: {stdout} {stderr}");
        let run: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(run["hook"]["effectiveTimeout"], 30, "{target}: the declared timeout is the effective one");
    }
    // One fact, one name: `reentry`. The old `stopHookActive` is read as it, with a warning; and what
    // the host does not send on the event is listed as dropped, with why, never left out silently.
    let stop_input =
        |field: &str, value: bool| format!(r#"{{"sessionId":"s","cwd":"/w","transcriptPath":"/t","{field}":{value}}}"#);
    for (field, value, denies) in [("reentry", false, true), ("reentry", true, false), ("stopHookActive", true, false)]
    {
        let input = stop_input(field, value);
        let (code, stdout, stderr) =
            simulate(&["--target", "cursor", "--hook", "stop-keep-going-656ce693", "--json", "--input", &input]);
        assert_eq!(code, Some(0), "{field}={value}: {stdout} {stderr}");
        let run: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(run["outcome"]["outcome"] == "deny", denies, "{field}={value}: {stdout}");
        assert_eq!(
            stderr.contains("`stopHookActive` is the old name of `reentry`"),
            field == "stopHookActive",
            "{field}: {stderr}"
        );
        let dropped: Vec<&str> =
            run["dropped"].as_array().into_iter().flatten().filter_map(|d| d["field"].as_str()).collect();
        assert_eq!(dropped, ["cwd"], "Cursor sends no cwd on stop: {stdout}");
        assert!(run["dropped"][0]["reason"].as_str().unwrap().contains("does not send it on stop"), "{stdout}");
    }
    let (code, _, stderr) = simulate(&[
        "--target",
        "claude",
        "--hook",
        "stop-keep-going-656ce693",
        "--input",
        r#"{"sessionId":"s","cwd":"/w","transcriptPath":"/t","reentry":false,"stopHookActive":true}"#,
    ]);
    assert_eq!(code, Some(2), "two names that disagree are refused");
    assert!(stderr.contains("disagree"), "{stderr}");

    // A field no host knows is still a mistake, with a suggestion.
    let (code, _, stderr) = simulate(&[
        "--target",
        "codex",
        "--hook",
        "agent-stop-subagent-done-92f529a2",
        "--input",
        r#"{"agentTyp":"x"}"#,
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("did you mean `agentType`?"), "{stderr}");

    // The default wait is the host's effective timeout for the hook, recorded in the index.
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(artifact.join("agent-bundle.manifest.json")).unwrap()).unwrap();
    let effective = |host: &str, name: &str| {
        index["hooks"].as_array().unwrap().iter().find(|r| r["host"] == host && r["name"] == name).unwrap()
            ["effectiveTimeout"]
            .clone()
    };
    assert_eq!(effective("claude", guard), 10);
    assert_eq!(effective("claude", "stop-keep-going-656ce693"), 600, "Claude Code's documented default");
    assert_eq!(effective("cursor", "stop-keep-going-656ce693"), 600, "Cursor documents none: the fallback");

    // An artifact built with another host table than this binary's gets a warning, and still runs.
    let manifest_path = artifact.join("agent-bundle.manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    manifest["hosts"]["claude"]["tableDigest"] = "0".repeat(64).into();
    std::fs::write(&manifest_path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    let (code, _, stderr) = simulate(&[
        "--target",
        "claude",
        "--hook",
        guard,
        "--native-input-file",
        "testdata/envelopes/claude-code/PreToolUse.json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("warning: this artifact was built with another claude host table"), "{stderr}");
}

#[test]
fn hooks_list_for_a_host_the_artifact_lacks_names_the_hosts_it_has() {
    let temp = tempfile::tempdir().unwrap();
    let artifact = temp.path().join("artifact");
    let built =
        cli().args(["build", "--root", "testdata/bundles/page-declaring-a-hook", "--output"]).arg(&artifact).status();
    assert!(built.unwrap().success());
    let output = cli().args(["hooks", "list", "--target", "cursor", "--artifact"]).arg(&artifact).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("was not built for cursor: it has claude, codex"), "{stderr}");
}

/// `matrix --format json`: the matrix's facts as data, every empty cell with its reason.
#[test]
fn the_matrix_as_json_carries_every_cell_and_reason() {
    let output = cli().args(["matrix", "--format", "json"]).output().unwrap();
    assert!(output.status.success());
    let matrix: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(matrix["families"].as_object().unwrap().len(), 22);
    assert_eq!(matrix["families"]["tool/before"]["hosts"]["cursor"]["native"], "preToolUse");
    assert!(
        matrix["families"]["workspace/open"]["hosts"]["claude"]["unsupported"].as_str().is_some_and(|r| !r.is_empty())
    );
    assert_eq!(matrix["events"]["beforeTool"]["codex"]["native"], "PreToolUse");
    let context = &matrix["results"]["beforeTool"]["cursor"]["parts"]["additionalContext"];
    assert!(context["drop"].as_str().is_some(), "{context}");
    let deny = &matrix["results"]["beforeTool"]["claude"]["parts"]["deny"]["deliver"];
    assert_eq!(deny[0]["path"], "hookSpecificOutput.permissionDecision");
    assert_eq!(matrix["results"]["beforeTool"]["claude"]["failClosed"]["entry"]["onFailure"], "block");
    // The Markdown form is still the default.
    let markdown = cli().arg("matrix").output().unwrap();
    assert!(String::from_utf8(markdown.stdout).unwrap().starts_with("**Events**"));
}

/// Builds the bundle at `root` with the real binary, into `output` (else its own `artifact/`): the
/// artifact's path, made absolute, and its index.
fn built(root: &std::path::Path, output: Option<&std::path::Path>) -> (std::path::PathBuf, serde_json::Value) {
    let mut command = cli();
    command.arg("build").arg("--root").arg(root);
    if let Some(output) = output {
        command.arg("--output").arg(output);
    }
    let built = command.output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let artifact = output.map_or_else(|| root.join("artifact"), std::path::Path::to_path_buf).canonicalize().unwrap();
    let index = std::fs::read_to_string(artifact.join("agent-bundle.manifest.json")).unwrap();
    (artifact, serde_json::from_str(&index).unwrap())
}

/// The name of the first hook of `index` whose row has `key` equal to `value`.
fn hook_where(index: &serde_json::Value, key: &str, value: &str) -> String {
    let row = index["hooks"].as_array().unwrap().iter().find(|r| r[key] == value);
    row.unwrap_or_else(|| panic!("no hook with {key} {value}"))["name"].as_str().unwrap().to_string()
}

/// `hooks simulate --json` of `hook` on `target` with `args`: the run, after asserting it exited 0.
fn simulated(artifact: &std::path::Path, target: &str, hook: &str, args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let output = cli()
        .args(["hooks", "simulate", "--json", "--target", target, "--hook", hook, "--artifact"])
        .arg(artifact)
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{target} {hook}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `hooks simulate` runs the hook in a temporary copy of the artifact: a path of that copy in the
/// hook's output is shown as the artifact's own (a `file://` URL stays a URL), and said so in a
/// warning, since the host writes its own install path there (issue 47, item 3).
#[test]
fn simulate_says_when_it_shows_the_copys_paths_as_the_artifacts() {
    common::require_node();
    let root = tempfile::tempdir().unwrap();
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        "export default {\n  hooks: { beforeTool: { handler: './src/hooks/where.ts', tools: ['shell'] } },\n  plugin: { name: 'where', description: 'Says where it runs.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['claude'],\n};\n",
    );
    common::write_file(
        root.path(),
        "src/hooks/where.ts",
        "export default () => ({ additionalContext: `running from ${import.meta.url}` });\n",
    );
    let (artifact, index) = built(root.path(), None);
    let input = serde_json::json!({ "sessionId": "s", "transcriptPath": "/t", "cwd": "/tmp", "toolName": "Bash", "toolInput": { "command": "ls" }, "toolUseId": "t1" });
    let run = simulated(
        &artifact,
        "claude",
        &hook_where(&index, "host", "claude"),
        &["--input".as_ref(), input.to_string().as_ref()],
    );
    let context = run["outcome"]["additionalContext"].as_str().unwrap();
    assert!(context.starts_with(&format!("running from file://{}/", artifact.display())), "{context}");
    let warnings = run["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w.as_str().unwrap().starts_with("stdout: the hook ran in a temporary copy")),
        "{warnings:?}"
    );
}

/// A canonical input needs only what the hook reads (issue 47, item 2): the fields the host always
/// sends that it leaves out are filled with labelled sample values, and a tool written with another
/// host's name runs as this host's tool of the same kind, each said in a warning.
#[test]
fn simulate_takes_a_minimal_input_written_for_any_host() {
    common::require_node();
    let temp = tempfile::tempdir().unwrap();
    let (artifact, index) = built(std::path::Path::new("testdata/e2e/deny-shell"), Some(&temp.path().join("artifact")));
    let input = r#"{"toolName":"Bash","toolInput":{"command":"rm -rf ~"}}"#;
    for host in ["claude", "gemini", "copilot", "codex", "qwen", "droid", "cursor"] {
        let run = simulated(&artifact, host, &hook_where(&index, "host", host), &["--input".as_ref(), input.as_ref()]);
        assert_eq!(run["outcome"]["outcome"], "deny", "{host}: {run}");
        let warnings: Vec<&str> = run["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
        assert!(
            warnings.iter().any(|w| w.starts_with("filled with labelled sample values: `sessionId`")),
            "{host}: {warnings:?}"
        );
        let translated = warnings.iter().any(|w| w.starts_with("the tool was written for another host"));
        let target: agent_bundle::vocabulary::target::Target = host.parse().unwrap();
        let own = agent_bundle::hosts::table(target).tool_names().contains(&"Bash");
        assert_eq!(translated, !own, "{host}: {warnings:?}");
    }
}

/// Every call OpenCode was recorded making (`testdata/envelopes/opencode/`: a tool hook's
/// `{ input, output }`, a session event object) is taken as native input by `hooks simulate`, which
/// has the entry module make its envelope as it does for OpenCode (issue 47, item 2).
#[test]
fn simulate_takes_opencodes_recorded_hook_arguments() {
    common::require_node();
    let root = tempfile::tempdir().unwrap();
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        "export default {\n  hooks: {\n    beforeTool: { handler: './src/hooks/deny.ts' },\n    afterTool: { handler: './src/hooks/say.ts' },\n    sessionStart: { handler: './src/hooks/say.ts' },\n    stop: { handler: './src/hooks/quiet.ts' },\n  },\n  plugin: { name: 'recorded', description: 'Runs on every recorded call.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['opencode'],\n};\n",
    );
    common::write_file(
        root.path(),
        "src/hooks/say.ts",
        "export default ({ sessionId }: { sessionId: string }) => ({ additionalContext: `session ${sessionId}` });\n",
    );
    common::write_file(root.path(), "src/hooks/quiet.ts", "export default () => undefined;\n");
    common::write_file(
        root.path(),
        "src/hooks/deny.ts",
        "export default ({ sessionId }: { sessionId: string }) => ({ outcome: 'deny', reason: `session ${sessionId}` });\n",
    );
    let (artifact, index) = built(root.path(), None);
    let mut ran = 0;
    for entry in std::fs::read_dir("testdata/envelopes/opencode").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let native = ["tool.execute.before", "tool.execute.after", "session.created", "session.idle"].into_iter().find(
            |native| name.starts_with(&format!("hook.{native}.")) || name.starts_with(&format!("event.{native}.")),
        );
        let Some(native) = native else { continue };
        let hook = hook_where(&index, "nativeEvent", native);
        let run = simulated(&artifact, "opencode", &hook, &["--native-input-file".as_ref(), path.as_os_str()]);
        ran += 1;
        // A subagent's session is no session start: nothing to decide, as in OpenCode.
        if name.contains("subagent") {
            assert_eq!(run["outcome"], serde_json::Value::Null, "{name}: {run}");
            continue;
        }
        // What each hook said carries the session the envelope was made with.
        let said = match native {
            "session.idle" => "session ses_",
            "tool.execute.before" => run["outcome"]["reason"].as_str().unwrap_or_default(),
            _ => run["outcome"]["additionalContext"].as_str().unwrap_or_default(),
        };
        assert!(said.starts_with("session ses_"), "{name}: {run}");
    }
    assert!(ran >= 12, "only {ran} recorded calls ran");
}

/// A canonical sessionStart on OpenCode needs nothing: its session `id`, which has no canonical name,
/// is a labelled sample too (issue 47: it asked for `id` and then refused it).
#[test]
fn simulate_takes_an_empty_session_start_on_opencode() {
    common::require_node();
    let temp = tempfile::tempdir().unwrap();
    let (artifact, index) =
        built(std::path::Path::new("testdata/e2e/session-context"), Some(&temp.path().join("artifact")));
    let run =
        simulated(&artifact, "opencode", &hook_where(&index, "host", "opencode"), &["--input".as_ref(), "{}".as_ref()]);
    assert_eq!(run["envelope"]["id"], "example-id", "{run}");
    assert!(run["outcome"]["additionalContext"].as_str().unwrap().contains("E2E_SESSION_MARKER"), "{run}");
}
