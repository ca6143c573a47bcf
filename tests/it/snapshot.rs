//! `snapshot`: golden renderings of what hosts read. Each kind of change is caught by `--check` with
//! the right summary; pending files round-trip through accept and reject; nothing is written in CI.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::copy_tree;

struct Project {
    _temp: tempfile::TempDir,
    dir: PathBuf,
    bundle: &'static str,
}

impl Project {
    /// The showcase bundle and its recorded inputs, with golden snapshots accepted.
    fn new() -> Project {
        Project::of("showcase")
    }

    /// A bundle of `testdata/bundles` and its recorded inputs, if any, with golden snapshots accepted.
    fn of(bundle: &'static str) -> Project {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        copy_tree(&Path::new("testdata/bundles").join(bundle), &dir.join("bundles").join(bundle));
        let inputs = Path::new("snapshots").join(bundle).join("inputs");
        if inputs.is_dir() {
            copy_tree(&inputs, &dir.join("snapshots").join(bundle).join("inputs"));
        }
        let project = Project { _temp: temp, dir, bundle };
        project.snapshot(&[]);
        assert!(project.snapshot(&["accept"]).status.success());
        assert!(project.snapshot(&["--check"]).status.success());
        project
    }

    fn snapshot(&self, args: &[&str]) -> Output {
        common::cli()
            .current_dir(&self.dir)
            .env_remove("CI")
            .env_remove("GITHUB_ACTIONS")
            .arg("snapshot")
            .args(args)
            .args(["--root", "bundles", "--recursive"])
            .output()
            .unwrap()
    }

    fn check(&self) -> (Option<i32>, String) {
        let output = self.snapshot(&["--check"]);
        (output.status.code(), String::from_utf8(output.stdout).unwrap())
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.dir.join("bundles").join(self.bundle).join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} lacks {from}");
        std::fs::write(path, text.replace(from, to)).unwrap();
    }

    fn pending(&self) -> Vec<String> {
        let mut found: Vec<String> = walkdir::WalkDir::new(self.dir.join("snapshots"))
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.path().strip_prefix(&self.dir).unwrap().to_string_lossy().into_owned())
            .filter(|p| p.ends_with(".new") || p.ends_with(".obsolete"))
            .collect();
        found.sort();
        found
    }
}

fn summary_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter_map(|l| l.strip_prefix("  * ")).collect()
}

#[test]
fn a_compiler_change_that_alters_a_matcher_is_summarised() {
    let project = Project::new();
    // As if the golden snapshot had been taken by a compiler whose Claude shell matcher was narrower.
    let golden = project.dir.join("snapshots/showcase/claude.snap");
    let text = std::fs::read_to_string(&golden).unwrap().replace("\"^(?:Bash|PowerShell)$\"", "\"^(?:Bash)$\"");
    std::fs::write(&golden, text).unwrap();
    let (code, stdout) = project.check();
    assert_eq!(code, Some(1));
    assert_eq!(
        summary_lines(&stdout),
        [
            "claude PreToolUse matcher: ^(?:Bash)$ → ^(?:Bash|PowerShell)$ (hooks/before-tool-guard-shell-c564ae45.claude.mjs)"
        ]
    );
    assert!(stdout.contains("-        \"matcher\": \"^(?:Bash)$\""), "{stdout}");
    assert!(stdout.contains("+        \"matcher\": \"^(?:Bash|PowerShell)$\""), "{stdout}");
}

/// Copilot's flat entries (`bash`, `timeoutSec`) are read through its table: a changed timeout, which
/// renames the hook, is described as a change of its entry.
#[test]
fn a_changed_copilot_entry_is_summarised() {
    let project = Project::of("wrapper-matrix");
    project.edit(
        "agent-bundle.config.ts",
        "    stop: { handler: './src/hooks/shape.ts', timeout: 2 },",
        "    stop: { handler: './src/hooks/shape.ts', timeout: 5 },",
    );
    let (code, stdout) = project.check();
    assert_eq!(code, Some(1));
    let lines = summary_lines(&stdout);
    let copilot = lines
        .iter()
        .find(|l| {
            l.starts_with(
                "copilot agentStop timeout: 2 s → 5 s (hooks/stop-shape-6111d288.copilot.mjs → hooks/stop-shape-",
            )
        })
        .unwrap_or_else(|| panic!("no Copilot entry change in {lines:?}"));
    assert!(copilot.ends_with(".copilot.mjs)"), "{copilot}");
    assert!(
        lines.iter().any(|l| l.starts_with("gemini AfterAgent timeout: 2000 ms → 5000 ms")),
        "Gemini counts milliseconds: {lines:?}"
    );
}

