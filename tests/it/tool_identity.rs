//! The canonical tool (`event.tool`, `canonical.payload.tool`): one guard written against it and
//! nothing native (testdata/bundles/canonical-tools) judges the same call the same way on every host,
//! from the hosts' recorded envelopes, through the real wrappers under node, on every hook whose
//! matcher the host would run for that tool.

use crate::common;

use std::fmt::Write as _;

use agent_bundle::artifact::{IndexRow, read_verified};
use agent_bundle::io::RealDisk;
use agent_bundle::tools::simulate::decode_answer;
use agent_bundle::vocabulary::target::Target;
use common::{build_bundle, require_node, run_wrapper};
use serde_json::{Value, json};

/// What a guard must make of a call.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Deny,
    Continue,
}

/// One call a model might make, in canonical words.
#[derive(Clone, Copy, Debug)]
enum Call {
    DeleteRoot,
    ListFiles,
    WriteDotEnv,
    WriteSource,
    ReadReadme,
    ReadDotEnv,
}

const CALLS: [Call; 6] =
    [Call::DeleteRoot, Call::ListFiles, Call::WriteDotEnv, Call::WriteSource, Call::ReadReadme, Call::ReadDotEnv];

impl Call {
    fn verdict(self) -> Verdict {
        match self {
            Call::DeleteRoot | Call::WriteDotEnv | Call::ReadDotEnv => Verdict::Deny,
            Call::ListFiles | Call::WriteSource | Call::ReadReadme => Verdict::Continue,
        }
    }
}

/// The call as `host` makes it: its native tool name and input, as the host tables and the recorded
/// envelopes show them. `None`: the host has no such tool (Codex reads through its shell, which the
/// read guard does not see; its shell guard lets `cat README.md` through, which `ListFiles` covers).
fn native(host: Target, call: Call) -> Option<(&'static str, Value)> {
    let work = "/w/project";
    let patch = |path: &str| json!({ "command": format!("*** Begin Patch\n*** Add File: {path}\n+KEY=value\n*** End Patch\n") });
    Some(match (host, call) {
        (_, Call::DeleteRoot | Call::ListFiles) => {
            let command = if matches!(call, Call::DeleteRoot) { "rm -rf /" } else { "ls -la" };
            let name = match host {
                Target::Claude | Target::Codex => "Bash",
                Target::Copilot => "bash",
                Target::Cursor => "Shell",
                Target::Gemini => "run_shell_command",
                _ => unreachable!(),
            };
            (name, json!({ "command": command, "description": "a call" }))
        }
        (Target::Codex, Call::WriteDotEnv) => ("apply_patch", patch(".env")),
        (Target::Codex, Call::WriteSource) => ("apply_patch", patch("src/main.ts")),
        (Target::Codex, Call::ReadReadme | Call::ReadDotEnv) => return None,
        (_, Call::WriteDotEnv | Call::WriteSource) => {
            let file = format!("{work}/{}", if matches!(call, Call::WriteDotEnv) { ".env" } else { "src/main.ts" });
            match host {
                Target::Claude | Target::Cursor => ("Write", json!({ "file_path": file, "content": "KEY=value" })),
                Target::Copilot => ("create", json!({ "path": file, "file_text": "KEY=value" })),
                Target::Gemini => ("write_file", json!({ "file_path": file, "content": "KEY=value" })),
                _ => unreachable!(),
            }
        }
        (_, Call::ReadReadme | Call::ReadDotEnv) => {
            let file = format!("{work}/{}", if matches!(call, Call::ReadDotEnv) { ".env.local" } else { "README.md" });
            match host {
                Target::Claude | Target::Cursor => ("Read", json!({ "file_path": file })),
                Target::Copilot => ("view", json!({ "path": file })),
                Target::Gemini => ("read_file", json!({ "file_path": file })),
                _ => unreachable!(),
            }
        }
    })
}

/// The host's envelope for a beforeTool call: its recorded PreToolUse envelope with the tool swapped
/// in, or for Cursor (no recording) the canonical superset encoded as `hooks simulate` encodes it.
fn envelope(row: &IndexRow, name: &str, input: &Value) -> Value {
    let recorded = |file: &str| -> Value {
        serde_json::from_slice(&std::fs::read(format!("testdata/envelopes/{file}")).unwrap()).unwrap()
    };
    let (mut envelope, name_key, input_key) = match row.host {
        Target::Claude => (recorded("claude-code/PreToolUse.json"), "tool_name", "tool_input"),
        Target::Codex => (recorded("codex/PreToolUse.json"), "tool_name", "tool_input"),
        Target::Copilot => (recorded("copilot-cli/preToolUse.json"), "toolName", "toolArgs"),
        Target::Gemini => (recorded("gemini-cli/BeforeTool.json"), "tool_name", "tool_input"),
        Target::Cursor => {
            return common::envelope_with(row, json!({ "toolName": name, "toolInput": input }));
        }
        other => panic!("no envelope for {other}"),
    };
    envelope[name_key] = json!(name);
    envelope[input_key] = input.clone();
    envelope
}

