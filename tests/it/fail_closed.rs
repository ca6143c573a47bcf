//! Guards without gaps (D13), run as the host runs them (real node processes, stdin piped): a
//! fail-closed route fails exactly like a fail-closed config hook; an envelope over a hook's
//! `maxInputBytes` is a failure of the hook that follows its failure policy; a large write a real
//! host sends (1.2 MB) is judged under the default limit; `hooks simulate` reports a blocking exit
//! as a block.

use crate::common;

use std::path::Path;

use agent_bundle::artifact::{IndexRow, read_verified};
use agent_bundle::hosts;
use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::hook_event::HookEvent;
use agent_bundle::vocabulary::target::Target;
use camino::Utf8Path;
use common::{Run, build_root, cli, require_node, run_wrapper};
use serde_json::{Value, json};

const LIMIT: usize = 4096;

/// A bundle with a fail-closed beforeTool hook, the same guard not fail-closed, a fail-closed
/// tool/before route and a fail-closed prompt/submit route, all behaving as AGENT_BUNDLE_TEST_SHAPE says.
fn guard_bundle(dir: &Path) {
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "agent-bundle.config.ts",
        &format!(
            r#"export default {{
  hooks: {{
    beforeTool: [
      {{ handler: './src/hooks/guard.ts', timeout: 30, failClosed: true, maxInputBytes: {LIMIT} }},
      {{ handler: './src/hooks/guard.ts', timeout: 30, maxInputBytes: {LIMIT} }},
    ],
  }},
  plugin: {{ name: 'guards-without-gaps', description: 'Fail-closed hooks and routes.', version: '1.0.0', author: 'agent-bundle tests' }},
  targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini'],
}};
"#
        ),
    );
    let shapes = r#"
export function decide(input: unknown): unknown {
  const shape = process.env.AGENT_BUNDLE_TEST_SHAPE ?? 'nothing';
  if (shape === 'throws') throw new Error('the guard broke');
  if (shape === 'bad result') return { outcome: 'approve' };
  if (shape === 'deny .env') return JSON.stringify(input).includes('.env') ? { outcome: 'deny', reason: 'no .env writes' } : undefined;
  return undefined;
}
"#;
    write("src/lib/shapes.ts", shapes);
    write(
        "src/hooks/guard.ts",
        "import { decide } from '../lib/shapes';\nexport default (event: { toolInput: unknown }) => decide(event.toolInput);\n",
    );
    let route = |tools: &str| {
        format!(
            r#"import {{ Agent }} from '@agent-bundle/runtime';
import {{ decide }} from '../../lib/shapes';

export const config = {{ failClosed: true, maxInputBytes: {LIMIT}{tools} }};

export default async function Guard({{ canonical }}) {{
  const result = decide(canonical.payload.toolInput?.value ?? canonical.payload.prompt?.value) as Record<string, unknown> | undefined;
  return result ? <Agent.Result value={{result}} /> : null;
}}
"#
        )
    };
    write("src/events/tool/before.tsx", &route(""));
    write("src/events/prompt/submit.tsx", &route(", targets: ['claude', 'codex']"));
}

fn envelope(row: &IndexRow, input: Value) -> Vec<u8> {
    common::envelope_with(row, input).to_string().into_bytes()
}

fn blocking_exit(row: &IndexRow) -> i32 {
    hosts::table(row.host).mapping(row.event).unwrap().fail_closed.as_ref().unwrap().exit
}

fn only_error_line(run: &Run) -> &str {
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line on stderr: {}", run.stderr);
    assert!(lines[0].starts_with("Agent Bundle hook error: "), "{}", run.stderr);
    lines[0]
}

