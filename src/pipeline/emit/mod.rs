//! Emitting: from a planned bundle to the bytes of every file of the composite plugin folder
//! (D4 in docs/decisions.md). Nothing here touches the disk except through [`Disk`] reads of sources; the
//! result is a map of artifact paths to bytes that the I/O layer writes in one step.

mod assembly;
mod documents;
mod shared;
mod wrapper;

use std::collections::BTreeMap;

use camino::Utf8Path;

pub use documents::{DocumentEntry, hook_document, plugin_manifest, read_hook_document};
pub use wrapper::{RUNTIME_PATH, RUNTIME_SOURCE, contract, starts_child_processes, wrapper_source};

use crate::artifact::{
    ArtifactFile, ArtifactManifest, IndexRow, MANIFEST_PATH, MANIFEST_SCHEMA, ManifestHost, ManifestPlugin,
    file_records, generator, manifest_bytes,
};
use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::hosts;
use crate::hosts::layout::{self, Role};
use crate::io::stamp::InputSet;
use crate::io::tree::Decision;
use crate::io::{Disk, lexical_join};
use crate::pipeline::Bundle;
use crate::pipeline::bundle::{BundleStats, GITIGNORE_PATH, HandlerEntry, SHIPPED_DIR, bundle_handlers, display_path};
use crate::pipeline::normalise::Handler;
use crate::pipeline::plan::Delivery;
use crate::vocabulary::source::SourceFile;
use crate::vocabulary::target::Target;
use assembly::{Assembly, Producer};

/// A built artifact, in memory.
#[derive(Debug)]
pub struct Emitted {
    /// Every file, by artifact-relative path, the manifest included.
    pub files: BTreeMap<String, ArtifactFile>,
    pub manifest: ArtifactManifest,
    /// Per hook id, what it was built from with a digest of each (for `--explain`): the bundle's own
    /// files by root-relative path, packages as `npm:<name>@<version>`.
    pub inputs: BTreeMap<String, BTreeMap<String, String>>,
    /// Per hook id, the artifact files its build produced besides its wrappers (its bundle and map).
    pub products: BTreeMap<String, Vec<String>>,
    /// Every file and folder bundling read, by absolute path, with stamps and digests.
    pub read: InputSet,
    pub stats: BundleStats,
}

/// What emitting produced: the artifact in memory unless something failed, and the source files the
/// diagnostics point into (handler modules, for their labels).
#[derive(Debug)]
pub struct Emission {
    pub emitted: Option<Emitted>,
    pub sources: Vec<SourceFile>,
}

