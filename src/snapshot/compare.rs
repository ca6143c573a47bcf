//! Comparing a golden snapshot with a new one: a unified diff of the text (`similar`), and a summary
//! of what changed in the terms a reviewer cares about.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::render::SnapshotData;

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
    timeout: Option<Value>,
}

/// (native event, command) → entry, from a Claude/Codex (grouped) or Cursor (flat) hook document.
fn entries(document: &Value) -> BTreeMap<(String, String), Entry> {
    let mut found = BTreeMap::new();
    let Some(events) = document.get("hooks").and_then(Value::as_object) else { return found };
    for (event, groups) in events {
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group.get("matcher").and_then(Value::as_str).map(str::to_string);
            let handlers: Vec<&Value> = match group.get("hooks").and_then(Value::as_array) {
                Some(handlers) => handlers.iter().collect(),
                None => vec![group],
            };
            for handler in handlers {
                let Some(command) = handler.get("command").and_then(Value::as_str) else { continue };
                let entry = Entry { matcher: matcher.clone(), timeout: handler.get("timeout").cloned() };
                found.insert((event.clone(), command.to_string()), entry);
            }
        }
    }
    found
}

/// The file a command runs, for naming it briefly (`hooks/x.claude.mjs`).
fn short_command(command: &str) -> String {
    command
        .split('"')
        .nth(1)
        .and_then(|path| path.split_once("}/").map(|(_, rest)| rest.to_string()))
        .unwrap_or_else(|| command.to_string())
}

fn show(value: Option<&impl std::fmt::Display>) -> String {
    value.map_or_else(|| "none".to_string(), |v| v.to_string())
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
            (Some(before), Some(after)) if path.ends_with("plugin.json") => {
                let keys: BTreeSet<&String> =
                    before.as_object().into_iter().chain(after.as_object()).flat_map(|o| o.keys()).collect();
                for key in keys {
                    if before.get(key) != after.get(key) {
                        lines.push(format!(
                            "{target} {path} {key}: {} → {}",
                            show(before.get(key)),
                            show(after.get(key))
                        ));
                    }
                }
            }
            (Some(before), Some(after)) => {
                let (then, now) = (entries(before), entries(after));
                let keys: BTreeSet<&(String, String)> = then.keys().chain(now.keys()).collect();
                for key @ (event, command) in keys {
                    let file = short_command(command);
                    match (then.get(key), now.get(key)) {
                        (Some(a), Some(b)) => {
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
                        }
                        (None, Some(_)) => lines.push(format!("{target} {event} gains {file}")),
                        (Some(_), None) => lines.push(format!("{target} {event} loses {file}")),
                        (None, None) => {}
                    }
                }
            }
            (None, None) => {}
        }
    }
    let hook_names = |data: &SnapshotData| -> BTreeSet<String> {
        data.index.iter().filter_map(|line| line.split_whitespace().next().map(str::to_string)).collect()
    };
    let (old_hooks, new_hooks) = (hook_names(old), hook_names(new));
    for removed in old_hooks.difference(&new_hooks) {
        lines.push(format!("hook {removed} removed"));
    }
    for added in new_hooks.difference(&old_hooks) {
        lines.push(format!("hook {added} added"));
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
                if a.exit == b.exit && a.stdout == b.stdout && a.stdin == b.stdin {
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
}