/// Whether the host runs the hook of `row` for a tool of this name (its matcher, anchored as the
/// hosts anchor it; no matcher: every tool).
fn runs_for(row: &IndexRow, name: &str) -> bool {
    row.matcher.as_deref().is_none_or(|m| regex::Regex::new(&format!("^(?:{m})$")).unwrap().is_match(name))
}

#[test]
fn one_canonical_guard_judges_the_same_call_the_same_way_on_every_host() {
    require_node();
    let (_guard, artifact) = build_bundle("canonical-tools");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let hosts = [Target::Claude, Target::Codex, Target::Copilot, Target::Cursor, Target::Gemini];
    let mut summary = String::new();
    for host in hosts {
        for call in CALLS {
            let Some((name, input)) = native(host, call) else { continue };
            let rows: Vec<&IndexRow> = manifest
                .hooks
                .iter()
                .filter(|r| r.host == host && r.native_event == hook_event(host) && runs_for(r, name))
                .collect();
            // A shell call or a write reaches the config guard and the route; a read, the read guard.
            let reading = matches!(call, Call::ReadReadme | Call::ReadDotEnv);
            assert_eq!(
                rows.len(),
                if reading { 1 } else { 2 },
                "{host} {call:?} ({name}) reaches {:?}",
                rows.iter().map(|r| &r.name).collect::<Vec<_>>()
            );
            for row in rows {
                let stdin = envelope(row, name, &input).to_string();
                let run = run_wrapper(&artifact, &row.path, stdin.as_bytes(), &[]);
                assert_eq!(run.code, Some(0), "{host} {call:?} {}: {}", row.name, run.stderr);
                let outcome = decode_answer(row, &run.stdout).unwrap();
                let denied = outcome["outcome"] == "deny";
                assert_eq!(
                    denied,
                    call.verdict() == Verdict::Deny,
                    "{host} {call:?} through {} ({name}): {outcome}",
                    row.name
                );
                let kind = if row.name.starts_with("event-route") { "route" } else { "config" };
                let _ =
                    writeln!(summary, "{host} {call:?} {name} {kind}: {}", outcome["reason"].as_str().unwrap_or("-"));
            }
        }
    }
    insta::assert_snapshot!(summary);
}

/// The native event of beforeTool on `host`.
fn hook_event(host: Target) -> &'static str {
    agent_bundle::hosts::table(host)
        .event(agent_bundle::vocabulary::canonical::CanonicalEvent::BeforeTool)
        .unwrap()
        .native
        .as_str()
}

