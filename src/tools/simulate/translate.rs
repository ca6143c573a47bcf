//! One canonical input for every host: a tool call written with one host's tool name (`Bash`) is run
//! on another host as that host's tool of the same kind (`run_shell_command`), its input fields moved
//! to the keys that host's tool takes — through the host tables' canonical tool maps, the same ones
//! the wrappers decode `tool` with.

use serde_json::{Map, Value};

use crate::hosts::{self, HostTable, ToolInputMap};
use crate::vocabulary::canonical::Selector;
use crate::vocabulary::target::Target;

/// The canonical fields moved key for key (the others — edits, patches, MCP names — only when both
/// tools take them the same way).
const SCALARS: &[&str] = &["command", "cwd", "filePath", "content"];

fn map_value(map: &ToolInputMap) -> Map<String, Value> {
    match serde_json::to_value(map).expect("tables serialise") {
        Value::Object(fields) => fields,
        _ => Map::new(),
    }
}

/// The native keys of a canonical field in a tool's map, first preferred: the host tables' one
/// rule ([`ToolInputMap::native_keys`]), the same the runtime reads a call's tool with.
fn keys(map: &ToolInputMap, field: &str) -> Vec<String> {
    map.native_keys(field).into_iter().map(str::to_string).collect()
}

/// The selector and input map of a plain tool name on any host. Hosts share names with other
/// shapes (Copilot's `edit` takes `path`, OpenCode's `filePath`): of those, the tool whose native
/// keys the given input uses most.
fn find_tool<'t>(name: &str, given: &Map<String, Value>) -> Option<(Selector, &'t ToolInputMap)> {
    let candidates = hosts::tables().iter().flat_map(|table| {
        Selector::ALL.iter().filter_map(move |selector| {
            let mapping = table.selector(*selector).ok()?;
            let map = mapping.input.get(name).filter(|_| mapping.matches.iter().any(|m| m == name))?;
            Some((*selector, map))
        })
    });
    let used = |map: &ToolInputMap| {
        ToolInputMap::KEYED_FIELDS.iter().filter(|f| keys(map, f).iter().any(|k| given.contains_key(k))).count()
    };
    // Reversed, so that of tools equally alike the first listed wins (`max_by_key` keeps the last).
    candidates.collect::<Vec<_>>().into_iter().rev().max_by_key(|(_, map)| used(map))
}

