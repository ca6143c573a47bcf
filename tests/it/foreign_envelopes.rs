//! A Claude-format hook run by another host (issue 27): VS Code's agent runs the hooks of Claude
//! Code's files and plugins, and Copilot CLI runs a PascalCase hook document, each sending fields of
//! its own. The Claude wrapper recognises those envelopes by keys Claude Code never leaves out and
//! passes through (exit 0, nothing on stdout, one note on stderr) instead of failing on fields
//! Claude Code would have sent, while no envelope Claude Code sends is ever taken for theirs.

use crate::common;

use agent_bundle::artifact::read_verified;
use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::target::Target;
use common::{build_bundle, recorded_envelopes, require_node, run_wrapper};

fn recognisers() -> &'static [agent_bundle::hosts::ForeignEnvelope] {
    &agent_bundle::hosts::table(Target::Claude).hooks.as_ref().expect("Claude Code has hooks").foreign_envelopes
}

/// Who the wrapper of Claude Code's `native` event takes `envelope` for (its contract holds only the
/// recognisers of its event), in the environment the sender gives its hooks.
fn recognised_on(native: &str, envelope: &serde_json::Value) -> Option<&'static str> {
    let object = envelope.as_object()?;
    recognisers()
        .iter()
        .filter(|f| f.events.is_empty() || f.events.iter().any(|e| e == native))
        .filter(|f| !f.present.iter().any(|k| k == "hook_event_name") || object["hook_event_name"] == native)
        .find(|f| f.present.iter().all(|k| object.contains_key(k)) && f.absent.iter().all(|k| !object.contains_key(k)))
        .map(|f| f.sender.as_str())
}

/// The same, for the event the envelope names (`hook_event_name` or `hookEventName`).
fn recognised(envelope: &serde_json::Value) -> Option<&'static str> {
    let native = envelope.get("hook_event_name").or_else(|| envelope.get("hookEventName"));
    recognised_on(native.and_then(|n| n.as_str()).unwrap_or_default(), envelope)
}

fn read(path: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Every recogniser leaves out a key that every recorded Claude Code envelope has, so none of them
/// is ever passed through; VS Code's documented envelopes and Copilot CLI's recorded one are.
#[test]
fn no_envelope_claude_code_sends_is_taken_for_another_hosts() {
    let claude: Vec<_> = recorded_envelopes().into_iter().filter(|r| r.host == Target::Claude).collect();
    assert!(claude.len() >= 8, "the recorded Claude Code envelopes are there");
    let claude_keys: std::collections::BTreeSet<String> = claude
        .iter()
        .filter_map(|r| serde_json::from_slice::<serde_json::Value>(&r.bytes).ok()?.as_object().cloned())
        .flat_map(|object| object.keys().cloned().collect::<Vec<_>>())
        .collect();
    for recogniser in recognisers() {
        assert!(
            !recogniser.absent.is_empty(),
            "{}: a recogniser must name a key Claude Code always sends",
            recogniser.sender
        );
        // Told apart only by a key it lacks, a malformed Claude Code envelope would be taken for it.
        assert!(
            recogniser.present.iter().any(|k| !claude_keys.contains(k)) || !recogniser.present_env.is_empty(),
            "{}: a recogniser whose present keys Claude Code also sends must name a variable the sender sets",
            recogniser.sender
        );
        for recorded in &claude {
            let envelope: serde_json::Value = serde_json::from_slice(&recorded.bytes).unwrap();
            let native = envelope["hook_event_name"].as_str().unwrap_or_default();
            if !recogniser.events.is_empty() && !recogniser.events.iter().any(|e| e == native) {
                continue;
            }
            for key in &recogniser.absent {
                assert!(
                    envelope.get(key).is_some(),
                    "{}: Claude Code's {} lacks {key}",
                    recogniser.sender,
                    recorded.name
                );
            }
            assert_eq!(recognised(&envelope), None, "{} was taken for another host's", recorded.name);
        }
    }
    for file in ["PreToolUse", "PostToolUse", "SessionStart", "Stop"] {
        let envelope = read(&format!("testdata/envelopes/vscode-agent/{file}.json"));
        assert_eq!(recognised(&envelope), Some("VS Code's agent"), "{file}");
    }
    // Copilot CLI running a hook document with Claude Code's event names: every envelope but those
    // of Stop and SubagentStop, which carry every key Claude Code's do and are taken as Claude
    // Code's (the hook runs there as on Claude Code).
    let dir = std::path::Path::new("testdata/envelopes/copilot-cli/vscode-compatible");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let envelope = read(path.to_str().unwrap());
        let expected =
            if name.starts_with("Stop") || name.starts_with("SubagentStop") { None } else { Some("Copilot CLI") };
        assert_eq!(recognised(&envelope), expected, "{name}");
        seen += 1;
    }
    assert!(seen >= 18, "Copilot CLI's recorded envelopes are there ({seen})");
    // Factory Droid running a Claude Code plugin: its tool events have no tool_use_id, which every
    // Claude Code tool event has; its other events carry every key Claude Code's do.
    for (file, expected) in [
        ("PreToolUse", Some("Factory Droid")),
        ("PostToolUse", Some("Factory Droid")),
        ("SessionStart", None),
        ("Stop", None),
        ("SessionEnd", None),
    ] {
        let envelope = read(&format!("testdata/envelopes/factory-droid/{file}.json"));
        assert_eq!(recognised(&envelope), expected, "Factory Droid's {file}");
    }
}

