//! Emitting: from a planned and bundled bundle to the bytes of every file of the composite plugin
//! folder (D4 in docs/decisions.md). Emit only places: [`bundles`] what the bundle stage produced and
//! the runtime, [`hooks`] each hook's wrappers and index rows, [`shared`] the shared runtime,
//! [`documents`] each host's hook document and plugin manifest, [`payloads`] the payloads and plugin
//! files, and [`manifest`] the artifact manifest, last; [`assembly`] refuses two producers on one
//! path. The only files read are payloads and plugin files, through [`Disk`]; the result is a map of
//! artifact paths to bytes that the I/O layer writes in one step.

#[macro_use]
mod runtime_core;

mod assembly;
mod bundles;
mod documents;
mod front_matter;
mod hooks;
mod manifest;
mod mcp;
mod module;
mod parts;
mod payloads;
pub(crate) mod shared;
mod wrapper;

use std::collections::BTreeMap;

use camino::Utf8Path;

pub use documents::{WrittenEntry, read_hook_document};
pub use wrapper::RUNTIME_PATH;
pub(crate) use wrapper::{CLINE_HOOK_FILE_SOURCE, RUNTIME_CORE_SOURCE, entry_source, test_contract};

use crate::artifact::{ArtifactFile, ArtifactManifest, generator};
use crate::diagnostic::{Diagnostic, Staged};
use crate::hosts;
use crate::io::Disk;
use crate::io::stamp::InputSet;
use crate::pipeline::Bundle;
use crate::pipeline::bundle::{BundleStats, Bundled};
use crate::pipeline::plan::Delivery;
use crate::vocabulary::target::Target;
use assembly::Assembly;

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
    /// Every file and folder bundling and emitting read, by absolute path, with stamps and digests.
    pub read: InputSet,
    pub stats: BundleStats,
}

/// Emits the artifact of `bundle` for `hosts` (the config's targets, narrowed by `--target`) from
/// what the bundle stage produced. `root` is the canonical bundle root and `output` the canonical
/// output folder. Payloads are judged even when bundling failed, so that one build reports both;
/// the artifact is emitted only when nothing failed.
pub fn emit(
    bundle: &Bundle,
    mut bundled: Bundled,
    root: &Utf8Path,
    hosts: &[Target],
    output: &Utf8Path,
    disk: &dyn Disk,
) -> Staged<Option<Emitted>> {
    let mut diagnostics = Vec::new();
    assert!(!crate::pipeline::plan::unsettled(&bundle.plans), "the orchestrator settles hooks modules before emitting");
    let hosts: Vec<Target> = hosts::built_hosts(hosts);
    let mut read = InputSet::default();
    let payload_copies = payloads::read(bundle, &hosts, root, output, disk, &mut read, &mut diagnostics);
    let read_parts = parts::read(bundle, &hosts, root, disk, &mut read, &mut diagnostics);
    if bundled.failed || diagnostics.iter().any(Diagnostic::is_error) {
        return Staged { value: None, diagnostics };
    }

    let mut files = Assembly::default();
    bundles::place(&mut files, &mut bundled, &mut read);
    let warm =
        bundle.plans.iter().flat_map(|plan| &plan.targets).any(|t| crate::pipeline::plan::warm::answers(&t.delivery));
    let epoch = (shares_a_route(bundle, &hosts) || warm).then(|| {
        let handlers = bundled.handlers.values().map(|h| (h.path.as_str(), h.code.as_bytes()));
        let chunks = bundled.chunks.iter().map(|(path, chunk)| (path.as_str(), chunk.code.as_bytes()));
        shared::epoch(&generator(), handlers.chain(chunks))
    });
    let placed = hooks::place(&mut files, bundle, &bundled, &hosts, epoch.as_deref(), root, &mut read);
    let shared_servers = match &epoch {
        Some(epoch) => shared::place(
            &mut files,
            &bundle.plugin,
            epoch,
            &placed.shared_routes,
            &placed.warm_hooks,
            &placed.shared_hosts,
        ),
        None => BTreeMap::new(),
    };
    let mcp = mcp::place(&mut files, bundle, &bundled, &hosts, shared_servers);
    let folders = placed.folders.union(&mcp.folders).cloned().collect();
    bundles::place_runtime(&mut files, placed.index.iter().any(|row| !row.prebuilt), &folders);
    module::place(&mut files, &placed.module_hooks);
    let placed_parts = parts::place(&mut files, bundle, &read_parts, &hosts, &mut diagnostics);
    let mut manifest_hosts =
        documents::place(&mut files, &bundle.plugin, &placed.entries, &mcp, &placed_parts, &placed.module_hooks);
    documents::serve(&mut manifest_hosts, &bundle.normalised.targets);
    payloads::place_plugin_files(&mut files, bundle, &hosts, root, disk, &mut read, &mut diagnostics);
    payloads::place(&mut files, payload_copies);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Staged { value: None, diagnostics };
    }

    let shipped = std::mem::take(&mut bundled.shipped.packages);
    let manifest = manifest::place(&mut files, &bundle.plugin, manifest_hosts, placed.index, shipped);
    let files = match files.finish() {
        Ok(files) => files,
        Err(collisions) => {
            diagnostics.extend(collisions);
            return Staged { value: None, diagnostics };
        }
    };
    let emitted =
        Emitted { files, manifest, inputs: placed.inputs, products: placed.products, read, stats: bundled.stats };
    Staged { value: Some(emitted), diagnostics }
}

