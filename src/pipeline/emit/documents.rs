//! The hosts' own hook documents and plugin manifests, built from the plan. Shapes come from the
//! host tables (`documentFormat`, `manifestPointsToDocument`); key order is sorted by serde_json's
//! map, events and groups follow the canonical event order and hook ids, so bytes are stable.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::assembly::{Assembly, Producer};
use crate::artifact::{ArtifactFile, ManifestHost};
use crate::hosts::layout::{self, Role};
use crate::hosts::{self, DocumentFormat, HookSurface, MetadataKey, WindowsForm};
use crate::pipeline::PluginInfo;
use crate::pipeline::plan::HostCommand;
use crate::vocabulary::target::Target;

/// One command a host runs for one hook.
pub struct DocumentEntry {
    pub native_event: String,
    pub matcher: Option<String>,
    pub timeout_seconds: Option<u32>,
    /// The host's own keys the entry carries besides its command: fail-closed ones (`onFailure:
    /// "block"`, `failClosed: true`) and entry options (`statusMessage`, `async`).
    pub own_keys: Map<String, Value>,
    pub command: HostCommand,
    /// An entry that calls a tool of the plugin's MCP server instead of running a command (`mcp_tool`):
    /// its keys, written in place of the command's.
    pub call: Option<Map<String, Value>>,
}

/// The keys of an entry that run its command: the command under the table's key, an exec form's
/// arguments, the Windows command under its own key.
fn command_keys(surface: &HookSurface, key: &str, command: &HostCommand) -> Map<String, Value> {
    let mut keys = Map::new();
    keys.insert(key.to_string(), command.command.clone().into());
    if let WindowsForm::Exec { args_key } = &surface.windows.form {
        keys.insert(args_key.clone(), json!(command.args));
    }
    if let Some(windows) = &command.windows {
        keys.insert(windows.key.clone(), windows.command.clone().into());
    }
    keys
}