/// The real wrappers of the guards example, under node: VS Code's envelopes pass through every
/// Claude hook of their event (the fail-closed policy included: the hook is not built for that host,
/// so it has nothing to refuse there), with one note; the same call as Claude Code sends it is still
/// judged.
#[test]
fn a_claude_wrapper_passes_through_an_envelope_from_a_host_that_runs_claude_hook_files() {
    require_node();
    let (_guard, artifact) = build_bundle("guards");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let mut checked = 0;
    for (file, native) in [("PreToolUse", "PreToolUse"), ("SessionStart", "SessionStart")] {
        let envelope = std::fs::read(format!("testdata/envelopes/vscode-agent/{file}.json")).unwrap();
        for row in manifest.hooks.iter().filter(|r| r.host == Target::Claude && r.native_event == native) {
            let run = run_wrapper(&artifact, &row.path, &envelope, &[]);
            assert_eq!(run.code, Some(0), "{}: {}", row.name, run.stderr);
            assert_eq!(run.stdout, "", "{}: nothing reaches the host's stdout", row.name);
            let lines: Vec<&str> = run.stderr.lines().collect();
            assert_eq!(lines.len(), 1, "{}: one note: {}", row.name, run.stderr);
            assert!(
                lines[0].contains("passed through an envelope from VS Code's agent") && lines[0].contains(&row.name),
                "{}",
                lines[0]
            );
            checked += 1;
        }
    }
    assert!(checked >= 4, "every Claude beforeTool and sessionStart hook of the example was run ({checked})");

    // Copilot CLI's PreToolUse, on the fail-closed policy: it would block every tool there if the
    // wrapper failed on the fields Copilot CLI does not send.
    let policy = manifest
        .hooks
        .iter()
        .find(|r| r.host == Target::Claude && r.fail_closed && r.native_event == "PreToolUse")
        .unwrap();
    let copilot = std::fs::read("testdata/envelopes/copilot-cli/vscode-compatible/PreToolUse.json").unwrap();
    let run = run_wrapper(&artifact, &policy.path, &copilot, &[]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""), "{}", run.stderr);
    assert!(run.stderr.contains("passed through an envelope from Copilot CLI"), "{}", run.stderr);

    // Factory Droid runs an installed Claude Code plugin's hooks: its Edit tool matches the policy's
    // Claude matcher, and its envelope has no tool_use_id. Failing on that, the fail-closed policy
    // would block every edit there.
    let mut droid: serde_json::Value =
        serde_json::from_slice(&std::fs::read("testdata/envelopes/factory-droid/PreToolUse.json").unwrap()).unwrap();
    droid["tool_name"] = serde_json::json!("Edit");
    droid["tool_input"] = serde_json::json!({ "file_path": "/w/notes.txt", "old_str": "a", "new_str": "b" });
    let run = run_wrapper(&artifact, &policy.path, droid.to_string().as_bytes(), &[("DROID_PROJECT_DIR", "/w")]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""), "{}", run.stderr);
    assert!(run.stderr.contains("passed through an envelope from Factory Droid"), "{}", run.stderr);
    // Outside Droid the same envelope is a Claude Code envelope without its tool_use_id: malformed,
    // so the fail-closed policy blocks.
    let run = run_wrapper(&artifact, &policy.path, droid.to_string().as_bytes(), &[]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(2), ""), "{}", run.stderr);
    assert!(run.stderr.contains("tool_use_id"), "{}", run.stderr);

    // The same dangerous command as Claude Code sends it is denied by the same wrapper.
    let guard = manifest
        .hooks
        .iter()
        .find(|r| r.host == Target::Claude && r.name.starts_with("before-tool-deny-dangerous-"))
        .unwrap();
    let claude = serde_json::json!({
        "session_id": "s", "transcript_path": "/t", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": { "command": "rm -rf /" }, "tool_use_id": "t1",
        "permission_mode": "default",
    });
    let run = run_wrapper(&artifact, &guard.path, claude.to_string().as_bytes(), &[]);
    assert!(run.stdout.contains("deny"), "Claude Code's own envelope is judged: {} {}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("passed through"));
}

