//! Emitting: from a planned bundle to the bytes of every file of the composite plugin folder
//! (DECISIONS D4). Nothing here touches the disk except through [`Disk`] reads of sources; the
//! result is a map of artifact paths to bytes that the I/O layer writes in one step.

mod documents;
mod wrapper;

use std::collections::BTreeMap;

use camino::Utf8Path;

pub use documents::{DocumentEntry, hook_document, node_command, plugin_manifest};
pub use wrapper::{RUNTIME_PATH, RUNTIME_SOURCE, contract, deadline_ms, wrapper_source};

use crate::artifact::{
    ArtifactManifest, IndexRow, MANIFEST_PATH, MANIFEST_SCHEMA, ManifestHost, ManifestPlugin, file_records,
    manifest_bytes,
};
use crate::compile::{HandlerEntry, compile_handlers, relative_specifier};
use crate::diagnostic::{Diagnostic, messages};
use crate::engine::Bundle;
use crate::hosts;
use crate::io::{Disk, lexical_join};
use crate::normalise::Handler;
use crate::plan::Delivery;
use crate::source::SourceFile;
use crate::target::Target;

/// The name and version written into generated files.
pub fn generator() -> String {
    format!("agent-bundle {}", env!("CARGO_PKG_VERSION"))
}

/// The version and a fingerprint of this build's own sources: what cache keys use, so a cache is
/// never shared between two different builds of the compiler.
pub fn compiler_fingerprint() -> String {
    format!("{} ({})", generator(), env!("AGENT_BUNDLE_SOURCE_FINGERPRINT"))
}