#[test]
fn fail_closed_routes_fail_like_fail_closed_config_hooks_and_oversize_envelopes_follow_the_policy() {
    require_node();
    let root = tempfile::tempdir().unwrap();
    guard_bundle(root.path());
    let (_guard, artifact) = build_root(Utf8Path::from_path(root.path()).unwrap());
    let rows = read_verified(&artifact, &RealDisk).unwrap().hooks;
    let mut checked = 0;
    for host in [Target::Claude, Target::Codex, Target::Copilot, Target::Cursor, Target::Gemini] {
        let of = |event: &str, fail_closed: bool| {
            rows.iter().find(|r| r.host == host && r.event.name() == event && r.fail_closed == fail_closed)
        };
        let config = of("beforeTool", true).expect("the fail-closed config hook");
        let open = of("beforeTool", false).expect("the plain config hook");
        let route = of("tool/before", true).expect("the fail-closed route");
        let prompt = of("prompt/submit", true);
        assert_eq!(prompt.is_some(), matches!(host, Target::Claude | Target::Codex), "{host}: prompt/submit targets");

        let tool_input = json!({ "toolName": "Bash", "toolInput": { "command": "ls" } });
        let oversize = json!({ "toolName": "Bash", "toolInput": { "command": format!("echo {}", "x".repeat(LIMIT)) } });
        for (case, input, shape) in [
            ("a throw", &tool_input, "throws"),
            ("a bad result", &tool_input, "bad result"),
            ("an envelope over maxInputBytes", &oversize, "nothing"),
        ] {
            let runs: Vec<(&IndexRow, Run)> = [config, route, open]
                .into_iter()
                .map(|row| {
                    let stdin = envelope(row, input.clone());
                    (row, run_wrapper(&artifact, &row.path, &stdin, &[("AGENT_BUNDLE_TEST_SHAPE", shape)]))
                })
                .collect();
            for (row, run) in &runs {
                let label = format!("{host} {} {case}", row.event);
                assert_eq!(run.stdout, "", "{label}: nothing fabricated on stdout");
                let line = only_error_line(run);
                let expected = if row.fail_closed { blocking_exit(row) } else { 1 };
                assert_eq!(run.code, Some(expected), "{label}: {line}");
                assert_eq!(
                    line.contains("the hook is fail-closed, so the tool call is blocked"),
                    row.fail_closed,
                    "{label}"
                );
                if case.starts_with("an envelope") {
                    assert!(
                        line.contains("too large to judge") && line.contains(&LIMIT.to_string()),
                        "{label}: {line}"
                    );
                }
                checked += 1;
            }
            // The route and the config hook fail the same way.
            assert_eq!(runs[0].1.code, runs[1].1.code, "{host} {case}");
        }
        // The limit's edge: an envelope of exactly maxInputBytes is judged, one byte more is not.
        for (extra, judged) in [(0, true), (1, false)] {
            let mut stdin = envelope(open, tool_input.clone());
            stdin.resize(LIMIT + extra, b' ');
            let run = run_wrapper(&artifact, &open.path, &stdin, &[("AGENT_BUNDLE_TEST_SHAPE", "nothing")]);
            assert_eq!(run.code, Some(if judged { 0 } else { 1 }), "{host} {} bytes: {}", LIMIT + extra, run.stderr);
        }
        if let Some(prompt) = prompt {
            let stdin = envelope(prompt, json!({ "prompt": "hello" }));
            let run = run_wrapper(&artifact, &prompt.path, &stdin, &[("AGENT_BUNDLE_TEST_SHAPE", "throws")]);
            assert_eq!(run.code, Some(blocking_exit(prompt)), "{host} prompt/submit: {}", run.stderr);
            assert!(only_error_line(&run).contains("fail-closed"), "{host} prompt/submit");
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * 3 * 3 + 2);
}

#[test]
fn a_large_write_is_judged_under_the_default_limit_on_every_host() {
    require_node();
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("src/hooks")).unwrap();
    std::fs::write(
        root.path().join("agent-bundle.config.ts"),
        "export default {\n  hooks: { beforeTool: { handler: './src/hooks/env-guard.ts', timeout: 30 } },\n  plugin: { name: 'env-guard', description: 'Refuses .env writes.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini'],\n};\n",
    )
    .unwrap();
    std::fs::write(
        root.path().join("src/hooks/env-guard.ts"),
        "import type { HookHandler } from 'agent-bundle';\n\nconst guard: HookHandler<'beforeTool'> = ({ tool }) =>\n  tool.kind === 'file.write' && tool.filePaths.some((path) => path.endsWith('.env'))\n    ? { outcome: 'deny', reason: 'no .env writes' }\n    : undefined;\n\nexport default guard;\n",
    )
    .unwrap();
    let (_guard, artifact) = build_root(Utf8Path::from_path(root.path()).unwrap());
    let rows = read_verified(&artifact, &RealDisk).unwrap().hooks;
    // 1.2 MB of file content: larger than the old 1 MiB cap, which let this write through.
    let content = "A".repeat(1_200_000);
    for row in rows
        .iter()
        .filter(|r| r.event == HookEvent::Config(agent_bundle::vocabulary::canonical::CanonicalEvent::BeforeTool))
    {
        // Each host's own write tool, as it names it and its input.
        let (name, input) = match row.host {
            Target::Codex => (
                "apply_patch",
                json!({ "command": format!("*** Begin Patch\n*** Add File: .env\n+{content}\n*** End Patch\n") }),
            ),
            Target::Copilot => ("create", json!({ "path": "/tmp/project/.env", "file_text": content })),
            Target::Gemini => ("write_file", json!({ "file_path": "/tmp/project/.env", "content": content })),
            _ => ("Write", json!({ "file_path": "/tmp/project/.env", "content": content })),
        };
        let stdin = envelope(row, json!({ "toolName": name, "toolInput": input }));
        assert!(stdin.len() > 1024 * 1024);
        let run = run_wrapper(&artifact, &row.path, &stdin, &[]);
        assert_eq!(run.code, Some(0), "{}: {}", row.host, run.stderr);
        assert!(run.stdout.contains("no .env writes"), "{}: the denial was not delivered: {}", row.host, run.stdout);
    }
}