/// Gemini CLI's manifest is `gemini/gemini-extension.json`, not a `plugin.json`: the layout says it is
/// the host's manifest, so its changed keys are named.
#[test]
fn a_changed_gemini_manifest_is_summarised() {
    let project = Project::of("wrapper-matrix");
    project.edit(
        "agent-bundle.config.ts",
        "description: 'Result shapes for the wrapper golden tests.'",
        "description: 'Every result shape, for the wrapper golden tests.'",
    );
    let (code, stdout) = project.check();
    assert_eq!(code, Some(1));
    let lines = summary_lines(&stdout);
    assert!(
        lines.contains(&"gemini gemini/gemini-extension.json description: \"Result shapes for the wrapper golden tests.\" → \"Every result shape, for the wrapper golden tests.\""),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"copilot .plugin/plugin.json description: \"Result shapes for the wrapper golden tests.\" → \"Every result shape, for the wrapper golden tests.\""),
        "{lines:?}"
    );
    assert!(!lines.contains(&"the text changed"), "{lines:?}");
}

#[test]
fn a_handler_change_that_alters_an_answer_is_summarised() {
    let project = Project::new();
    project.edit("src/hooks/keep-going.ts", "Run the test suite once more", "Run the linter once more");
    let (code, stdout) = project.check();
    assert_eq!(code, Some(1));
    let lines = summary_lines(&stdout);
    assert!(lines.contains(&"claude answer stop-keep-going-656ce693 / stop/first-stop: stdout changed"), "{lines:?}");
    assert!(lines.contains(&"codex answer stop-keep-going-656ce693 / stop/first-stop: stdout changed"), "{lines:?}");
}

#[test]
fn a_removed_and_a_new_hook_are_summarised() {
    let project = Project::new();
    project.edit(
        "agent-bundle.config.ts",
        "    agentStop: { handler: './src/hooks/subagent-done.ts', timeout: 30 },\n",
        "",
    );
    let (_, stdout) = project.check();
    assert!(summary_lines(&stdout).contains(&"hook agent-stop-subagent-done-92f529a2 removed"), "{stdout}");

    project.snapshot(&[]);
    project.snapshot(&["accept"]);
    project.edit(
        "agent-bundle.config.ts",
        "    stop: './src/hooks/keep-going.ts',\n",
        "    stop: './src/hooks/keep-going.ts',\n    agentStart: './src/hooks/subagent-done.ts',\n",
    );
    let (code, stdout) = project.check();
    assert_eq!(code, Some(1));
    let lines = summary_lines(&stdout);
    assert!(
        lines.iter().any(|l| l.starts_with("hook agent-start-subagent-done-") && l.ends_with(" added")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("claude SubagentStart gains hooks/agent-start-subagent-done-")),
        "{lines:?}"
    );
}

#[test]
fn pending_snapshots_round_trip_through_reject_and_accept() {
    let project = Project::new();
    project.edit("src/hooks/session-start.ts", "run the tests", "run the full tests");
    let recorded = project.snapshot(&[]);
    assert_eq!(recorded.status.code(), Some(1), "differences are pending");
    assert_eq!(
        project.pending(),
        [
            "snapshots/showcase/claude.snap.new",
            "snapshots/showcase/codex.snap.new",
            "snapshots/showcase/cursor.snap.new"
        ]
    );

    assert!(project.snapshot(&["reject"]).status.success());
    assert!(project.pending().is_empty());
    assert_eq!(project.check().0, Some(1), "rejecting keeps the golden files");

    project.snapshot(&[]);
    assert!(project.snapshot(&["accept"]).status.success());
    assert!(project.pending().is_empty());
    assert_eq!(project.check().0, Some(0));
}