/// What the afterTool audit is told, in canonical words, for a host's recorded after-tool envelopes:
/// shell, file and MCP tools (the MCP server and tool split from Claude's and Copilot's names, and
/// read from Gemini's `mcp_context`).
#[test]
fn the_canonical_tool_of_every_recorded_after_tool_envelope() {
    require_node();
    let (_guard, artifact) = build_bundle("canonical-tools");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let mut summary = String::new();
    for recorded in common::recorded_envelopes() {
        let after = ["PostToolUse", "postToolUse", "AfterTool"];
        if !after.contains(&recorded.native.as_str()) {
            continue;
        }
        let row = manifest
            .hooks
            .iter()
            .find(|r| {
                r.host == recorded.host && r.name.starts_with("after-tool-audit") && r.native_event == recorded.native
            })
            .unwrap_or_else(|| panic!("no audit hook for {}", recorded.name));
        let run = run_wrapper(&artifact, &row.path, &recorded.bytes, &[]);
        assert_eq!(run.code, Some(0), "{}: {}", recorded.name, run.stderr);
        let outcome = decode_answer(row, &run.stdout).unwrap();
        let told = outcome["additionalContext"].as_str().unwrap_or_else(|| panic!("{}: {outcome}", recorded.name));
        let _ = writeln!(summary, "{}: {}", recorded.name, told.replace(artifact.as_str(), "[ARTIFACT]"));
    }
    // Pi's recorded tool results, as its extension hands them over (`{ event, ctx }`, made an envelope
    // by the extension's own code): a failed call is no afterTool, and passes untold.
    let audit = manifest
        .hooks
        .iter()
        .find(|r| r.host == Target::Pi && r.name.starts_with("after-tool-audit"))
        .expect("the audit runs on Pi");
    let mut pi: Vec<_> = std::fs::read_dir("testdata/envelopes/pi")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with(&format!("{}.", audit.native_event)))
        .collect();
    pi.sort();
    assert!(pi.len() >= 5, "Pi's recorded tool results: {pi:?}");
    for name in pi {
        let bytes = std::fs::read(format!("testdata/envelopes/pi/{name}")).unwrap();
        let run = run_wrapper(&artifact, &audit.path, &bytes, &[]);
        assert_eq!(run.code, Some(0), "pi/{name}: {}", run.stderr);
        let told = match decode_answer(audit, &run.stdout).unwrap()["additionalContext"].as_str() {
            Some(told) => told.replace(artifact.as_str(), "[ARTIFACT]"),
            None => format!("(passes: {})", if run.stdout.is_empty() { "no answer" } else { &run.stdout }),
        };
        let _ = writeln!(summary, "pi/{name}: {told}");
    }
    // Cline CLI's recorded PostToolUse payloads, as its hook file hands them over (made an envelope by
    // its module's own code): a shell's command lines, the files a read lists, an editor's file.
    let audit = manifest
        .hooks
        .iter()
        .find(|r| r.host == Target::Cline && r.name.starts_with("after-tool-audit"))
        .expect("the audit runs on Cline");
    let mut cline: Vec<_> = std::fs::read_dir("testdata/envelopes/cline")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("PostToolUse."))
        .collect();
    cline.sort();
    assert!(cline.len() >= 5, "Cline's recorded tool results: {cline:?}");
    for name in cline {
        let bytes = std::fs::read(format!("testdata/envelopes/cline/{name}")).unwrap();
        let run = run_wrapper(&artifact, &audit.path, &bytes, &[]);
        assert_eq!(run.code, Some(0), "cline/{name}: {}", run.stderr);
        let told = decode_answer(audit, &run.stdout).unwrap()["additionalContext"].as_str().map(str::to_string);
        let told = told.unwrap_or_else(|| panic!("cline/{name}: {}", run.stdout));
        let _ = writeln!(summary, "cline/{name}: {}", told.replace(artifact.as_str(), "[ARTIFACT]"));
    }
    insta::assert_snapshot!(summary);
}

/// A call the table maps but whose input lacks what the guard needs: reading the field fails the
/// hook (so a fail-closed guard blocks), never a tool of unknown content let through; a patch that
/// names no file is one too. The audit, which is not fail-closed, fails open when it reads the field;
/// a hook that never reads it runs as before (`cli::page_route_simulate_codex`).
#[test]
fn a_tool_call_the_guard_cannot_judge_fails_the_hook_that_judges_it() {
    require_node();
    let (_guard, artifact) = build_bundle("canonical-tools");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let cases = [
        (Target::Claude, "Bash", json!({ "description": "no command" }), "tool.command cannot be read: Claude Code"),
        (Target::Claude, "Write", json!({ "file_path": 7 }), "tool_input.file_path of Write is not a string (got 7)"),
        (Target::Codex, "apply_patch", json!({ "command": "echo not a patch" }), "names no file"),
        (Target::Copilot, "create", json!("not an object"), "create's input (toolArgs) is not an object"),
        (Target::Gemini, "write_file", json!({ "content": "x" }), "without file_path in tool_input"),
    ];
    for (host, name, input, expected) in cases {
        for row in
            manifest.hooks.iter().filter(|r| r.host == host && r.native_event == hook_event(host) && runs_for(r, name))
        {
            let stdin = envelope(row, name, &input).to_string();
            let run = run_wrapper(&artifact, &row.path, stdin.as_bytes(), &[]);
            assert_eq!(run.code, Some(2), "{host} {name} {}: a fail-closed guard blocks: {}", row.name, run.stderr);
            assert!(run.stdout.is_empty(), "{host} {name}: nothing on stdout: {}", run.stdout);
            assert!(run.stderr.contains(expected), "{host} {name} {}: {}", row.name, run.stderr);
        }
        // The audit, not fail-closed, reads the same field: it fails, and the host carries on.
        let after = agent_bundle::hosts::table(host)
            .event(agent_bundle::vocabulary::canonical::CanonicalEvent::AfterTool)
            .unwrap()
            .native
            .clone();
        let audit = manifest.hooks.iter().find(|r| r.host == host && r.native_event == after).unwrap();
        let stdin = common::envelope_with(audit, json!({ "toolName": name, "toolInput": input, "toolResponse": {} }));
        let run = run_wrapper(&artifact, &audit.path, stdin.to_string().as_bytes(), &[]);
        assert_eq!(run.code, Some(1), "{host} {name}: the audit fails open: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{host} {name} audit: {}", run.stderr);
    }
}