/// Emits the artifact of `bundle` for `hosts` (the config's targets, narrowed by `--target`).
/// `root` is the canonical bundle root and `output` the canonical output folder.
pub fn emit(
    bundle: &Bundle,
    root: &Utf8Path,
    hosts: &[Target],
    output: &Utf8Path,
    disk: &dyn Disk,
    cache: Option<&crate::io::CacheStore>,
) -> Staged<Emission> {
    let mut diagnostics = Vec::new();
    let hosts: Vec<Target> = hosts.iter().copied().filter(|t| hosts::table(*t).has_hooks()).collect();

    let shipped_payloads: Vec<_> =
        bundle.normalised.payloads.iter().filter(|p| p.targets.iter().any(|t| hosts.contains(t))).collect();
    let mut copied_payloads = Vec::new();
    for payload in &shipped_payloads {
        let source = lexical_join(root, &payload.source);
        let present = disk.is_dir(&source);
        if !present {
            diagnostics.push(messages::payload_missing_at_build(&payload.name, &payload.source));
        }
        let overlaps = source.starts_with(output) || output.starts_with(&source);
        if overlaps {
            diagnostics.push(messages::payload_overlaps_output(&payload.name, &payload.source, output.as_str()));
        }
        if present && !overlaps {
            copied_payloads.push(*payload);
        }
    }

    // Hooks in document order (canonical event, then id), each with the hosts it reaches.
    let mut hooks: Vec<_> = bundle.normalised.hooks.iter().collect();
    hooks.sort_by(|a, b| (a.event, &a.id).cmp(&(b.event, &b.id)));
    let reached = |hook_id: &str| crate::pipeline::plan::delivered(&bundle.plans, hook_id, &hosts);

    let mut modules: Vec<HandlerEntry> = Vec::new();
    for hook in &hooks {
        if reached(&hook.id).is_empty() {
            continue;
        }
        match &hook.handler {
            Handler::Module { path } if !modules.iter().any(|m| &m.path == path) => {
                modules.push(HandlerEntry { path: path.clone(), declared_at: hook.declared_at.clone() })
            }
            Handler::Prebuilt { path, .. } if !disk.is_file(&lexical_join(root, path)) => {
                diagnostics.push(messages::prebuilt_missing_at_build(path, &hook.declared_at))
            }
            _ => {}
        }
    }
    let normalised = &bundle.normalised;
    let mut bundled = bundle_handlers(root, &modules, &normalised.external, normalised.keep_outside_links, cache);
    let sources = std::mem::take(&mut bundled.sources);
    diagnostics.append(&mut bundled.diagnostics);
    // Payloads are judged even when bundling failed, so that one build reports both.
    let (payload_copies, payload_reads, payload_diagnostics) = copy_payloads(&copied_payloads, &hosts, root, disk);
    diagnostics.extend(payload_diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Staged { value: Emission { emitted: None, sources }, diagnostics };
    }

    // The shared runtime's epoch, when a route renders in the plugin's MCP server on some host.
    let any_shared = hooks.iter().any(|hook| {
        reached(&hook.id).iter().any(|(_, delivery)| matches!(delivery, Delivery::Native { shared: true, .. }))
    });
    let epoch = any_shared
        .then(|| shared::epoch(&generator(), bundled.handlers.values().map(|h| (h.path.as_str(), h.code.as_bytes()))));
    let mut shared_routes: Vec<shared::SharedRoute> = Vec::new();
    let mut shared_hosts: Vec<Target> = Vec::new();

    let mut files = Assembly::default();
    for (path, file) in std::mem::take(&mut bundled.shipped.files) {
        files.add(path, file, Producer::Shipped);
    }
    let mut read = std::mem::take(&mut bundled.shipped.inputs);
    read.extend(&payload_reads);
    let bundle_of = |handler: &str| Producer::Bundle { handler: handler.to_string() };
    for (source, handler) in &bundled.handlers {
        files.add(handler.path.clone(), ArtifactFile::new(handler.code.as_bytes().to_vec()), bundle_of(source));
        files.add(handler.map_path(), ArtifactFile::new(handler.map.as_bytes().to_vec()), bundle_of(source));
        read.extend(&handler.inputs);
    }
    let mut index = Vec::new();
    let mut inputs = BTreeMap::new();
    let mut folders: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut products = BTreeMap::new();
    let mut entries: BTreeMap<Target, Vec<DocumentEntry>> = hosts.iter().map(|t| (*t, Vec::new())).collect();
    for hook in &hooks {
        for (target, delivery) in reached(&hook.id) {
            let Delivery::Native {
                native_event,
                matcher,
                timeout_seconds,
                effective_timeout_seconds,
                fail_closed,
                wrapper,
                command,
                shared,
                route_budget,
                ..
            } = delivery
            else {
                continue;
            };
            let table = hosts::table(target);
            match &hook.handler {
                Handler::Module { path } => {
                    let file = wrapper.clone().expect("a handler module has a wrapper");
                    let mapping = table.mapping(hook.event).expect("planned events are supported");
                    let handler = &bundled.handlers[path];
                    let fallback = hook.shared.as_ref().is_some_and(|s| s.fallback);
                    let shared_facts =
                        (*shared).then(|| (epoch.as_deref().expect("an epoch when routes share"), fallback));
                    let contract =
                        contract(hook, table, mapping, delivery, starts_child_processes(&handler.code), shared_facts);
                    if *shared && let Some(family) = hook.event.route() {
                        let position = shared_routes.iter().position(|r| r.family == family.name);
                        let route = match position {
                            Some(index) => &mut shared_routes[index],
                            None => {
                                shared_routes.push(shared::SharedRoute {
                                    family: family.name,
                                    handler: relative_specifier(
                                        &shared::entry_path(&bundle.plugin.name),
                                        &handler.path,
                                    ),
                                    contracts: Vec::new(),
                                });
                                shared_routes.last_mut().expect("just pushed")
                            }
                        };
                        route.contracts.push((target.name().to_string(), contract.clone()));
                        if !shared_hosts.contains(&target) {
                            shared_hosts.push(target);
                        }
                    }
                    // A host with a folder of its own gets its own copy of the bundle (and of the
                    // runtime, below): its plugin is that folder, installed without the rest.
                    let folder = layout::layout().host(target).and_then(|paths| paths.folder);
                    let bundle_path = match folder {
                        Some(folder) => {
                            let copy = format!("{folder}/{}", handler.path);
                            let (code, map) = (handler.code.as_bytes(), handler.map.as_bytes());
                            files.add(copy.clone(), ArtifactFile::new(code.to_vec()), bundle_of(path));
                            files.add(format!("{copy}.map"), ArtifactFile::new(map.to_vec()), bundle_of(path));
                            folders.insert(folder.to_string());
                            copy
                        }
                        None => handler.path.clone(),
                    };
                    let specifier = relative_specifier(&file, &bundle_path);
                    let source = wrapper_source(hook, table, mapping, &contract, &specifier, &generator());
                    let producer = Producer::Wrapper { hook: hook.name.clone(), target };
                    files.add(file.clone(), ArtifactFile::new(source.into_bytes()), producer);
                    index.push(IndexRow {
                        host: target,
                        id: hook.id.clone(),
                        name: hook.name.clone(),
                        event: hook.event,
                        native_event: native_event.clone(),
                        matcher: matcher.clone(),
                        timeout: *timeout_seconds,
                        effective_timeout: *effective_timeout_seconds,
                        fail_closed: fail_closed.is_some(),
                        path: file.clone(),
                        shared_runtime: shared.then(|| shared::entry_path(&bundle.plugin.name)),
                        route_budget_ms: route_budget.map(|budget| budget.ms),
                    });
                    inputs.insert(hook.id.clone(), handler.summary.clone());
                    let hook_products = products.entry(hook.id.clone()).or_insert_with(Vec::new);
                    for product in
                        [handler.path.clone(), handler.map_path(), bundle_path.clone(), format!("{bundle_path}.map")]
                    {
                        if !hook_products.contains(&product) {
                            hook_products.push(product);
                        }
                    }
                }
                Handler::Prebuilt { path, .. } => {
                    let absolute = lexical_join(root, path);
                    let (recorded, _) = crate::io::stamp::Recorded::read_file(&absolute);
                    inputs.insert(hook.id.clone(), BTreeMap::from([(path.clone(), recorded.sha256.clone())]));
                    read.files.insert(absolute.to_string(), recorded);
                }
            }
            entries.get_mut(&target).expect("every host has a list").push(DocumentEntry {
                native_event: native_event.clone(),
                matcher: matcher.clone(),
                timeout_seconds: *timeout_seconds,
                fail_closed_entry: fail_closed.as_ref().and_then(|how| how.entry.clone()),
                command: command.clone(),
            });
        }
    }
    let runtime = || ArtifactFile::new(RUNTIME_SOURCE.as_bytes().to_vec());
    if !index.is_empty() {
        files.add(RUNTIME_PATH.to_string(), runtime(), Producer::Runtime);
    }
    for folder in &folders {
        files.add(format!("{folder}/{RUNTIME_PATH}"), runtime(), Producer::Runtime);
        // Packages shipped whole, where that folder's bundles import them from.
        let shipped: Vec<(String, ArtifactFile, Producer)> = files
            .entries()
            .filter(|(path, _, _)| {
                path.strip_prefix(SHIPPED_DIR).is_some_and(|rest| rest.starts_with('/'))
                    || path.as_str() == GITIGNORE_PATH
            })
            .map(|(path, file, producer)| (format!("{folder}/{path}"), file.clone(), producer.clone()))
            .collect();
        for (path, file, producer) in shipped {
            files.add(path, file, producer);
        }
    }
    let mut mcp_documents: BTreeMap<Target, String> = BTreeMap::new();
    if let Some(epoch) = &epoch {
        let plugin = &bundle.plugin;
        let version = plugin.version.as_deref().unwrap_or("0.0.0");
        let server = ArtifactFile::new(shared::SERVER_SOURCE.as_bytes().to_vec());
        files.add(shared::SERVER_PATH.to_string(), server, Producer::SharedServer);
        let entry = shared::server_entry(&plugin.name, version, epoch, &shared_routes, &generator());
        files.add(shared::entry_path(&plugin.name), ArtifactFile::new(entry.into_bytes()), Producer::SharedServer);
        for target in &shared_hosts {
            let surface = hosts::table(*target).hooks.as_ref().expect("built hosts have hooks");
            let document = surface.mcp_server.supported().expect("shared deliveries only where a server is hosted");
            let path = layout::layout().host(*target).and_then(|paths| paths.mcp_document).expect("a hosted server");
            files.add(
                path.to_string(),
                ArtifactFile::new(json_bytes(&shared::mcp_document(&plugin.name, document))),
                Producer::HostFile { target: *target, role: Role::McpDocument },
            );
            mcp_documents.insert(*target, path.to_string());
        }
    }

    let mut manifest_hosts = BTreeMap::new();
    for (target, entries) in &entries {
        let table = hosts::table(*target);
        let surface = table.hooks.as_ref().expect("built hosts have hooks");
        let paths = layout::layout().host(*target).expect("built hosts have hooks");
        let host_file = |role| Producer::HostFile { target: *target, role };
        let document = ArtifactFile::new(json_bytes(&hook_document(surface, entries)));
        files.add(paths.document.to_string(), document, host_file(Role::HookDocument));
        let manifest = ArtifactFile::new(json_bytes(&plugin_manifest(surface, &bundle.plugin)));
        files.add(paths.manifest.to_string(), manifest, host_file(Role::PluginManifest));
        manifest_hosts.insert(
            *target,
            ManifestHost {
                revision: table.revision.clone(),
                table_digest: hosts::table_digest(*target),
                manifest: paths.manifest.to_string(),
                document: paths.document.to_string(),
                mcp_document: mcp_documents.get(target).cloned(),
            },
        );
    }

    // The plugin's README, license file and icon: what a plugin directory shows next to the hooks.
    let icon_paths: Vec<&str> = hosts.iter().filter_map(|t| layout::layout().host(*t)?.icon).collect();
    for (source, destination) in bundle.plugin.files.placed(&icon_paths) {
        let absolute = root.join(source);
        let (recorded, bytes) = crate::io::stamp::Recorded::read_file(&absolute);
        match bytes {
            Some(bytes) => {
                let producer = Producer::PluginFile { source: source.to_string() };
                files.add(destination.to_string(), ArtifactFile::new(bytes), producer);
                read.files.insert(absolute.to_string(), recorded);
            }
            None => diagnostics.push(messages::payload_missing_at_build("plugin", source)),
        }
    }

    for copy in payload_copies {
        for destination in &copy.destinations {
            files.check_payload_folder(destination, &copy.name);
        }
        let producer = Producer::Payload { name: copy.name.clone() };
        for (path, file) in copy.files {
            files.add(path, file, producer.clone());
        }
    }
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Staged { value: Emission { emitted: None, sources }, diagnostics };
    }

    // The manifest lists every other file; it is added last, through the same check.
    let records = file_records(files.entries().map(|(path, file, _)| (path, file)));
    index.sort_by(|a, b| (a.host, &a.id).cmp(&(b.host, &b.id)));
    let manifest = ArtifactManifest {
        schema: MANIFEST_SCHEMA,
        generator: generator(),
        plugin: ManifestPlugin {
            name: bundle.plugin.name.clone(),
            description: bundle.plugin.description.clone(),
            version: bundle.plugin.version.clone(),
            author: bundle.plugin.author.as_ref().map(|a| serde_json::to_value(a).expect("authors serialise")),
        },
        hosts: manifest_hosts,
        hooks: index,
        shipped: std::mem::take(&mut bundled.shipped.packages),
        files: records,
    };
    files.add(MANIFEST_PATH.to_string(), ArtifactFile::new(manifest_bytes(&manifest)), Producer::Manifest);
    let files = match files.finish() {
        Ok(files) => files,
        Err(collisions) => {
            diagnostics.extend(collisions);
            return Staged { value: Emission { emitted: None, sources }, diagnostics };
        }
    };
    let emitted = Emitted { files, manifest, inputs, products, read, stats: bundled.stats };
    Staged { value: Emission { emitted: Some(emitted), sources }, diagnostics }
}