#[test]
fn simulate_reports_a_blocking_exit_as_a_block() {
    require_node();
    let root = tempfile::tempdir().unwrap();
    guard_bundle(root.path());
    let artifact = root.path().join("artifact");
    let built = cli().arg("build").arg("--root").arg(root.path()).output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let rows = read_verified(Utf8Path::from_path(&artifact).unwrap(), &RealDisk).unwrap().hooks;
    let hook =
        rows.iter().find(|r| r.host == Target::Claude && r.event.name() == "beforeTool" && r.fail_closed).unwrap();
    let input = json!({ "sessionId": "s", "transcriptPath": "/tmp/t.jsonl", "cwd": "/tmp", "toolName": "Bash", "toolInput": { "command": "ls" }, "toolUseId": "t1", "permissionMode": "default" });
    let output = cli()
        .args(["hooks", "simulate", "--target", "claude", "--hook", &hook.name, "--input", &input.to_string()])
        .arg("--artifact")
        .arg(&artifact)
        .env("AGENT_BUNDLE_TEST_SHAPE", "throws")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("exit code  2"), "{stdout}");
    assert!(stdout.contains("outcome    blocked: exit 2"), "{stdout}");
    assert!(stdout.contains("(the hook failed, and fails closed)"), "{stdout}");
    assert!(!stdout.contains("would carry on"), "{stdout}");
    // A failure is not an answer, even when it blocks.
    assert!(!output.status.success(), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("failed"));
}

/// A block the hook meant (an ask, which Codex can carry only as a block) is the hook's answer:
/// `hooks simulate` says so and exits 0 (issue 47, item 3).
#[test]
fn simulate_exits_zero_for_a_block_the_hook_meant() {
    require_node();
    let root = tempfile::tempdir().unwrap();
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        "export default {\n  hooks: { beforeTool: { handler: './src/hooks/ask.ts', tools: ['shell'] } },\n  plugin: { name: 'asks', description: 'Asks.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['codex'],\n};\n",
    );
    common::write_file(root.path(), "src/hooks/ask.ts", "export default () => ({ outcome: 'ask' });\n");
    let artifact = root.path().join("artifact");
    let built = cli().arg("build").arg("--root").arg(root.path()).output().unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let rows = read_verified(Utf8Path::from_path(&artifact).unwrap(), &RealDisk).unwrap().hooks;
    let input = json!({ "sessionId": "s", "transcriptPath": "/tmp/t.jsonl", "cwd": "/tmp", "toolName": "Bash", "toolInput": { "command": "ls" }, "toolUseId": "t1", "turnId": "u1", "model": "m", "permissionMode": "default" });
    let output = cli()
        .args(["hooks", "simulate", "--target", "codex", "--hook", &rows[0].name, "--input", &input.to_string()])
        .arg("--artifact")
        .arg(&artifact)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("outcome    blocked: exit 2"), "{stdout}");
    assert!(stdout.contains("(the hook's answer)"), "{stdout}");
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
}

/// The issue's guard: a deny guard with a timeout whose milliseconds no Node timer holds fired its
/// deadline after 1 ms and lost its denial. The build refuses such a timeout (AB4205, see its
/// fixture), and the longest one it accepts works: the wrapper decides and the denial reaches the host.
#[test]
fn a_guard_with_the_longest_declarable_timeout_still_denies() {
    require_node();
    let work = tempfile::tempdir().unwrap();
    let max = agent_bundle::vocabulary::canonical::MAX_TIMEOUT_SECONDS;
    common::write_file(
        work.path(),
        "agent-bundle.config.ts",
        &format!(
            "export default {{\n  hooks: {{ beforeTool: {{ handler: './src/hooks/guard.ts', timeout: {max}, failClosed: true }} }},\n  plugin: {{ name: 'long-guard', description: 'A guard with a long timeout.', version: '1.0.0', author: 'agent-bundle tests' }},\n  targets: ['claude', 'gemini'],\n}};\n"
        ),
    );
    common::write_file(
        work.path(),
        "src/hooks/guard.ts",
        "export default () => ({ outcome: 'deny', reason: 'never' });\n",
    );
    let (_guard, artifact) = build_root(Utf8Path::from_path(work.path()).unwrap());
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    assert_eq!(manifest.hooks.len(), 2);
    for row in &manifest.hooks {
        assert_eq!(row.effective_timeout, max);
        let envelope = common::envelope_with(row, json!({ "toolName": "Bash" })).to_string();
        let run = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[]);
        assert_eq!(run.code, Some(0), "{}: {}", row.host, run.stderr);
        assert!(run.stdout.contains("never"), "{}: the denial must reach the host: {}", row.host, run.stdout);
    }
    let gemini = std::fs::read_to_string(artifact.join("gemini/hooks/hooks.json")).unwrap();
    assert!(gemini.contains(&format!("\"timeout\": {}000", max)), "Gemini's own timer gets the milliseconds: {gemini}");

    // One second more is refused at build time.
    let config = work.path().join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap().replace(&max.to_string(), &(max + 1).to_string());
    std::fs::write(&config, text).unwrap();
    let loaded = agent_bundle::load(Utf8Path::from_path(work.path()).unwrap(), &RealDisk);
    assert!(loaded.diagnostics.iter().any(|d| d.code.as_str() == "AB4205"), "{:?}", loaded.diagnostics);
}