/// The promise behind `tool.kind`, for every tool name, not only chosen ones: the kind a handler is
/// told is a selector whose matcher (the host table's alternatives, as the host documents carry them)
/// takes the name, and `other` exactly when none does. Names are the tables' own, their patterns
/// filled at random, near misses of both and random text, run through each host's afterTool wrapper.
#[test]
fn the_kind_is_always_a_selector_whose_matcher_takes_the_name() {
    use agent_bundle::vocabulary::canonical::Selector;
    require_node();
    let (_guard, artifact) = build_bundle("canonical-tools");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let mut random = common::Random::seeded(0x0070_011d);
    let patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n";
    let input = json!({
        "command": patch, "file_path": "/w/a.txt", "path": "/w/a.txt", "notebook_path": "/w/a.ipynb",
        "content": "x", "file_text": "x", "new_source": "x", "old_string": "a", "new_string": "b",
        "old_str": "a", "new_str": "b", "input": patch,
    });
    let mut checked = 0;
    for host in [Target::Claude, Target::Codex, Target::Copilot, Target::Cursor, Target::Gemini] {
        let table = agent_bundle::hosts::table(host);
        let selectors: Vec<(Selector, Vec<regex::Regex>)> = Selector::ALL
            .iter()
            .filter_map(|s| Some((*s, table.selector(*s).ok()?)))
            .map(|(s, m)| (s, m.matches.iter().map(|p| regex::Regex::new(&format!("^(?:{p})$")).unwrap()).collect()))
            .collect();
        let alternatives: Vec<String> = table
            .hooks
            .as_ref()
            .unwrap()
            .selectors
            .values()
            .filter_map(|s| s.supported().ok())
            .flat_map(|m| m.matches.clone())
            .collect();
        let alphabet: Vec<char> = "abBcdemMpPrsx_-:.0".chars().collect();
        let text = |random: &mut common::Random, len: usize| -> String {
            (0..len).map(|_| alphabet[random.below(alphabet.len())]).collect()
        };
        let mut names: Vec<String> = Vec::new();
        for alternative in &alternatives {
            let stem = alternative.trim_end_matches(".*").replace("[^-]+", "srv").replace(".+", "tool");
            names.push(stem.clone());
            for _ in 0..6 {
                let len = random.below(6);
                let filled = text(&mut random, len);
                names.push(match random.below(3) {
                    0 => format!("{stem}{filled}"),
                    1 => format!("{filled}{stem}"),
                    _ => stem.to_lowercase() + &filled,
                });
            }
        }
        for _ in 0..40 {
            let len = 1 + random.below(12);
            names.push(text(&mut random, len));
        }
        names.sort();
        names.dedup();
        let after = table.event(agent_bundle::vocabulary::canonical::CanonicalEvent::AfterTool).unwrap().native.clone();
        let audit = manifest.hooks.iter().find(|r| r.host == host && r.native_event == after).unwrap();
        let stdins: Vec<String> = names
            .iter()
            .map(|name| {
                common::envelope_with(audit, json!({ "toolName": name, "toolInput": input, "toolResponse": {} }))
                    .to_string()
            })
            .collect();
        let cases: Vec<common::Case<'_>> = stdins
            .iter()
            .map(|stdin| common::Case { wrapper: &audit.path, stdin: stdin.as_bytes(), env: &[] })
            .collect();
        for (name, run) in names.iter().zip(common::decide_all(&artifact, &cases)) {
            assert_eq!(run.code, Some(0), "{host} {name:?}: {}", run.stderr);
            let told = decode_answer(audit, &run.stdout).unwrap()["additionalContext"].as_str().unwrap().to_string();
            let kind = told.split(' ').next().unwrap();
            let taking: Vec<&str> =
                selectors.iter().filter(|(_, rs)| rs.iter().any(|r| r.is_match(name))).map(|(s, _)| s.name()).collect();
            if taking.is_empty() {
                assert_eq!(kind, "other", "{host} {name:?}: no matcher takes it");
            } else {
                assert!(taking.contains(&kind), "{host} {name:?}: told {kind}, matchers {taking:?}");
            }
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked} names");
}

/// A rewrite in canonical words (`filePath`, `content`, `command`, `cwd`) reaches each host under its
/// own keys; one the host's tool cannot take (a `cwd` for Claude Code's `Bash`) or a field that is
/// only ever read (`filePaths`) fails the hook instead of being half-applied.
#[test]
fn a_canonical_rewrite_is_written_in_each_hosts_own_keys_or_refused() {
    require_node();
    let root = tempfile::tempdir().unwrap();
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        "export default {\n  hooks: { beforeTool: { handler: './rewrite.ts', tools: ['shell', 'file.write'] } },\n  plugin: { name: 'rewrites', description: 'Rewrites.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['claude', 'copilot', 'cursor', 'gemini'],\n};\n",
    );
    common::write_file(
        root.path(),
        "rewrite.ts",
        "import type { HookHandler } from 'agent-bundle';\n\n\
         const rewrite: HookHandler<'beforeTool'> = ({ tool }) => {\n\
         \x20 if (tool.kind === 'file.write') return { outcome: 'allow', updatedInput: { filePath: `${tool.filePath}.safe`, content: 'safe' } };\n\
         \x20 if (tool.kind === 'shell' && tool.command === 'ls') return { outcome: 'allow', updatedInput: { command: 'ls -la', cwd: '/tmp' } };\n\
         \x20 if (tool.kind === 'shell') return { outcome: 'allow', updatedInput: { filePaths: ['x'] } };\n\
         };\n\nexport default rewrite;\n",
    );
    let (_guard, artifact) = common::build_root(&common::utf8(root.path()));
    let rows = read_verified(&artifact, &RealDisk).unwrap().hooks;
    let mut summary = String::new();
    for row in rows.iter().filter(|r| r.native_event == hook_event(r.host)) {
        let (write, shell) = match row.host {
            Target::Claude | Target::Cursor => ("Write", if row.host == Target::Claude { "Bash" } else { "Shell" }),
            Target::Copilot => ("create", "bash"),
            Target::Gemini => ("write_file", "run_shell_command"),
            other => panic!("{other}"),
        };
        let write_input = match row.host {
            Target::Copilot => json!({ "path": "/w/a.txt", "file_text": "x" }),
            _ => json!({ "file_path": "/w/a.txt", "content": "x" }),
        };
        for (name, input) in
            [(write, write_input), (shell, json!({ "command": "ls" })), (shell, json!({ "command": "pwd" }))]
        {
            let stdin = envelope(row, name, &input).to_string();
            let run = run_wrapper(&artifact, &row.path, stdin.as_bytes(), &[]);
            let told = if run.code == Some(0) {
                let answer = decode_answer(row, &run.stdout).unwrap();
                format!("updatedInput {}", answer["updatedInput"])
            } else {
                format!("exit {:?}: {}", run.code, run.stderr.lines().last().unwrap_or_default())
            };
            let _ = writeln!(summary, "{} {name} {}: {told}", row.host, input);
        }
    }
    insta::assert_snapshot!(summary);
}