/// Copies payloads as they are, modes exactly, from inside the bundle root and its node_modules
/// only: a link leading outside is refused (AB4752), or kept as a link when the payload says
/// `keepOutsideLinks`. Each goes to its name and to the folder of each of its `hosts` that has one.
fn copy_payloads(
    payloads: &[&crate::pipeline::normalise::Payload],
    hosts: &[Target],
    root: &Utf8Path,
    disk: &dyn Disk,
) -> (Vec<PayloadCopy>, InputSet, Vec<Diagnostic>) {
    let mut copies = Vec::new();
    let mut read = InputSet::default();
    let mut diagnostics = Vec::new();
    let within = crate::io::tree::confinement(root, disk);
    for payload in payloads {
        // Hosts with a folder of their own find the payload there (their commands are relative to it).
        let mut destinations: Vec<String> = vec![payload.name.clone()];
        for target in payload.targets.iter().filter(|t| hosts.contains(t)) {
            if let Some(folder) = layout::layout().host(*target).and_then(|paths| paths.folder) {
                let destination = format!("{folder}/{}", payload.name);
                if !destinations.contains(&destination) {
                    destinations.push(destination);
                }
            }
        }
        let mut files = BTreeMap::new();
        let source = lexical_join(root, &payload.source);
        let walked = match disk.walk_tree(&source, &within, &|_, _| Decision::Ship) {
            Ok(walked) => walked,
            Err(error) => {
                let detail = format!("{} ({error})", payload.source);
                diagnostics.push(messages::payload_missing_at_build(&payload.name, &detail));
                continue;
            }
        };
        for file in &walked.files {
            let (recorded, content) = crate::io::stamp::Recorded::read_file_with_mode(&file.real);
            let Some((bytes, mode)) = content else {
                let detail = format!("{}/{} (it cannot be read)", payload.source, file.path);
                diagnostics.push(messages::payload_missing_at_build(&payload.name, &detail));
                continue;
            };
            for destination in &destinations {
                files.insert(format!("{destination}/{}", file.path), ArtifactFile::with_mode(bytes.clone(), mode));
            }
            read.files.insert(file.real.to_string(), recorded);
        }
        for link in &walked.outside {
            let shown = display_path(root, &link.at);
            if payload.keep_outside_links {
                for destination in &destinations {
                    files.insert(format!("{destination}/{}", link.path), ArtifactFile::symlink(&link.target));
                }
                read.files.insert(link.at.to_string(), crate::io::stamp::Recorded::read_link(&link.at));
            } else {
                diagnostics.push(messages::payload_link_outside(
                    &payload.name,
                    &payload.source,
                    shown.as_str(),
                    &link.target,
                    &payload.declared_at,
                ));
            }
        }
        for link in &walked.broken {
            let shown = display_path(root, &link.at);
            diagnostics.push(messages::payload_link_broken(&payload.name, shown.as_str(), &link.target));
        }
        for folder in &walked.dirs {
            read.dirs.insert(folder.to_string(), crate::io::stamp::Recorded::read_dir(folder));
        }
        copies.push(PayloadCopy { name: payload.name.clone(), destinations, files });
    }
    (copies, read, diagnostics)
}