/// `input` as `target` would send it, and what was changed; `None` when nothing needs to change
/// (the tool is the host's own, or no host names it).
pub fn for_host(target: Target, input: &Value) -> Option<(Value, String)> {
    let name = input.get("toolName")?.as_str()?;
    let table: &HostTable = hosts::table(target);
    if table.tool_names().contains(&name) {
        return None;
    }
    let empty = Map::new();
    let given = match input.get("toolInput") {
        Some(Value::Object(given)) => given,
        _ => &empty,
    };
    let (selector, source_map) = find_tool(name, given)?;
    let source = map_value(source_map);
    let mapping = table.selector(selector).ok()?;
    let plain = |m: &&String| m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    // The host's tool of that kind whose input takes the most of the same canonical fields.
    let (target_name, target_map) = mapping
        .matches
        .iter()
        // Reversed, so that of tools equally alike the first listed wins (`max_by_key` keeps the last).
        .rev()
        .filter(plain)
        .filter_map(|m| mapping.input.get(m).map(|map| (m, map)))
        .max_by_key(|(_, map)| source.keys().filter(|field| map_value(map).contains_key(*field)).count())?;
    let target_value = map_value(target_map);
    let mut translated = input.clone();
    translated["toolName"] = Value::String(target_name.clone());
    let mut notes = vec![format!("toolName `{name}` runs as {target}'s `{target_name}` ({selector})")];
    if input.get("toolInput").is_some_and(Value::is_object) {
        let same_shape =
            source.iter().filter(|(f, _)| !SCALARS.contains(&f.as_str())).all(|(f, v)| target_value.get(f) == Some(v));
        let mut moved = Map::new();
        let mut used: Vec<String> = Vec::new();
        for field in source.keys().filter(|f| SCALARS.contains(&f.as_str())) {
            let Some((key, value)) =
                keys(source_map, field).into_iter().find_map(|k| given.get(&k).map(|v| (k, v.clone())))
            else {
                continue;
            };
            used.push(key.clone());
            if let Some(to) = keys(target_map, field).into_iter().next() {
                if to != key {
                    notes.push(format!("toolInput.{key} goes in as `{to}`"));
                }
                moved.insert(to, value);
            }
        }
        // Keys no scalar field names (edits, patches) go along as they are when the tools agree.
        for (key, value) in given.iter().filter(|(k, _)| !used.contains(k)) {
            if same_shape {
                moved.insert(key.clone(), value.clone());
            } else {
                notes.push(format!("toolInput.{key} left out: {target_name} takes it another way"));
            }
        }
        translated["toolInput"] = Value::Object(moved);
    }
    Some((translated, notes.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shell_call_moves_to_each_hosts_shell_tool() {
        let input = json!({ "toolName": "Bash", "toolInput": { "command": "rm -rf /" } });
        let (gemini, note) = for_host(Target::Gemini, &input).unwrap();
        assert_eq!(gemini, json!({ "toolName": "run_shell_command", "toolInput": { "command": "rm -rf /" } }));
        assert!(note.contains("`Bash` runs as gemini's `run_shell_command` (shell)"), "{note}");
        assert_eq!(for_host(Target::Copilot, &input).unwrap().0["toolName"], "bash");
        assert!(for_host(Target::Claude, &input).is_none(), "Claude's own tool");
    }

    /// Over every plain tool name of every host table and every other host: the call becomes one of
    /// that host's tools of the same kind, and every scalar field the two tools share arrives under
    /// a key the host's tool reads it from.
    #[test]
    fn every_tool_of_every_host_becomes_a_tool_of_the_same_kind_elsewhere() {
        let hook_hosts: Vec<Target> = Target::ALL.iter().copied().filter(|t| hosts::table(*t).has_hooks()).collect();
        let mut checked = 0;
        for source in &hook_hosts {
            for selector in Selector::ALL {
                let Ok(mapping) = hosts::table(*source).selector(selector) else { continue };
                for (name, map) in &mapping.input {
                    if !mapping.matches.contains(name) || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        continue;
                    }
                    // The source host's own tool, with its own keys.
                    let found = selector;
                    let mut given = Map::new();
                    for field in SCALARS.iter().filter(|f| !keys(map, f).is_empty()) {
                        given.insert(keys(map, field)[0].clone(), Value::String(format!("{field}-value")));
                    }
                    let input = json!({ "toolName": name, "toolInput": given });
                    for target in &hook_hosts {
                        let Ok(theirs) = hosts::table(*target).selector(found) else { continue };
                        let Some((translated, _)) = for_host(*target, &input) else {
                            assert!(
                                hosts::table(*target).tool_names().contains(&name.as_str()),
                                "{source} {name} → {target}"
                            );
                            continue;
                        };
                        let to = translated["toolName"].as_str().unwrap();
                        assert!(theirs.matches.iter().any(|m| m == to), "{source} {name} → {target}: {to}");
                        let their_map = &theirs.input[to];
                        for field in
                            SCALARS.iter().filter(|f| !keys(map, f).is_empty() && !keys(their_map, f).is_empty())
                        {
                            let value = keys(their_map, field).iter().find_map(|k| translated["toolInput"].get(k));
                            assert_eq!(
                                value,
                                Some(&json!(format!("{field}-value"))),
                                "{source} {name} → {target} {to}: {field}"
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "only {checked} translations were checked");
    }

    #[test]
    fn a_write_moves_its_fields_to_the_hosts_keys() {
        let input = json!({ "toolName": "Write", "toolInput": { "file_path": "/a", "content": "x" } });
        let (copilot, _) = for_host(Target::Copilot, &input).unwrap();
        assert_eq!(copilot, json!({ "toolName": "create", "toolInput": { "path": "/a", "file_text": "x" } }));
    }
}