/// By property: an envelope that carries every key Claude Code always sends (its common fields that
/// the Claude table requires, `hook_event_name` naming one of its events, and the keys that event
/// requires), with any mix of keys any host sends besides, is
/// never taken for another host's. 2,000 generated envelopes per run.
#[test]
fn no_envelope_with_claude_codes_own_keys_is_ever_taken_for_another_hosts() {
    let table = agent_bundle::hosts::table(Target::Claude).hooks.as_ref().expect("Claude Code has hooks");
    let mut always: Vec<String> = table.common_input.iter().filter(|f| f.required).map(|f| f.key.clone()).collect();
    always.push("hook_event_name".to_string());
    // Every key some recorded envelope of any host carries, and every key a recogniser names.
    let mut others: std::collections::BTreeSet<String> = recorded_envelopes()
        .iter()
        .filter_map(|r| serde_json::from_slice::<serde_json::Value>(&r.bytes).ok()?.as_object().cloned())
        .flat_map(|object| object.keys().cloned().collect::<Vec<_>>())
        .collect();
    others.extend(recognisers().iter().flat_map(|f| f.present.iter().chain(&f.absent).cloned()));
    let others: Vec<String> = others.into_iter().collect();
    let events: Vec<(String, Vec<String>)> = agent_bundle::vocabulary::canonical::CanonicalEvent::ALL
        .iter()
        .filter_map(|e| agent_bundle::hosts::table(Target::Claude).event(*e).ok())
        .map(|m| (m.native.clone(), m.input.iter().filter(|f| f.required).map(|f| f.key.clone()).collect()))
        .collect();
    let mut random = common::Random::seeded(27);
    for _ in 0..2000 {
        let mut envelope = serde_json::Map::new();
        for key in &always {
            envelope.insert(key.clone(), serde_json::json!("x"));
        }
        // One of Claude Code's events, with every key the table says it always sends there.
        let (native, required) = &events[random.below(events.len())];
        envelope.insert("hook_event_name".into(), serde_json::json!(native));
        for key in required {
            envelope.insert(key.clone(), serde_json::json!("x"));
        }
        for key in &others {
            if random.chance(30) {
                envelope.insert(key.clone(), serde_json::json!("x"));
            }
        }
        let envelope = serde_json::Value::Object(envelope);
        assert_eq!(recognised(&envelope), None, "taken for another host's: {envelope}");
    }
}