#[test]
fn review_accepts_rejects_and_skips_per_file() {
    let project = Project::new();
    project.edit("src/hooks/session-start.ts", "run the tests", "run the full tests");
    project.snapshot(&[]);
    let mut review = common::cli()
        .current_dir(&project.dir)
        .args(["snapshot", "review"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    review.stdin.take().unwrap().write_all(b"a\nr\ns\n").unwrap();
    let output = review.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("[1/3] snapshots/showcase/claude.snap"), "{stdout}");
    assert!(stdout.contains("additionalContext") || stdout.contains("stdout changed"), "the diff is shown: {stdout}");
    assert_eq!(
        project.pending(),
        ["snapshots/showcase/cursor.snap.new"],
        "accepted claude, rejected codex, skipped cursor"
    );
}

#[test]
fn nothing_is_written_when_ci_is_set() {
    let project = Project::new();
    project.edit("src/hooks/session-start.ts", "run the tests", "run the full tests");
    let output = common::cli()
        .current_dir(&project.dir)
        .env("CI", "true")
        .args(["snapshot", "--root", "bundles", "--recursive"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(project.pending().is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("CI is set, so nothing was written"));
}

#[test]
fn snapshots_no_bundle_produces_are_reported_and_accepting_deletes_them() {
    let project = Project::new();
    let stale = project.dir.join("snapshots/retired-plugin");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("claude.snap"), "# agent-bundle snapshot of plugin `retired-plugin` for claude\n")
        .unwrap();
    let (code, stdout) = project.check();
    assert_eq!(code, Some(1));
    assert!(stdout.contains("obsolete snapshots/retired-plugin/claude.snap"), "{stdout}");
    project.snapshot(&[]);
    assert_eq!(project.pending(), ["snapshots/retired-plugin/claude.snap.obsolete"]);
    project.snapshot(&["accept"]);
    assert!(!stale.join("claude.snap").exists());
    assert_eq!(project.check().0, Some(0));
}

#[test]
fn markdown_json_and_github_annotations_for_pull_requests() {
    let project = Project::new();
    project.edit("src/hooks/session-start.ts", "run the tests", "run the full tests");
    let markdown = project.snapshot(&["--check", "--format", "markdown"]);
    let markdown = String::from_utf8(markdown.stdout).unwrap();
    assert!(markdown.starts_with("## agent-bundle snapshots\n"), "{markdown}");
    assert!(markdown.contains("| `snapshots/showcase/claude.snap` | changed |"), "{markdown}");
    assert!(markdown.contains("<details><summary><code>snapshots/showcase/claude.snap</code></summary>"));
    assert!(markdown.contains("```diff"));

    let json = project.snapshot(&["--check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["clean"], false);
    assert_eq!(json["differences"], 3);

    let annotated = common::cli()
        .current_dir(&project.dir)
        .env("GITHUB_ACTIONS", "true")
        .args(["snapshot", "--check", "--root", "bundles", "--recursive"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(annotated.stdout).unwrap();
    assert!(stdout.contains("::error file=snapshots/showcase/claude.snap,title=snapshot changed::"), "{stdout}");
}

/// `snapshot` keeps no build state for its throw-away builds, and says so when it cannot write a
/// pending file instead of claiming it did.
#[test]
fn snapshot_keeps_no_build_state_and_reports_pending_files_it_cannot_write() {
    let project = Project::new();
    let cache = common::sandbox_dir("snapshot-cache");
    let run = |args: &[&str]| {
        common::cli()
            .current_dir(&project.dir)
            .env("AGENT_BUNDLE_CACHE_DIR", &cache)
            .arg("snapshot")
            .args(args)
            .args(["--root", "bundles", "--recursive"])
            .output()
            .unwrap()
    };
    assert!(run(&["--check"]).status.success());
    assert!(cache.join("v1/bundles").is_dir(), "bundles are cached as usual");
    assert!(!cache.join("v1/state").exists(), "no state for a temporary output");
    assert!(!cache.join("v1/fingerprint").exists(), "no fingerprint for a temporary output");

    project.edit("src/hooks/guard-shell.ts", "is not allowed", "is refused");
    // A folder where the pending file would go: writing it fails.
    std::fs::create_dir_all(project.dir.join("snapshots/showcase/claude.snap.new")).unwrap();
    let output = run(&[]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("pending snapshots could not be written: cannot write"), "{stderr}");
    assert!(!stderr.contains("pending snapshots were written"), "{stderr}");
}

/// Recorded runs are hermetic (issue 47, item 4): a hook that keeps state in its home and temporary
/// folders answers the same on every snapshot, because each run gets fresh ones (shown as `[RUN]`),
/// and nothing lands in the user's.
#[test]
fn a_stateful_hooks_snapshots_are_stable() {
    common::require_node();
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    common::write_file(
        dir,
        "bundles/stateful/agent-bundle.config.ts",
        "export default {\n  hooks: { beforeTool: { handler: './src/hooks/count.ts', tools: ['shell'] }, sessionStart: { handler: './src/hooks/start.ts' } },\n  plugin: { name: 'stateful', description: 'Counts its calls.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['claude'],\n};\n",
    );
    common::write_file(
        dir,
        "bundles/stateful/src/hooks/count.ts",
        "import { existsSync, readFileSync, writeFileSync } from 'node:fs';\n\
         import { homedir, tmpdir } from 'node:os';\n\
         import { join } from 'node:path';\n\
         \n\
         export default () => {\n\
           const file = join(homedir(), '.stateful-count');\n\
           const count = (existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0) + 1;\n\
           writeFileSync(file, String(count));\n\
           writeFileSync(join(tmpdir(), 'stateful-scratch'), String(count));\n\
           return { additionalContext: `call ${count}, home ${homedir()}, tmp ${tmpdir()}` };\n\
         };\n",
    );
    // A SessionStart hook that keeps a count in the plugin's data folder and exports it through the
    // host's env file: each run starts from a fresh data folder, and what it wrote is recorded.
    common::write_file(
        dir,
        "bundles/stateful/src/hooks/start.ts",
        "import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';\n\
         import { join } from 'node:path';\n\
         \n\
         export default (_event, context) => {\n\
           const file = join(context.dataDir, 'starts');\n\
           const count = (existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0) + 1;\n\
           writeFileSync(file, String(count));\n\
           appendFileSync(process.env.CLAUDE_ENV_FILE, `export STATEFUL_STARTS=${count}\\n`);\n\
           return { additionalContext: `start ${count}, data ${context.dataDir}, in ${process.cwd()}` };\n\
         };\n",
    );
    common::write_file(
        dir,
        "snapshots/stateful/inputs/sessionStart/startup.json",
        r#"{ "sessionId": "s", "transcriptPath": "/t", "cwd": "/w", "source": "startup" }"#,
    );
    common::write_file(
        dir,
        "snapshots/stateful/inputs/beforeTool/call.json",
        r#"{ "sessionId": "s", "transcriptPath": "/t", "cwd": "/w", "toolName": "Bash", "toolInput": { "command": "ls" }, "toolUseId": "t1" }"#,
    );
    let home = tempfile::tempdir().unwrap();
    let snapshot = |args: &[&str]| {
        common::cli()
            .current_dir(dir)
            .env("HOME", home.path())
            .env("TMPDIR", home.path())
            .arg("snapshot")
            .args(args)
            .args(["--root", "bundles", "--recursive"])
            .output()
            .unwrap()
    };
    snapshot(&[]);
    assert!(snapshot(&["accept"]).status.success());
    let golden = std::fs::read_to_string(dir.join("snapshots/stateful/claude.snap")).unwrap();
    assert!(golden.contains("call 1, home [RUN]/home, tmp [RUN]/tmp"), "{golden}");
    assert!(golden.contains("start 1, data [RUN]/plugin-data, in [RUN]/project"), "{golden}");
    assert!(golden.contains("\nwrote  CLAUDE_ENV_FILE: \"export STATEFUL_STARTS=1\\n\"\n"), "{golden}");
    for _ in 0..2 {
        let checked = snapshot(&["--check"]);
        assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stdout));
    }
    let left: Vec<_> = std::fs::read_dir(home.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(!left.iter().any(|name| name.to_string_lossy().contains("stateful")), "{left:?}");
}
