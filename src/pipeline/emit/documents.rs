//! The hosts' own hook documents and plugin manifests, built from the plan. Shapes come from the
//! host tables (`documentFormat`, `manifestPointsToDocument`); key order is sorted by serde_json's
//! map, events and groups follow the canonical event order and hook ids, so bytes are stable.

use serde_json::{Map, Value, json};

use crate::hosts::{DocumentFormat, HookSurface};
use crate::pipeline::PluginInfo;

/// One command a host runs for one hook.
pub struct DocumentEntry {
    pub native_event: String,
    pub matcher: Option<String>,
    pub timeout_seconds: Option<u32>,
    /// The host's own fail-closed keys (`onFailure: "block"`, `failClosed: true`).
    pub fail_closed_entry: Option<Map<String, Value>>,
    pub command: String,
}

/// The hook document of one host. `entries` must already be in canonical event, then id, order.
pub fn hook_document(surface: &HookSurface, entries: &[DocumentEntry]) -> Value {
    let mut events: Map<String, Value> = Map::new();
    for entry in entries {
        let group = match surface.document_format {
            DocumentFormat::Grouped => {
                let mut handler = json!({ "type": "command", "command": entry.command });
                if let Some(timeout) = entry.timeout_seconds {
                    handler["timeout"] = surface.timeout_unit.of(timeout).into();
                }
                for (key, value) in entry.fail_closed_entry.iter().flatten() {
                    handler[key] = value.clone();
                }
                let mut group = json!({ "hooks": [handler] });
                if let Some(matcher) = &entry.matcher {
                    group["matcher"] = matcher.clone().into();
                }
                group
            }
            DocumentFormat::Flat => {
                let mut flat = json!({ surface.entry_command_key.as_str(): entry.command });
                if let Some(kind) = &surface.entry_type {
                    flat["type"] = kind.clone().into();
                }
                if let Some(matcher) = &entry.matcher {
                    flat["matcher"] = matcher.clone().into();
                }
                if let Some(timeout) = entry.timeout_seconds {
                    flat[surface.entry_timeout_key.as_str()] = surface.timeout_unit.of(timeout).into();
                }
                for (key, value) in entry.fail_closed_entry.iter().flatten() {
                    flat[key] = value.clone();
                }
                flat
            }
        };
        match events.entry(entry.native_event.clone()).or_insert_with(|| Value::Array(Vec::new())) {
            Value::Array(groups) => groups.push(group),
            _ => unreachable!("event lists are arrays"),
        }
    }
    match surface.document_format {
        DocumentFormat::Grouped => json!({ "hooks": events }),
        DocumentFormat::Flat => json!({ "version": 1, "hooks": events }),
    }
}

/// The plugin manifest of one host.
pub fn plugin_manifest(surface: &HookSurface, plugin: &PluginInfo) -> Value {
    let mut manifest = json!({ "name": plugin.name });
    if let Some(description) = &plugin.description {
        manifest["description"] = description.clone().into();
    }
    if let Some(version) = &plugin.version {
        manifest["version"] = version.clone().into();
    }
    if let (Some(license), true) = (&plugin.license, surface.manifest_license) {
        manifest["license"] = license.clone().into();
    }
    if let (Some(author), true) = (&plugin.author, surface.manifest_author) {
        manifest["author"] = serde_json::to_value(author).expect("authors serialise");
    }
    if surface.manifest_points_to_document {
        manifest["hooks"] = format!("./{}", surface.document).into();
    }
    manifest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts;
    use crate::vocabulary::target::Target;

    fn entry(timeout_seconds: Option<u32>) -> DocumentEntry {
        DocumentEntry {
            native_event: "BeforeTool".into(),
            matcher: Some("^(?:run_shell_command)$".into()),
            timeout_seconds,
            fail_closed_entry: None,
            command: "node \"${extensionPath}/hooks/x.mjs\"".into(),
        }
    }

    #[test]
    fn each_host_gets_its_timeout_in_its_own_unit() {
        let gemini = hosts::table(Target::Gemini).hooks.as_ref().unwrap();
        let document = hook_document(gemini, &[entry(Some(10))]);
        assert_eq!(document["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"], 10_000, "Gemini counts milliseconds");
        let copilot = hosts::table(Target::Copilot).hooks.as_ref().unwrap();
        let document = hook_document(copilot, &[entry(Some(10))]);
        assert_eq!(document["hooks"]["BeforeTool"][0]["timeoutSec"], 10, "Copilot counts seconds");
        assert_eq!(document["hooks"]["BeforeTool"][0]["type"], "command");
        assert!(document["hooks"]["BeforeTool"][0]["bash"].is_string());
        assert_eq!(document["version"], 1);
    }
}
