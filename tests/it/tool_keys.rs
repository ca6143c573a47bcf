//! The canonical-to-native key rule has one source: `ToolInputMap::native_keys` (src/hosts). The
//! workbench moves a call's fields with it (src/tools/workbench/translate.rs), and a wrapper's
//! contract carries what it gives as each tool's `input.keys`, which the runtime reads a call's tool
//! and writes a canonical rewrite with. Over every plain-named tool of every host table and every
//! field the runtime reads for its kind: the runtime (the core's own text, under node) reads the
//! field from each native key the rule names, in the rule's order, and writes a rewrite in canonical
//! words under the rule's first key, the key the workbench writes that field under (unless the
//! canonical name is itself one of the tool's own keys, which passes as it is).

use crate::common;

use agent_bundle::hosts::{self, ToolInputMap};
use agent_bundle::vocabulary::target::Target;
use common::{require_node, sandbox_dir};
use serde_json::{Value, json};

const CORE: &str = runtime_core!("../../src/pipeline/emit/runtime/");

/// Reads each case's envelope with the core's `decodeRequest` and decides its rewrite with `decide`.
const DRIVER: &str = r#"
import { readFileSync } from 'node:fs';
import { decide, decodeRequest } from './core.mjs';
const cases = JSON.parse(readFileSync(0, 'utf8'));
const out = [];
for (const c of cases) {
  const read = c.reads.map((envelope) => {
    const tool = decodeRequest(c.contract, envelope).tool;
    return { value: tool[c.field], nativeKey: tool.nativeKeys[c.field] };
  });
  let written = null;
  if (c.rewrite) {
    const bytes = new TextEncoder().encode(JSON.stringify(c.rewrite));
    const handler = async () => ({ default: () => ({ updatedInput: { [c.field]: 'rewritten' } }) });
    const decision = await decide(c.contract, bytes, handler);
    written = decision.stdout === undefined ? decision.stderr : JSON.parse(decision.stdout).updatedInput;
  }
  out.push({ read, written });
}
process.stdout.write(JSON.stringify(out));
"#;

/// The fields the runtime reads for a kind of tool, and those a rewrite may give in canonical words.
fn fields(kind: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match kind {
        "shell" => (&["command", "cwd"], &["command", "cwd"]),
        "file.read" => (&["filePath", "content", "patch"], &["filePath"]),
        "file.write" => (&["filePath", "content", "patch"], &["filePath", "content", "patch"]),
        _ => (&[], &[]),
    }
}

/// A value the runtime reads `field` from: a patch must name a file.
fn value(field: &str) -> &'static str {
    if field == "patch" { "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch" } else { "canonical-value" }
}

#[test]
fn the_runtime_reads_and_writes_every_tools_fields_by_the_tables_one_rule() {
    require_node();
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for target in Target::ALL {
        let table = hosts::table(target);
        for identity in table.tool_identities() {
            let name = identity.pattern;
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let kind = identity.kind.name();
            let (read, writable) = fields(kind);
            // A keyed field the runtime would not read for this kind is a table mistake.
            for field in ToolInputMap::KEYED_FIELDS {
                if !identity.input.native_keys(field).is_empty() {
                    assert!(read.contains(&field), "{target} {name} ({kind}) maps {field}, which its kind never reads");
                }
            }
            let contract = json!({
                "hook": {
                    "name": "keys", "id": "keys", "event": "beforeTool", "target": target.name(),
                    "nativeEvent": "PreToolUse", "deadlineMs": 10000, "maxInputBytes": 1_000_000, "answerFd": 3,
                },
                "host": table.host, "revision": "r", "eventNameKey": null,
                "input": [
                    { "key": "tool_name", "type": "string", "as": "toolName", "required": true },
                    { "key": "tool_input", "type": "any", "as": "toolInput" },
                ],
                // The contract's tools exactly as a wrapper's: the identity serialised.
                "tools": [identity],
                "parts": { "updatedInput": { "write": [{ "path": "updatedInput" }] } },
            });
            for field in read {
                let keys = identity.input.native_keys(field);
                if keys.is_empty() {
                    continue;
                }
                assert_eq!(
                    contract["tools"][0]["input"]["keys"][*field],
                    json!(keys),
                    "{target} {name}: the contract carries the rule's keys"
                );
                // Each key alone, then all of them: the first the rule names wins.
                let mut reads: Vec<Value> =
                    keys.iter().map(|key| json!({ "tool_name": name, "tool_input": { *key: value(field) } })).collect();
                let all: serde_json::Map<String, Value> =
                    keys.iter().rev().map(|key| (key.to_string(), json!(value(field)))).collect();
                reads.push(json!({ "tool_name": name, "tool_input": all }));
                let rewrite = writable.contains(field).then(|| json!({ "tool_name": name, "tool_input": {} }));
                let mut want: Vec<Value> = keys
                    .iter()
                    .map(|key| json!({ "value": value(field), "nativeKey": format!("tool_input.{key}") }))
                    .collect();
                want.push(json!({ "value": value(field), "nativeKey": format!("tool_input.{}", keys[0]) }));
                // A key that is one of the tool's own passes as it is (Copilot's apply_patch takes `patch`).
                let own = ToolInputMap::KEYED_FIELDS.iter().flat_map(|f| identity.input.native_keys(f)).chain(
                    identity
                        .input
                        .edits
                        .iter()
                        .flat_map(|e| [e.list.as_deref(), Some(&*e.old_text), Some(&*e.new_text)])
                        .flatten(),
                );
                let to = if own.into_iter().any(|k| k == *field) { *field } else { keys[0] };
                let written = if rewrite.is_some() { json!({ to: "rewritten" }) } else { Value::Null };
                expected.push((format!("{target} {name} {field}"), json!({ "read": want, "written": written })));
                cases.push(json!({ "contract": contract, "field": field, "reads": reads, "rewrite": rewrite }));
            }
        }
    }
    assert!(cases.len() > 50, "only {} tool fields were checked", cases.len());
    let work = sandbox_dir("tool-keys");
    std::fs::write(work.join("core.mjs"), CORE).unwrap();
    std::fs::write(work.join("driver.mjs"), DRIVER).unwrap();
    let mut child = std::process::Command::new("node")
        .arg("driver.mjs")
        .current_dir(&work)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(Value::Array(cases).to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let got: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    for ((what, want), got) in expected.iter().zip(&got) {
        assert_eq!(got, want, "{what}");
    }
}
