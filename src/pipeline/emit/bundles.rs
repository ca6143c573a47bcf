//! Placing what the bundle stage produced: each handler's bundle and source map, the packages
//! shipped whole, and the runtime every wrapper imports. A host with a folder of its own gets its own
//! copy of the runtime and of the shipped packages (its plugin is that folder, installed without the
//! rest); the bundle copies there are placed with the hooks that import them.

use std::collections::BTreeSet;

use super::assembly::{Assembly, Producer};
use super::wrapper::{RUNTIME_PATH, RUNTIME_SOURCE};
use crate::artifact::ArtifactFile;
use crate::io::stamp::InputSet;
use crate::pipeline::bundle::{Bundled, BundledChunk, GITIGNORE_PATH, SHIPPED_DIR};

/// Places every handler bundle and the packages shipped whole (taken out of `bundled`), and adds
/// what bundling read to `read`.
pub(super) fn place(files: &mut Assembly, bundled: &mut Bundled, read: &mut InputSet) {
    for (path, file) in std::mem::take(&mut bundled.shipped.files) {
        files.add(path, file, Producer::Shipped);
    }
    read.extend(&std::mem::take(&mut bundled.shipped.inputs));
    for (source, handler) in &bundled.handlers {
        let producer = || Producer::Bundle { handler: source.clone() };
        files.add(handler.path.clone(), ArtifactFile::new(handler.code.as_bytes().to_vec()), producer());
        files.add(handler.map_path(), ArtifactFile::new(handler.map.as_bytes().to_vec()), producer());
    }
    for (path, chunk) in &bundled.chunks {
        place_chunk(files, path, chunk);
    }
    read.extend(&bundled.inputs);
}

/// A shared chunk and its map at `path`.
fn place_chunk(files: &mut Assembly, path: &str, chunk: &BundledChunk) {
    files.add(path.to_string(), ArtifactFile::new(chunk.code.as_bytes().to_vec()), Producer::SharedChunk);
    files.add(format!("{path}.map"), ArtifactFile::new(chunk.map.as_bytes().to_vec()), Producer::SharedChunk);
}

/// A copy, in the host folder `folder`, of the file at `path` a handler loads (a shared chunk, or
/// another handler's entry) and of its map.
pub(super) fn place_loaded_copy(files: &mut Assembly, bundled: &Bundled, folder: &str, path: &str) {
    let Some((code, map, entry_of)) = bundled.loaded(path) else { return };
    let producer = || match entry_of {
        Some(handler) => Producer::Bundle { handler: handler.to_string() },
        None => Producer::SharedChunk,
    };
    let copy = format!("{folder}/{path}");
    files.add(format!("{copy}.map"), ArtifactFile::new(map.as_bytes().to_vec()), producer());
    files.add(copy, ArtifactFile::new(code.as_bytes().to_vec()), producer());
}

/// Places the runtime when any wrapper was placed, and in each host folder of `folders` the runtime
/// and the shipped packages, where that folder's bundles import them from.
pub(super) fn place_runtime(files: &mut Assembly, any_wrapper: bool, folders: &BTreeSet<String>) {
    let runtime = || ArtifactFile::new(RUNTIME_SOURCE.as_bytes().to_vec());
    if any_wrapper {
        files.add(RUNTIME_PATH.to_string(), runtime(), Producer::Runtime);
    }
    for folder in folders {
        files.add(format!("{folder}/{RUNTIME_PATH}"), runtime(), Producer::Runtime);
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
}