/// The README's guard example (`// src/hooks/guard.ts`), exactly as the README shows it, built for
/// all five hosts and run through the real wrappers: it refuses `rm -rf /` and a `.env` write on
/// every host and lets a harmless command through.
#[test]
fn the_readmes_guard_runs_unchanged_on_every_host() {
    require_node();
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start =
        readme.find("```ts\n// src/hooks/guard.ts\n").expect("the README shows src/hooks/guard.ts") + "```ts\n".len();
    let guard = &readme[start..start + readme[start..].find("```").unwrap()];
    let root = tempfile::tempdir().unwrap();
    common::write_file(root.path(), "src/hooks/guard.ts", guard);
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        "export default {\n  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell', 'file.write'] } },\n  plugin: { name: 'readme-guard', description: 'The README guard.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini'],\n};\n",
    );
    let (_guard, artifact) = common::build_root(&common::utf8(root.path()));
    let rows = read_verified(&artifact, &RealDisk).unwrap().hooks;
    let mut checked = 0;
    for host in [Target::Claude, Target::Codex, Target::Copilot, Target::Cursor, Target::Gemini] {
        let row = rows.iter().find(|r| r.host == host).unwrap();
        for (call, denied) in [(Call::DeleteRoot, true), (Call::WriteDotEnv, true), (Call::ListFiles, false)] {
            let (name, input) = native(host, call).unwrap();
            let stdin = envelope(row, name, &input).to_string();
            let run = run_wrapper(&artifact, &row.path, stdin.as_bytes(), &[]);
            assert_eq!(run.code, Some(0), "{host} {call:?}: {}", run.stderr);
            let outcome = decode_answer(row, &run.stdout).unwrap();
            assert_eq!(outcome["outcome"] == "deny", denied, "{host} {call:?}: {outcome}");
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
}
