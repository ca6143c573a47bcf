//! Comparing a golden snapshot with a new one: a unified diff of the text (`similar`), and a summary
//! of what changed in the terms a reviewer cares about. Documents are read through the artifact
//! layout: which of a host's files is its hook document, plugin manifest or MCP document, and the
//! hook document's shape and keys, come from the host's table, never from a file name.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::render::SnapshotData;
use crate::hosts::HookSurface;
use crate::hosts::layout::{Role, layout};
use crate::pipeline::emit::read_hook_document;
use crate::vocabulary::target::Target;

/// The unified diff between two snapshot texts.
pub fn unified_diff(old: &str, new: &str, path: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("{path} (golden)"), &format!("{path} (new)"))
        .to_string()
}

/// One hook command as a host document lists it.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    matcher: Option<String>,
    /// As the document writes it, with the table's unit (`10 s`, `10000 ms`).
    timeout: Option<String>,
    /// The entry carries a host's fail-closed keys (`onFailure: "block"`, `failClosed: true`).
    fail_closed: bool,
}

/// Whether an entry's own keys are the host's fail-closed keys of some event.
fn has_fail_closed_keys(surface: &HookSurface, extra: &serde_json::Map<String, Value>) -> bool {
    surface.events.values().chain(surface.families.values()).any(|event| {
        let entry = event.supported().ok().and_then(|m| m.fail_closed.as_ref()).and_then(|f| f.entry.as_ref());
        entry.is_some_and(|keys| keys.iter().all(|(k, v)| extra.get(k) == Some(v)))
    })
}

/// (native event, command) → entry, read from a host's hook document by its table.
fn entries(surface: &HookSurface, document: &Value) -> BTreeMap<(String, String), Entry> {
    read_hook_document(surface, document)
        .into_iter()
        .map(|written| {
            let entry = Entry {
                matcher: written.matcher,
                timeout: written.timeout.map(|t| match t.as_u64() {
                    Some(number) => surface.timeout_unit.show(number),
                    None => t.to_string(),
                }),
                fail_closed: has_fail_closed_keys(surface, &written.extra),
            };
            // The Windows command too, where the entry has one under its own key.
            let command = match &written.command.windows {
                Some(windows) => format!("{} ({}: {})", written.command, windows.key, windows.command),
                None => written.command.to_string(),
            };
            ((written.native_event, command), entry)
        })
        .collect()
}

/// What a snapshot's document is to its host, by the layout: `None` for a file the layout does not
/// give that host (a snapshot of another layout), which is then compared key by key.
fn document_role(target: &str, path: &str) -> Option<(Role, &'static HookSurface)> {
    let target = Target::from_name(target)?;
    let surface = crate::hosts::table(target).hooks.as_ref()?;
    Some((layout().document_role(target, path)?, surface))
}

/// One line per top-level key of two JSON objects that differs (`description: A → B`); with
/// `under`, the keys of that member instead (`mcpServers.<name>`).
fn describe_keys(lines: &mut Vec<String>, prefix: &str, before: &Value, after: &Value, under: Option<&str>) {
    let (before, after, shown) = match under {
        Some(key) => (&before[key], &after[key], format!("{key}.")),
        None => (before, after, String::new()),
    };
    let keys: BTreeSet<&String> =
        before.as_object().into_iter().chain(after.as_object()).flat_map(|o| o.keys()).collect();
    for key in keys {
        if before.get(key) != after.get(key) {
            let json = |value: Option<&Value>| value.map(crate::vocabulary::json::compact);
            lines.push(format!(
                "{prefix} {shown}{key}: {} → {}",
                show(json(before.get(key)).as_ref()),
                show(json(after.get(key)).as_ref())
            ));
        }
    }
}

fn describe_entry_change(lines: &mut Vec<String>, target: &str, event: &str, file: &str, a: &Entry, b: &Entry) {
    if a.matcher != b.matcher {
        lines.push(format!(
            "{target} {event} matcher: {} → {} ({file})",
            show(a.matcher.as_ref()),
            show(b.matcher.as_ref())
        ));
    }
    if a.timeout != b.timeout {
        lines.push(format!(
            "{target} {event} timeout: {} → {} ({file})",
            show(a.timeout.as_ref()),
            show(b.timeout.as_ref())
        ));
    }
    if a.fail_closed != b.fail_closed {
        let word = |closed: bool| if closed { "fail-closed" } else { "fail-open" };
        lines.push(format!(
            "{target} {event} failure policy: {} → {} ({file})",
            word(a.fail_closed),
            word(b.fail_closed)
        ));
    }
}