/// One payload's files at each of its destinations.
struct PayloadCopy {
    name: String,
    destinations: Vec<String>,
    files: BTreeMap<String, ArtifactFile>,
}

/// The import specifier leading from one artifact file to another (`./x.mjs`, `../lib/y.mjs`).
pub fn relative_specifier(from_file: &str, to_file: &str) -> String {
    let from_dirs: Vec<&str> = from_file.split('/').collect::<Vec<_>>()[..from_file.split('/').count() - 1].to_vec();
    let to_parts: Vec<&str> = to_file.split('/').collect();
    let common = from_dirs.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    let ups = from_dirs.len() - common;
    let rest = to_parts[common..].join("/");
    if ups == 0 { format!("./{rest}") } else { format!("{}{rest}", "../".repeat(ups)) }
}

/// Pretty JSON with sorted keys and a final newline: what every generated document looks like.
pub fn json_bytes(value: &serde_json::Value) -> Vec<u8> {
    let mut text = crate::vocabulary::json::pretty(value);
    text.push('\n');
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_specifiers_between_artifact_files() {
        assert_eq!(relative_specifier("hooks/x.claude.mjs", "hooks/handlers/src/a.mjs"), "./handlers/src/a.mjs");
        assert_eq!(relative_specifier("hooks/handlers/src/a.mjs", "hooks/handlers/lib/b.mjs"), "../lib/b.mjs");
    }

    /// A payload on every name the layout reserves (read from it, so a new host's folder is covered
    /// by itself), slipped past normalising: emit refuses it, naming the payload and the owner, and
    /// writes nothing.
    #[test]
    fn emit_refuses_a_payload_on_any_name_of_the_layout() {
        let disk = crate::io::RealDisk;
        let root = disk.canonicalize(Utf8Path::new("testdata/bundles/ported-guards")).unwrap();
        let loaded = crate::pipeline::load(&root, &disk);
        let bundle = loaded.bundle.expect("the bundle loads");
        let hosts = bundle.normalised.targets.clone();
        assert!(hosts.contains(&Target::Gemini), "a host with a folder of its own is built");
        let temp = tempfile::tempdir().unwrap();
        let temp = camino::Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
        let cache = crate::io::CacheStore::new(temp.join("cache"));
        let clean = emit(&bundle, &root, &hosts, &temp.join("artifact"), &disk, Some(&cache));
        assert!(clean.value.emitted.is_some(), "{:?}", clean.diagnostics);
        for name in layout::layout().reserved_names() {
            let mut bundle = bundle.clone();
            let payload = crate::pipeline::normalise::Payload {
                name: name.clone(),
                source: "src".into(),
                targets: hosts.clone(),
                keep_outside_links: false,
                declared_at: crate::vocabulary::source::Location {
                    file: "agent-bundle.config.ts".into(),
                    line: 1,
                    column: 1,
                    span: Default::default(),
                },
            };
            bundle.normalised.payloads.push(payload);
            let staged = emit(&bundle, &root, &hosts, &temp.join("artifact"), &disk, Some(&cache));
            assert!(staged.value.emitted.is_none(), "payload `{name}` was emitted");
            let collisions: Vec<&str> = staged
                .diagnostics
                .iter()
                .filter(|d| d.code == crate::diagnostic::Code::ArtifactPathCollision)
                .map(|d| d.message.as_str())
                .collect();
            assert!(!collisions.is_empty(), "payload `{name}`: {:?}", staged.diagnostics);
            for claim in layout::layout().claims_on_name(&name) {
                let owner = claim.owner.to_string();
                assert!(
                    collisions.iter().any(|m| m.contains(&owner) && m.contains(&format!("payload `{name}`"))),
                    "payload `{name}` vs {owner}: {collisions:?}"
                );
            }
        }
    }
}
