//! Placing the artifact manifest, `agent-bundle.manifest.json`: the plugin, every host's documents,
//! the index of hooks, the packages shipped whole and every other file with its digest. It is placed
//! last, through the same collision check as every other file.

use std::collections::BTreeMap;

use super::assembly::{Assembly, Producer};
use crate::artifact::{
    ArtifactFile, ArtifactManifest, IndexRow, MANIFEST_PATH, MANIFEST_SCHEMA, ManifestHost, ManifestPlugin,
    ShippedPackage, file_records, generator, manifest_bytes,
};
use crate::pipeline::PluginInfo;
use crate::vocabulary::target::Target;

/// Places the manifest of the files in `files` and returns it.
pub(super) fn place(
    files: &mut Assembly,
    plugin: &PluginInfo,
    hosts: BTreeMap<Target, ManifestHost>,
    mut index: Vec<IndexRow>,
    shipped: Vec<ShippedPackage>,
) -> ArtifactManifest {
    let records = file_records(files.entries().map(|(path, file, _)| (path, file)));
    index.sort_by(|a, b| (a.host, &a.id).cmp(&(b.host, &b.id)));
    let manifest = ArtifactManifest {
        schema: MANIFEST_SCHEMA,
        generator: generator(),
        plugin: ManifestPlugin {
            name: plugin.name.clone(),
            description: plugin.description.clone(),
            version: plugin.version.clone(),
            author: plugin.author.as_ref().map(|a| serde_json::to_value(a).expect("authors serialise")),
        },
        hosts,
        hooks: index,
        shipped,
        files: records,
    };
    files.add(MANIFEST_PATH.to_string(), ArtifactFile::new(manifest_bytes(&manifest)), Producer::Manifest);
    manifest
}