/// A command with the hook's hash taken out of its file name: what stays when a declaration changes.
fn stem(command: &str) -> String {
    let file = short_command(command);
    let mut parts: Vec<&str> = file.split('-').collect();
    if let Some(last) = parts.pop() {
        let hash = last.split('.').next().unwrap_or("");
        let rest = &last[hash.len()..];
        if hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return format!("{}-{rest}", parts.join("-"));
        }
        parts.push(last);
    }
    file
}

/// The file a command runs, for naming it briefly (`hooks/x.claude.mjs`): the path under the host's
/// root token, the last one the command names (`node "${ROOT}/…"`, `sh -c '…' sh "${ROOT}/…"`,
/// `node -e <loader> ${ROOT}/…`).
fn short_command(command: &str) -> String {
    command
        .rsplit_once("}/")
        .map(|(_, rest)| rest.split(['"', ' ']).next().unwrap_or(rest).to_string())
        .unwrap_or_else(|| command.to_string())
}

fn show(value: Option<&impl std::fmt::Display>) -> String {
    value.map_or_else(|| "none".to_string(), |v| v.to_string())
}

/// What changed in one host hook document: matchers, timeouts and failure policies per native event,
/// entries gained and lost, and hooks renamed by a changed declaration.
fn describe_document_change(
    lines: &mut Vec<String>,
    target: &str,
    surface: &HookSurface,
    before: &Value,
    after: &Value,
) {
    let (then, now) = (entries(surface, before), entries(surface, after));
    let keys: BTreeSet<&(String, String)> = then.keys().chain(now.keys()).collect();
    // A changed declaration renames its hook: pair what one event lost with what it gained
    // under the same `<event>-<handler>` stem, and describe the change instead.
    let mut lost: Vec<&(String, String)> = keys.iter().copied().filter(|k| !now.contains_key(*k)).collect();
    let mut gained: Vec<&(String, String)> = keys.iter().copied().filter(|k| !then.contains_key(*k)).collect();
    let mut pairs = Vec::new();
    lost.retain(|old| {
        let position = gained.iter().position(|new| new.0 == old.0 && stem(&new.1) == stem(&old.1));
        match position {
            Some(index) => {
                pairs.push((*old, gained.remove(index)));
                false
            }
            None => true,
        }
    });
    for key @ (event, command) in keys {
        let file = short_command(command);
        if let (Some(a), Some(b)) = (then.get(key), now.get(key)) {
            describe_entry_change(lines, target, event, &file, a, b);
        }
    }
    for (old, new) in pairs {
        let (a, b) = (&then[old], &now[new]);
        let (from, to) = (short_command(&old.1), short_command(&new.1));
        // The same wrapper run another way (its command's form changed, not the hook).
        let file = if from == to { from.clone() } else { format!("{from} → {to}") };
        if from == to {
            lines.push(format!("{target} {} command of {from}: {} → {}", old.0, old.1, new.1));
        } else if a == b {
            lines.push(format!("{target} {} renamed {file}", old.0));
        }
        if a != b {
            describe_entry_change(lines, target, &old.0, &file, a, b);
        }
    }
    for (event, command) in lost {
        lines.push(format!("{target} {event} loses {}", short_command(command)));
    }
    for (event, command) in gained {
        lines.push(format!("{target} {event} gains {}", short_command(command)));
    }
}

