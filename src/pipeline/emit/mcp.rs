//! The hosts' MCP documents: the plugin's own servers (`mcpServers`, as the plan places them) and the
//! shared runtime's server, merged into one object per document; a document that is the plugin
//! manifest (Gemini's and Qwen's extension manifests) is handed to [`super::documents`] instead, as
//! is a manifest's pointer at a document of its own (Codex's, Copilot's, Cursor's `mcpServers`). A
//! module server's bundle is copied into the folder of a host that has one.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::assembly::{Assembly, Producer};
use crate::artifact::ArtifactFile;
use crate::hosts::layout::{self, Role};
use crate::pipeline::Bundle;
use crate::pipeline::bundle::Bundled;
use crate::pipeline::normalise::mcp::McpServerSpec;
use crate::pipeline::plan::mcp::McpDelivery;
use crate::vocabulary::target::Target;

/// One MCP document's servers: the key of their object there, and each server's entry by name.
type Servers = (String, Map<String, Value>);

/// What [`place`] leaves to the manifests and the artifact manifest.
#[derive(Default)]
pub(super) struct Placed {
    /// Per host, keys its plugin manifest gains: the servers themselves, or a pointer at their file.
    pub manifest_keys: BTreeMap<Target, Map<String, Value>>,
    /// Per host, the file that lists its MCP servers (for the artifact manifest).
    pub documents: BTreeMap<Target, String>,
    /// The hosts' own folders a module server's bundle was copied into: they need the packages
    /// shipped whole there too.
    pub folders: std::collections::BTreeSet<String>,
}

/// Places every host's MCP servers among `hosts`: the shared runtime's (`shared`: its document path,
/// name and entry per host) and the plugin's own.
pub(super) fn place(
    files: &mut Assembly,
    bundle: &Bundle,
    bundled: &Bundled,
    hosts: &[Target],
    shared: BTreeMap<Target, (String, String, Value)>,
) -> Placed {
    // Per host, per document: the key of the servers' object and the servers.
    let mut documents: BTreeMap<Target, BTreeMap<String, Servers>> = BTreeMap::new();
    let mut copied = std::collections::BTreeSet::new();
    for (target, (path, name, entry)) in shared {
        let (_, servers) =
            documents.entry(target).or_default().entry(path).or_insert_with(|| ("mcpServers".to_string(), Map::new()));
        servers.insert(name, entry);
    }
    for plan in &bundle.mcp {
        let Some(server) = bundle.normalised.mcp_servers.iter().find(|s| s.name == plan.server) else { continue };
        for planned in &plan.targets {
            let (target, delivery) = (&planned.target, &planned.delivery);
            let McpDelivery::Placed { document, key, entry, .. } = delivery else { continue };
            if !hosts.contains(target) {
                continue;
            }
            let mut entry = entry.clone();
            if let McpServerSpec::Module { module, .. } = &server.spec {
                let Some(built) = bundled.handlers.get(module) else { continue };
                let table = crate::hosts::table(*target);
                let surface = table.hooks.as_ref().expect("placed only for hosts with hooks");
                let mcp = surface.plugin_mcp.supported().expect("placed only where the host takes servers");
                if let Some(folder) = &surface.folder {
                    copied.insert(folder.clone());
                    super::bundles::place_loaded_copy(files, bundled, folder, &built.path);
                    for chunk in &built.chunks {
                        super::bundles::place_loaded_copy(files, bundled, folder, chunk);
                    }
                }
                // Where the host expands no root in `args`, the plan starts the server in the root.
                let bundle_arg = Value::String(if mcp.root_expanded_in.contains(&crate::hosts::RootPlace::Args) {
                    format!("{}/{}", mcp.root_token, built.path)
                } else {
                    format!("./{}", built.path)
                });
                if let Some(Value::Array(args)) = entry.get_mut("args") {
                    args.insert(0, bundle_arg);
                }
            }
            let (_, servers) = documents
                .entry(*target)
                .or_default()
                .entry(document.clone())
                .or_insert_with(|| (key.clone(), Map::new()));
            servers.insert(server.name.clone(), entry);
        }
    }
    let mut placed = Placed { folders: copied, ..Placed::default() };
    for (target, by_document) in documents {
        let paths = layout::layout().host(target).expect("built hosts have hooks");
        let surface = crate::hosts::table(target).hooks.as_ref().expect("built hosts have hooks");
        for (document, (key, servers)) in by_document {
            placed.documents.insert(target, document.clone());
            if document == paths.manifest {
                placed.manifest_keys.entry(target).or_default().insert(key, Value::Object(servers));
                continue;
            }
            let mut object = Map::new();
            object.insert(key, Value::Object(servers));
            let bytes = super::json_bytes(&Value::Object(object));
            files.add(
                document.clone(),
                ArtifactFile::new(bytes),
                Producer::HostFile { target, role: Role::McpDocument },
            );
            if let Some(pointer) = surface.plugin_mcp.supported().ok().and_then(|m| m.manifest_pointer.as_ref()) {
                let root = surface.folder.as_deref().map_or(String::new(), |f| format!("{f}/"));
                let relative = document.strip_prefix(&root).unwrap_or(&document);
                placed.manifest_keys.entry(target).or_default().insert(pointer.clone(), format!("./{relative}").into());
            }
        }
    }
    placed
}