/// The hook document of one host. `entries` must already be in canonical event, then id, order.
pub fn hook_document(surface: &HookSurface, entries: &[DocumentEntry]) -> Value {
    let mut events: Map<String, Value> = Map::new();
    for entry in entries {
        let group = match surface.document_format {
            DocumentFormat::Grouped => {
                let mut handler = match &entry.call {
                    Some(call) => Value::Object(call.clone()),
                    None => Value::Object(command_keys(surface, "command", &entry.command)),
                };
                if entry.call.is_none() {
                    handler["type"] = "command".into();
                }
                if let Some(timeout) = entry.timeout_seconds {
                    handler["timeout"] = surface.timeout_unit.of(timeout).into();
                }
                for (key, value) in &entry.own_keys {
                    handler[key] = value.clone();
                }
                let mut group = json!({ "hooks": [handler] });
                if let Some(matcher) = &entry.matcher {
                    group["matcher"] = matcher.clone().into();
                }
                group
            }
            DocumentFormat::Flat => {
                let mut flat = match &entry.call {
                    Some(call) => Value::Object(call.clone()),
                    None => Value::Object(command_keys(surface, &surface.entry_command_key, &entry.command)),
                };
                if let (Some(kind), None) = (&surface.entry_type, &entry.call) {
                    flat["type"] = kind.clone().into();
                }
                if let Some(matcher) = &entry.matcher {
                    flat["matcher"] = matcher.clone().into();
                }
                if let Some(timeout) = entry.timeout_seconds {
                    flat[surface.entry_timeout_key.as_str()] = surface.timeout_unit.of(timeout).into();
                }
                for (key, value) in &entry.own_keys {
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

/// One entry of a host's hook document as read back: what [`hook_document`] wrote for a hook.
#[derive(Clone, Debug, PartialEq)]
pub struct WrittenEntry {
    pub native_event: String,
    /// What the entry runs: its command, an exec form's arguments, its Windows command.
    pub command: HostCommand,
    pub matcher: Option<String>,
    /// The timeout as the document writes it, in the table's unit.
    pub timeout: Option<Value>,
    /// The entry's other keys: the host's fail-closed keys.
    pub extra: Map<String, Value>,
}

/// Reads a host's hook document back by the same table that shaped it (the document format, the
/// entry's command, arguments, Windows command and timeout keys). An entry without a command string
/// is skipped.
pub fn read_hook_document(surface: &HookSurface, document: &Value) -> Vec<WrittenEntry> {
    let mut found = Vec::new();
    let Some(events) = document.get("hooks").and_then(Value::as_object) else { return found };
    let args_key = match &surface.windows.form {
        WindowsForm::Exec { args_key } => Some(args_key.as_str()),
        _ => None,
    };
    let windows_key = match &surface.windows.form {
        WindowsForm::OwnKey { key, .. } => Some(key.as_str()),
        _ => None,
    };
    for (event, listed) in events {
        for item in listed.as_array().into_iter().flatten() {
            let matcher = item.get("matcher").and_then(Value::as_str).map(str::to_string);
            let (handlers, command_key, timeout_key, mut known): (Vec<&Value>, &str, &str, Vec<&str>) = match surface
                .document_format
            {
                DocumentFormat::Grouped => {
                    let handlers = item.get("hooks").and_then(Value::as_array).into_iter().flatten().collect();
                    (handlers, "command", "timeout", vec!["type", "command", "timeout"])
                }
                DocumentFormat::Flat => {
                    let (command, timeout) = (surface.entry_command_key.as_str(), surface.entry_timeout_key.as_str());
                    (vec![item], command, timeout, vec!["type", "matcher", command, timeout])
                }
            };
            known.extend(args_key.iter().chain(windows_key.iter()));
            for handler in handlers {
                let Some(command) = handler.get(command_key).and_then(Value::as_str) else { continue };
                let args = args_key
                    .and_then(|key| handler.get(key))
                    .and_then(Value::as_array)
                    .map(|args| args.iter().filter_map(Value::as_str).map(str::to_string).collect())
                    .unwrap_or_default();
                let windows = windows_key.and_then(|key| {
                    let command = handler.get(key)?.as_str()?;
                    Some(crate::pipeline::plan::KeyedCommand { key: key.to_string(), command: command.to_string() })
                });
                let extra = handler
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(key, _)| !known.contains(&key.as_str()))
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect();
                found.push(WrittenEntry {
                    native_event: event.clone(),
                    command: HostCommand { command: command.to_string(), args, windows },
                    matcher: matcher.clone(),
                    timeout: handler.get(timeout_key).cloned(),
                    extra,
                });
            }
        }
    }
    found
}

/// Places each host's hook document (of its `entries`) and plugin manifest, and returns what the
/// artifact manifest records of each host (`mcp_documents`: the hosts that start the shared runtime).
pub(super) fn place(
    files: &mut Assembly,
    plugin: &PluginInfo,
    entries: &BTreeMap<Target, Vec<DocumentEntry>>,
    mcp: &super::mcp::Placed,
    parts: &super::parts::PlacedParts,
    module_hooks: &BTreeMap<Target, Vec<super::module::ModuleHook>>,
) -> BTreeMap<Target, ManifestHost> {
    let mut placed = BTreeMap::new();
    for (target, entries) in entries {
        let table = hosts::table(*target);
        let surface = table.hooks.as_ref().expect("built hosts have hooks");
        let paths = layout::layout().host(*target).expect("built hosts have hooks");
        let host_file = |role| Producer::HostFile { target: *target, role };
        let mut document = hook_document(surface, entries);
        // The hooks module, named relative to the document, when hooks run in it.
        if let Some(module) =
            surface.hooks_module.as_ref().filter(|_| module_hooks.get(target).is_some_and(|h| !h.is_empty()))
        {
            document[module.document_key.as_str()] =
                json!([crate::io::relative_specifier(paths.document, &module.module)]);
        }
        let document = ArtifactFile::new(super::json_bytes(&document));
        files.add(paths.document.to_string(), document, host_file(Role::HookDocument));
        let mut manifest = plugin_manifest(surface, plugin);
        for (key, value) in mcp.manifest_keys.get(target).into_iter().chain(parts.manifest_keys.get(target)).flatten() {
            manifest[key] = value.clone();
        }
        let manifest = ArtifactFile::new(super::json_bytes(&manifest));
        files.add(paths.manifest.to_string(), manifest, host_file(Role::PluginManifest));
        if let Some(module) = paths.entry_module {
            let source = super::wrapper::entry_source(*target)
                .unwrap_or_else(|| panic!("{target} loads {module}: its entry module's text is in ENTRY_SOURCES"));
            let source = ArtifactFile::new(source.as_bytes().to_vec());
            files.add(module.to_string(), source, host_file(Role::EntryModule));
        }
        // A host that runs a file per event (Cline CLI): one for each native event with hooks.
        let natives: BTreeSet<&str> = entries.iter().map(|e| e.native_event.as_str()).collect();
        for (_, file) in paths.hook_files().filter(|(native, _)| natives.contains(native)) {
            let source = ArtifactFile::new(super::CLINE_HOOK_FILE_SOURCE.as_bytes().to_vec());
            files.add(file, source, host_file(Role::HookFile));
        }
        placed.insert(
            *target,
            ManifestHost {
                revision: table.revision.clone(),
                table_digest: hosts::table_digest(*target),
                manifest: paths.manifest.to_string(),
                document: paths.document.to_string(),
                mcp_document: mcp.documents.get(target).cloned(),
                parts: parts.files.get(target).into_iter().flatten().cloned().collect(),
            },
        );
    }
    placed
}

/// Records, for each selected host that another host's plugin serves (Kilo CLI, served by OpenCode's),
/// that plugin's place under the served host's name, with its own table's revision: the artifact is
/// built for it too, and `install` places that plugin where it loads plugins.
pub(super) fn serve(placed: &mut BTreeMap<Target, ManifestHost>, selected: &[Target]) {
    for target in selected {
        let Some(server) = hosts::table(*target).served_by else { continue };
        let Some(served) = placed.get(&server).cloned() else { continue };
        let own = ManifestHost {
            revision: hosts::table(*target).revision.clone(),
            table_digest: hosts::table_digest(*target),
            ..served
        };
        placed.insert(*target, own);
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
    for key in &surface.manifest_metadata {
        match key {
            MetadataKey::Homepage => {
                if let Some(homepage) = &plugin.homepage {
                    manifest["homepage"] = homepage.clone().into();
                }
            }
            MetadataKey::Repository => {
                if let Some(repository) = &plugin.repository {
                    manifest["repository"] = repository.clone().into();
                }
            }
            MetadataKey::Keywords => {
                if !plugin.keywords.is_empty() {
                    manifest["keywords"] = json!(plugin.keywords);
                }
            }
        }
    }
    let interface: Map<String, Value> = plugin
        .interface
        .iter()
        .filter(|(key, _)| surface.manifest_interface.contains_key(*key))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    if !interface.is_empty() {
        manifest["interface"] = Value::Object(interface);
    }
    if surface.manifest_points_to_document {
        manifest["hooks"] = format!("./{}", surface.document).into();
    }
    for (key, value) in &surface.manifest_fields {
        manifest[key] = value.clone();
    }
    manifest
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Install tells a copy of agent-bundle's hook file from anyone else's by its first line.
    #[test]
    fn the_hook_file_starts_with_the_marker_install_tells_it_by() {
        let Ok(hosts::distribution::Install::Folder(folder)) =
            hosts::distribution::distribution(Target::Cline).unwrap().install.supported()
        else {
            panic!("Cline CLI installs into a folder")
        };
        let marker = &folder.hook_files.as_ref().expect("its hook files are shared").marker;
        let source = super::super::CLINE_HOOK_FILE_SOURCE;
        assert!(source.starts_with(marker.as_str()), "{marker:?}");
        assert_eq!(source.matches(marker.as_str()).count(), 1);
    }

    fn entry(timeout_seconds: Option<u32>) -> DocumentEntry {
        DocumentEntry {
            native_event: "BeforeTool".into(),
            matcher: Some("^(?:run_shell_command)$".into()),
            timeout_seconds,
            own_keys: Map::new(),
            command: HostCommand { command: "node \"${extensionPath}/hooks/x.mjs\"".into(), ..HostCommand::default() },
            call: None,
        }
    }

    #[test]
    fn every_host_document_reads_back_as_it_was_written() {
        for table in hosts::tables().iter().filter(|t| t.has_hooks()) {
            let surface = table.hooks.as_ref().unwrap();
            let mut fail_closed = entry(Some(10));
            fail_closed.own_keys = Map::from_iter([("failClosed".to_string(), Value::Bool(true))]);
            let mut open = entry(None);
            open.native_event = "Stop".into();
            open.matcher = None;
            let document = hook_document(surface, &[fail_closed, open]);
            let read = read_hook_document(surface, &document);
            assert_eq!(read.len(), 2, "{}: {document}", table.target);
            assert_eq!(read[0].native_event, "BeforeTool");
            assert_eq!(read[0].command.command, "node \"${extensionPath}/hooks/x.mjs\"");
            assert_eq!(read[0].matcher.as_deref(), Some("^(?:run_shell_command)$"));
            assert_eq!(read[0].timeout, Some(surface.timeout_unit.of(10).into()), "{}", table.target);
            assert_eq!(read[0].extra, Map::from_iter([("failClosed".to_string(), Value::Bool(true))]));
            assert_eq!((read[1].matcher.as_ref(), read[1].timeout.as_ref()), (None, None));
            assert!(read[1].extra.is_empty(), "{}: {:?}", table.target, read[1].extra);
        }
    }

    /// `homepage`, `repository` and `keywords` reach the manifests whose model has them, and no other.
    #[test]
    fn descriptive_keys_reach_only_the_manifests_that_carry_them() {
        let plugin = PluginInfo {
            name: "p".into(),
            name_from_folder: false,
            description: None,
            version: None,
            author: None,
            license: None,
            homepage: Some("https://example.com".into()),
            repository: Some("https://example.com/repo".into()),
            keywords: vec!["a".into(), "b".into()],
            interface: Default::default(),
            files: Default::default(),
        };
        let manifest = |target| plugin_manifest(hosts::table(target).hooks.as_ref().unwrap(), &plugin);
        let claude = manifest(Target::Claude);
        assert_eq!(
            (&claude["homepage"], &claude["repository"]),
            (&json!("https://example.com"), &json!("https://example.com/repo"))
        );
        assert_eq!(claude["keywords"], json!(["a", "b"]));
        let codex = manifest(Target::Codex);
        assert_eq!(codex["keywords"], json!(["a", "b"]));
        assert!(codex.get("homepage").is_none() && codex.get("repository").is_none(), "{codex}");
        let gemini = manifest(Target::Gemini);
        assert!(gemini.get("keywords").is_none() && gemini.get("homepage").is_none(), "{gemini}");
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