/// Whether a route of `bundle` renders in the plugin's MCP server on one of `hosts`.
fn shares_a_route(bundle: &Bundle, hosts: &[Target]) -> bool {
    bundle.normalised.hooks.iter().any(|hook| {
        crate::pipeline::plan::delivered(&bundle.plans, &hook.id, hosts)
            .iter()
            .any(|(_, delivery)| matches!(delivery, Delivery::Native { shared: true, .. }))
    })
}

pub use crate::io::relative_specifier;

/// Pretty JSON with sorted keys and a final newline: what every generated document looks like.
pub fn json_bytes(value: &serde_json::Value) -> Vec<u8> {
    let mut text = crate::vocabulary::json::pretty_value(value);
    text.push('\n');
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::layout;

    #[test]
    fn relative_specifiers_between_artifact_files() {
        assert_eq!(relative_specifier("hooks/x.claude.mjs", "hooks/handlers/src/a.mjs"), "./handlers/src/a.mjs");
        assert_eq!(relative_specifier("hooks/handlers/src/a.mjs", "hooks/handlers/lib/b.mjs"), "../lib/b.mjs");
    }

    /// The files of a bundle with prebuilt handlers, a payload (an executable, a link inside it) and
    /// a README, for two hosts (one with a folder of its own).
    fn prebuilt_bundle() -> Vec<(&'static str, &'static str, u32)> {
        vec![
            (
                "agent-bundle.config.ts",
                "export default { hooks: { afterTool: [{ handler: { prebuilt: './dist/runtime/hook.js' }, tools: ['file.write'] }], stop: { handler: { prebuilt: './dist/runtime/stop.js' } } }, payload: { runtime: './dist/runtime' }, plugin: { name: 'in-memory', description: 'd', version: '1.0.0', author: 'a' }, targets: ['claude', 'gemini'] };\n",
                0o644,
            ),
            ("dist/runtime/hook.js", "process.stdout.write('{}');\n", 0o755),
            ("dist/runtime/stop.js", "process.stdout.write('{}');\n", 0o644),
            ("dist/runtime/data/table.json", "{\"a\": 1}\n", 0o600),
            ("README.md", "# in-memory\n", 0o644),
        ]
    }

    fn emitted(root: &Utf8Path, disk: &dyn Disk) -> Emitted {
        let loaded = crate::pipeline::load(root, disk);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let bundle = loaded.bundle.expect("the bundle loads");
        let hosts = bundle.normalised.targets.clone();
        let staged = crate::pipeline::bundle::bundle(&bundle, root, &hosts, disk, None);
        assert!(!staged.value.failed, "{:?}", staged.diagnostics);
        let staged = emit(&bundle, staged.value, root, &hosts, &root.join("artifact"), disk);
        staged.value.unwrap_or_else(|| panic!("{:?}", staged.diagnostics))
    }

    /// A whole emit with nothing on disk: the bundle lives in a [`MemoryDisk`], and what is emitted
    /// is byte for byte, mode for mode, what the same bundle emits from a real folder.
    #[test]
    fn a_whole_emit_runs_on_an_in_memory_disk_and_matches_the_real_one() {
        use crate::io::memory::MemoryDisk;
        let mut memory = MemoryDisk::new();
        let root = Utf8Path::new("/memory/bundle");
        for (path, text, mode) in prebuilt_bundle() {
            memory.file_with_mode(root.join(path), text, mode);
        }
        memory.link(root.join("dist/runtime/latest.js"), "hook.js");
        let in_memory = emitted(root, &memory);

        let temp = tempfile::tempdir().unwrap();
        let real_root = camino::Utf8PathBuf::from_path_buf(temp.path().canonicalize().unwrap()).unwrap();
        for (path, text, mode) in prebuilt_bundle() {
            let file = real_root.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, text).unwrap();
            std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
        }
        std::os::unix::fs::symlink("hook.js", real_root.join("dist/runtime/latest.js")).unwrap();
        let on_disk = emitted(&real_root, &crate::io::RealDisk);

        assert_eq!(in_memory.files.keys().collect::<Vec<_>>(), on_disk.files.keys().collect::<Vec<_>>());
        assert_eq!(in_memory.files, on_disk.files);
        // The payload, modes exactly, also in the folder of the host that has one.
        assert_eq!(in_memory.files["gemini/runtime/data/table.json"].mode(), Some(0o600));
        assert_eq!(in_memory.files["runtime/hook.js"].mode(), Some(0o755));
        let (link, target) = (&in_memory.files["runtime/latest.js"], &in_memory.files["runtime/hook.js"]);
        assert_eq!(link.bytes, target.bytes, "a link inside is shipped as what it names");
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
        let bundled = || crate::pipeline::bundle::bundle(&bundle, &root, &hosts, &disk, Some(&cache)).value;
        let clean = emit(&bundle, bundled(), &root, &hosts, &temp.join("artifact"), &disk);
        assert!(clean.value.is_some(), "{:?}", clean.diagnostics);
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
            let staged = emit(&bundle, bundled(), &root, &hosts, &temp.join("artifact"), &disk);
            assert!(staged.value.is_none(), "payload `{name}` was emitted");
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