/// A built artifact, in memory.
#[derive(Debug)]
pub struct Emitted {
    /// Every file, by artifact-relative path, the manifest included.
    pub files: BTreeMap<String, Vec<u8>>,
    pub manifest: ArtifactManifest,
    /// Per hook id, every source it was built from with the SHA-256 of its bytes (for `--explain`
    /// and `rerun-if-changed`).
    pub inputs: BTreeMap<String, BTreeMap<String, String>>,
    pub stats: crate::compile::CompileStats,
    /// The npm package folders carried into the artifact, with the digest of their carried files.
    pub package_digests: BTreeMap<camino::Utf8PathBuf, String>,
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
) -> (Option<Emitted>, Vec<Diagnostic>, Vec<SourceFile>) {
    let mut diagnostics = Vec::new();
    let hosts: Vec<Target> = hosts.iter().copied().filter(|t| hosts::table(*t).has_hooks()).collect();

    let shipped_payloads: Vec<_> =
        bundle.normalised.payloads.iter().filter(|p| p.targets.iter().any(|t| hosts.contains(t))).collect();
    for payload in &shipped_payloads {
        let source = lexical_join(root, &payload.source);
        if !disk.is_dir(&source) {
            diagnostics.push(messages::payload_missing_at_build(&payload.name, &payload.source));
        }
        if source.starts_with(output) || output.starts_with(&source) {
            diagnostics.push(messages::payload_overlaps_output(&payload.name, &payload.source, output.as_str()));
        }
    }

    // Hooks in document order (canonical event, then id), each with the hosts it reaches.
    let mut hooks: Vec<_> = bundle.normalised.hooks.iter().collect();
    hooks.sort_by(|a, b| (a.event, &a.id).cmp(&(b.event, &b.id)));
    let reached = |hook_id: &str| crate::plan::delivered(&bundle.plans, hook_id, &hosts);

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
    let (mut compiled, compile_diagnostics) = compile_handlers(root, &modules, disk, cache);
    let sources = std::mem::take(&mut compiled.sources);
    diagnostics.extend(compile_diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return (None, diagnostics, sources);
    }

    let mut files = std::mem::take(&mut compiled.files);
    let mut index = Vec::new();
    let mut inputs = BTreeMap::new();
    let mut entries: BTreeMap<Target, Vec<DocumentEntry>> = hosts.iter().map(|t| (*t, Vec::new())).collect();
    for hook in &hooks {
        let reached = reached(&hook.id);
        for &(target, delivery) in &reached {
            let Delivery::Native { native_event, matcher, timeout_seconds, .. } = delivery else { continue };
            let table = hosts::table(target);
            let command = match &hook.handler {
                Handler::Module { path } => {
                    let file = wrapper_path(hook, target, reached.len());
                    let mapping = table.event(hook.event).expect("planned events are supported");
                    let contract = contract(hook, table, mapping, *timeout_seconds);
                    let specifier = relative_specifier(&file, &compiled.entries[path]);
                    let source = wrapper_source(hook, table, mapping, &contract, &specifier, &generator());
                    files.insert(file.clone(), source.into_bytes());
                    index.push(IndexRow {
                        host: target,
                        id: hook.id.clone(),
                        name: hook.name.clone(),
                        event: hook.event,
                        native_event: native_event.clone(),
                        matcher: matcher.clone(),
                        timeout: *timeout_seconds,
                        path: file.clone(),
                    });
                    inputs.insert(hook.id.clone(), compiled.inputs[path].clone());
                    host_command(hook, target, reached.len())
                }
                Handler::Prebuilt { path, .. } => {
                    let bytes = disk.read(&lexical_join(root, path)).unwrap_or_default();
                    inputs.insert(hook.id.clone(), BTreeMap::from([(path.clone(), crate::digest::sha256_hex(&bytes))]));
                    host_command(hook, target, reached.len())
                }
            };
            entries.get_mut(&target).expect("every host has a list").push(DocumentEntry {
                native_event: native_event.clone(),
                matcher: matcher.clone(),
                timeout_seconds: *timeout_seconds,
                command,
            });
        }
    }
    if !index.is_empty() {
        files.insert(RUNTIME_PATH.to_string(), RUNTIME_SOURCE.as_bytes().to_vec());
    }

    let mut manifest_hosts = BTreeMap::new();
    for (target, entries) in &entries {
        let table = hosts::table(*target);
        let surface = table.hooks.as_ref().expect("built hosts have hooks");
        files.insert(surface.document.clone(), json_bytes(&hook_document(surface, entries)));
        files.insert(surface.manifest.clone(), json_bytes(&plugin_manifest(surface, &bundle.plugin)));
        manifest_hosts.insert(
            *target,
            ManifestHost {
                revision: table.revision.clone(),
                manifest: surface.manifest.clone(),
                document: surface.document.clone(),
            },
        );
    }

    for payload in shipped_payloads {
        let source = lexical_join(root, &payload.source);
        match disk.walk_files(&source) {
            Ok(paths) => {
                for path in paths {
                    match disk.read(&source.join(&path)) {
                        Ok(bytes) => {
                            files.insert(format!("{}/{path}", payload.name), bytes);
                        }
                        Err(error) => diagnostics.push(messages::payload_missing_at_build(
                            &payload.name,
                            &format!("{}/{path} ({error})", payload.source),
                        )),
                    }
                }
            }
            Err(error) => diagnostics
                .push(messages::payload_missing_at_build(&payload.name, &format!("{} ({error})", payload.source))),
        }
    }
    if diagnostics.iter().any(Diagnostic::is_error) {
        return (None, diagnostics, sources);
    }

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
        files: file_records(&files),
    };
    files.insert(MANIFEST_PATH.to_string(), manifest_bytes(&manifest));
    let package_digests = std::mem::take(&mut compiled.package_digests);
    (Some(Emitted { files, manifest, inputs, stats: compiled.stats, package_digests }), diagnostics, sources)
}

/// The wrapper of a hook on a host: `hooks/<name>.mjs` when the hook reaches one host,
/// `hooks/<name>.<host>.mjs` when it reaches several.
pub fn wrapper_path(hook: &crate::normalise::Hook, target: Target, hosts_reached: usize) -> String {
    if hosts_reached == 1 { format!("hooks/{}.mjs", hook.name) } else { format!("hooks/{}.{}.mjs", hook.name, target) }
}

/// The command a host's document runs for a hook: its wrapper, or a prebuilt file with its arguments.
pub fn host_command(hook: &crate::normalise::Hook, target: Target, hosts_reached: usize) -> String {
    let surface = hosts::table(target).hooks.as_ref().expect("hosts that receive hooks have a hook surface");
    match &hook.handler {
        Handler::Module { .. } => node_command(&surface.root_token, &wrapper_path(hook, target, hosts_reached), &[]),
        Handler::Prebuilt { artifact_path, .. } => node_command(&surface.root_token, artifact_path, &hook.args),
    }
}

/// Pretty JSON with sorted keys and a final newline: what every generated document looks like.
pub fn json_bytes(value: &serde_json::Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).expect("documents serialise");
    text.push('\n');
    text.into_bytes()
}