/// What changed, one line each: matchers and timeouts per host event, hooks added and removed,
/// manifest fields, and wrapper answers.
pub fn summarise(old: &SnapshotData, new: &SnapshotData) -> Vec<String> {
    let target = if new.target.is_empty() { &old.target } else { &new.target };
    let mut lines = Vec::new();
    let paths: BTreeSet<&String> = old.documents.keys().chain(new.documents.keys()).collect();
    for path in paths {
        let (before, after) = (old.documents.get(path), new.documents.get(path));
        if before == after {
            continue;
        }
        match (before, after) {
            (None, Some(_)) => lines.push(format!("{target} {path} added")),
            (Some(_), None) => lines.push(format!("{target} {path} removed")),
            (Some(before), Some(after)) => match document_role(target, path) {
                Some((Role::HookDocument, surface)) => {
                    describe_document_change(&mut lines, target, surface, before, after);
                }
                Some((Role::McpDocument, _)) => {
                    describe_keys(&mut lines, &format!("{target} {path}"), before, after, Some("mcpServers"));
                }
                _ => describe_keys(&mut lines, &format!("{target} {path}"), before, after, None),
            },
            (None, None) => {}
        }
    }
    let parts: BTreeSet<&String> = old.parts.keys().chain(new.parts.keys()).collect();
    for path in parts {
        match (old.parts.get(path), new.parts.get(path)) {
            (None, Some(_)) => lines.push(format!("{target} part {path} added")),
            (Some(_), None) => lines.push(format!("{target} part {path} removed")),
            (Some(before), Some(after)) if before != after => lines.push(format!("{target} part {path} changed")),
            _ => {}
        }
    }
    let hook_names = |data: &SnapshotData| -> BTreeSet<String> {
        data.index.iter().filter_map(|line| line.split_whitespace().next().map(str::to_string)).collect()
    };
    let (old_hooks, new_hooks) = (hook_names(old), hook_names(new));
    let name_stem = |name: &str| name.rsplit_once('-').map_or(name.to_string(), |(stem, _)| stem.to_string());
    let mut added: Vec<&String> = new_hooks.difference(&old_hooks).collect();
    for removed in old_hooks.difference(&new_hooks) {
        match added.iter().position(|a| name_stem(a) == name_stem(removed)) {
            Some(index) => {
                let renamed = added.remove(index);
                lines.push(format!("hook {removed} is now {renamed} (its declaration changed)"));
            }
            None => lines.push(format!("hook {removed} removed")),
        }
    }
    for hook in added {
        lines.push(format!("hook {hook} added"));
    }
    let cases: BTreeSet<&(String, String)> = old.answers.keys().chain(new.answers.keys()).collect();
    for case @ (hook, name) in cases {
        match (old.answers.get(case), new.answers.get(case)) {
            (Some(a), Some(b)) if a != b => {
                if a.exit != b.exit {
                    lines.push(format!("{target} answer {hook} / {name}: exit {} → {}", a.exit, b.exit));
                }
                if a.stdout != b.stdout {
                    lines.push(format!("{target} answer {hook} / {name}: stdout changed"));
                }
                if a.stdin != b.stdin {
                    lines.push(format!("{target} answer {hook} / {name}: envelope changed"));
                }
                if a.wrote != b.wrote {
                    lines.push(format!("{target} answer {hook} / {name}: what it wrote for the host changed"));
                }
                if a.exit == b.exit && a.stdout == b.stdout && a.stdin == b.stdin && a.wrote == b.wrote {
                    lines.push(format!("{target} answer {hook} / {name}: stderr changed"));
                }
            }
            (None, Some(_)) if old_hooks.contains(hook) || old.answers.keys().any(|(h, _)| h == hook) => {
                lines.push(format!("{target} answer {hook} / {name} added"))
            }
            (Some(_), None) if new_hooks.contains(hook) => {
                lines.push(format!("{target} answer {hook} / {name} removed"))
            }
            _ => {}
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_declaration_change_that_renames_a_hook_is_described_as_a_change() {
        let document = |hash: &str, matcher: &str| {
            json!({ "hooks": { "PreToolUse": [{ "matcher": matcher, "hooks": [{ "type": "command",
                "command": format!("node \"${{CLAUDE_PLUGIN_ROOT}}/hooks/before-tool-guard-{hash}.claude.mjs\"") }] }] } })
        };
        let mut old = SnapshotData { target: "claude".into(), ..Default::default() };
        let mut new = old.clone();
        old.documents.insert("hooks/hooks.json".into(), document("1fff5159", "^(?:Bash)$"));
        new.documents.insert("hooks/hooks.json".into(), document("89d38e15", "^(?:Bash|mcp__.*)$"));
        old.index.push("before-tool-guard-1fff5159  beforeTool -> PreToolUse".into());
        new.index.push("before-tool-guard-89d38e15  beforeTool -> PreToolUse".into());
        assert_eq!(
            summarise(&old, &new),
            [
                "claude PreToolUse matcher: ^(?:Bash)$ → ^(?:Bash|mcp__.*)$ (hooks/before-tool-guard-1fff5159.claude.mjs → hooks/before-tool-guard-89d38e15.claude.mjs)",
                "hook before-tool-guard-1fff5159 is now before-tool-guard-89d38e15 (its declaration changed)",
            ]
        );
    }

    #[test]
    fn a_command_is_named_by_the_file_it_runs_whatever_the_shell_form() {
        assert_eq!(short_command(r#"node "${CLAUDE_PLUGIN_ROOT}/hooks/a.claude.mjs" 3>&1 1>&2"#), "hooks/a.claude.mjs");
        assert_eq!(
            short_command(r#"sh -c 'exec node "$1" 3>&1 1>&2' sh "${PLUGIN_ROOT}/hooks/a.codex.mjs""#),
            "hooks/a.codex.mjs"
        );
        assert_eq!(
            stem(r#"sh -c 'exec node "$1" 3>&1 1>&2' sh "${PLUGIN_ROOT}/hooks/a-1fff5159.codex.mjs""#),
            "hooks/a-.codex.mjs"
        );
    }

    #[test]
    fn a_matcher_change_is_named_by_host_event_and_values() {
        let document = |matcher: &str| {
            json!({ "hooks": { "PreToolUse": [{ "matcher": matcher, "hooks": [{ "type": "command",
                "command": "node \"${CLAUDE_PLUGIN_ROOT}/hooks/a.claude.mjs\"" }] }] } })
        };
        let mut old = SnapshotData { target: "claude".into(), ..Default::default() };
        let mut new = old.clone();
        old.documents.insert("hooks/hooks.json".into(), document("^(?:Bash)$"));
        new.documents.insert("hooks/hooks.json".into(), document("^(?:Bash|PowerShell)$"));
        assert_eq!(
            summarise(&old, &new),
            ["claude PreToolUse matcher: ^(?:Bash)$ → ^(?:Bash|PowerShell)$ (hooks/a.claude.mjs)"]
        );
    }

    #[test]
    fn a_copilot_entry_is_read_with_copilots_own_keys() {
        let document = |matcher: &str, timeout: u32| {
            json!({ "version": 1, "hooks": { "preToolUse": [{ "type": "command", "matcher": matcher, "timeoutSec": timeout,
                "bash": "node \"${PLUGIN_ROOT}/hooks/a.copilot.mjs\"" }] } })
        };
        let mut old = SnapshotData { target: "copilot".into(), ..Default::default() };
        let mut new = old.clone();
        old.documents.insert(".plugin/hooks.json".into(), document("^(?:bash)$", 5));
        new.documents.insert(".plugin/hooks.json".into(), document("^(?:bash|powershell)$", 10));
        assert_eq!(
            summarise(&old, &new),
            [
                "copilot preToolUse matcher: ^(?:bash)$ → ^(?:bash|powershell)$ (hooks/a.copilot.mjs)",
                "copilot preToolUse timeout: 5 s → 10 s (hooks/a.copilot.mjs)",
            ]
        );
    }

    #[test]
    fn gemini_s_manifest_and_millisecond_timeouts_are_read_through_the_layout() {
        let document = |timeout: u32| {
            json!({ "hooks": { "BeforeTool": [{ "matcher": "^(?:run_shell_command)$", "hooks": [{ "type": "command",
                "timeout": timeout, "command": "node \"${extensionPath}/hooks/a.gemini.mjs\"" }] }] } })
        };
        let manifest = |description: &str| json!({ "name": "p", "description": description, "version": "[VERSION]" });
        let mut old = SnapshotData { target: "gemini".into(), ..Default::default() };
        let mut new = old.clone();
        old.documents.insert("gemini/gemini-extension.json".into(), manifest("Guards."));
        new.documents.insert("gemini/gemini-extension.json".into(), manifest("Guards shell commands."));
        old.documents.insert("gemini/hooks/hooks.json".into(), document(10_000));
        new.documents.insert("gemini/hooks/hooks.json".into(), document(20_000));
        assert_eq!(
            summarise(&old, &new),
            [
                "gemini gemini/gemini-extension.json description: \"Guards.\" → \"Guards shell commands.\"",
                "gemini BeforeTool timeout: 10000 ms → 20000 ms (hooks/a.gemini.mjs)",
            ]
        );
    }

    #[test]
    fn a_changed_mcp_server_is_named() {
        let document = |arg: &str| json!({ "mcpServers": { "p-runtime": { "command": "node", "args": [arg] } } });
        let mut old = SnapshotData { target: "claude".into(), ..Default::default() };
        let mut new = old.clone();
        old.documents.insert(".mcp.json".into(), document("${CLAUDE_PLUGIN_ROOT}/mcp/p-runtime.mjs"));
        new.documents.insert(".mcp.json".into(), document("${CLAUDE_PLUGIN_ROOT}/mcp/q-runtime.mjs"));
        assert_eq!(
            summarise(&old, &new),
            [
                "claude .mcp.json mcpServers.p-runtime: {\"args\":[\"${CLAUDE_PLUGIN_ROOT}/mcp/p-runtime.mjs\"],\"command\":\"node\"} → {\"args\":[\"${CLAUDE_PLUGIN_ROOT}/mcp/q-runtime.mjs\"],\"command\":\"node\"}"
            ]
        );
    }

    #[test]
    fn a_changed_part_file_is_summarised() {
        let mut old = SnapshotData { target: "claude".into(), ..Default::default() };
        old.parts.insert("skills/a/SKILL.md".into(), "one\n".into());
        old.parts.insert("commands/gone.md".into(), "x\n".into());
        let mut new = old.clone();
        new.parts.insert("skills/a/SKILL.md".into(), "two\n".into());
        new.parts.remove("commands/gone.md");
        new.parts.insert("agents/new.md".into(), "y\n".into());
        assert_eq!(
            summarise(&old, &new),
            [
                "claude part agents/new.md added",
                "claude part commands/gone.md removed",
                "claude part skills/a/SKILL.md changed"
            ]
        );
    }
}
