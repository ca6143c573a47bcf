//! One file per handler at start-up. The bundle's one bundler build parses, resolves and
//! transforms each module once and puts what several handlers share into chunks; a hook then pays
//! at every tool call for Node resolving and loading each chunk beside its entry (0.5 ms a call for
//! one chunk, measured by `cargo bench --bench bundling`, against 0.1 ms once per build to fold).
//! So the entries are linked once more with the chunks they import statically, in memory: a second rolldown build over the first build's output (plain ES modules:
//! nothing to resolve on disk, transform or type-strip), in which each entry imports a copy of its
//! chunks of its own (`<chunk>?entry=<n>`), so that no module is shared and each entry comes out
//! one file. Source maps are composed, so positions still name the original sources. One second
//! build per bundle, not per entry: a build's fixed cost (the bundler's own runtime module, parsed
//! and scanned each build) was most of a fold per entry.
//!
//! An entry whose chunks import anything dynamically keeps its chunks: a module loaded both
//! statically (folded in) and through a dynamic import (a chunk file) would run twice. An entry the
//! second build does not make one file of (it failed, or left a module shared) keeps its chunks too:
//! the output stays what the first build made, correct and a little slower to start.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use camino::{Utf8Path, Utf8PathBuf};
use rolldown::{
    AttachDebugInfo, Bundler, BundlerOptions, ChunkFilenamesOutputOption, ExperimentalOptions, InputItem, OutputFormat,
    Platform, SourceMapType,
};
use rolldown_common::ResolvedExternal;
use rolldown_plugin::{
    HookLoadArgs, HookLoadOutput, HookLoadReturn, HookResolveIdArgs, HookResolveIdOutput, HookResolveIdReturn,
    HookUsage, Plugin, PluginContext, SharedLoadPluginContext,
};

use super::run::{self, Chunk, Run};
use crate::hosts::layout::HANDLERS_DIR;

/// What one module of a fold is: a file of the first build's output, by its absolute artifact
/// path under the bundle root.
#[derive(Debug)]
struct Module {
    code: arcstr::ArcStr,
    map: Option<rolldown_sourcemap::SourceMap>,
}

/// The second build of one bundle.
struct Job {
    root: Utf8PathBuf,
    /// Each entry to fold: its file name under [`HANDLERS_DIR`] without `.mjs`, and its path.
    entries: Vec<(String, String)>,
    /// Every file any of them loads, by absolute path.
    modules: Arc<HashMap<String, Module>>,
}

/// The query that makes a module entry `n`'s own copy.
const COPY_OF_ENTRY: &str = "?entry=";

/// Folds every entry of `run` that loads chunks only statically into one file, and drops the
/// chunks no file loads any more. `root` is the canonical bundle root the run bundled in.
pub(super) fn fold(root: &Utf8Path, run: &mut Run) {
    let by_path: BTreeMap<String, usize> = run.chunks.iter().enumerate().map(|(i, c)| (c.path.clone(), i)).collect();
    let mut folding = Vec::new();
    let mut used = BTreeSet::new();
    for (index, entry) in run.chunks.iter().enumerate().filter(|(_, c)| c.entry_of.is_some()) {
        let Some(loaded) = static_closure(run, &by_path, entry) else { continue };
        if loaded.is_empty() {
            continue;
        }
        used.insert(index);
        used.extend(loaded.iter().copied());
        folding.push((index, loaded));
    }
    if folding.is_empty() {
        return;
    }
    let modules: HashMap<String, Module> = used
        .iter()
        .map(|&i| {
            let chunk = &run.chunks[i];
            let map = chunk.raw_map.as_ref().map(|m| rooted(m, root, chunk));
            (absolute(root, &chunk.path), Module { code: chunk.code.as_str().into(), map })
        })
        .collect();
    let entries = folding
        .iter()
        .map(|(index, _)| {
            let path = &run.chunks[*index].path;
            (run::entry_name(path), path.clone())
        })
        .collect();
    let job = Job { root: root.to_path_buf(), entries, modules: Arc::new(modules) };
    let folded = run::runtime().block_on(fold_all(job));
    for (index, loaded) in folding {
        let Some(Folded { code, map }) = folded.get(&run.chunks[index].path) else { continue };
        let modules: BTreeSet<String> = std::iter::once(index)
            .chain(loaded.iter().copied())
            .flat_map(|i| run.chunks[i].modules.iter().cloned())
            .collect();
        let entry = &mut run.chunks[index];
        entry.code = code.clone();
        entry.map = super::sourcemap::finish(map, &entry.path);
        entry.modules = modules.into_iter().collect();
        entry.imports.clear();
    }
    // A chunk nothing loads any more is not shipped.
    let needed: BTreeSet<String> =
        run.chunks.iter().filter(|c| c.entry_of.is_some()).flat_map(|entry| super::loaded_chunks(run, entry)).collect();
    run.chunks.retain(|c| c.entry_of.is_some() || needed.contains(&c.path));
}

/// The chunks `entry` loads through static imports, by index (another handler's entry among them
/// when it imports that handler's module); `None` when any of them, or the entry, imports something
/// dynamically.
fn static_closure(run: &Run, by_path: &BTreeMap<String, usize>, entry: &Chunk) -> Option<BTreeSet<usize>> {
    if !entry.dynamic_imports.is_empty() {
        return None;
    }
    let mut loaded = BTreeSet::new();
    let mut pending: Vec<&str> = entry.imports.iter().map(String::as_str).collect();
    while let Some(path) = pending.pop() {
        let Some(&i) = by_path.get(path) else { continue };
        if path == entry.path || !loaded.insert(i) {
            continue;
        }
        let chunk = &run.chunks[i];
        if !chunk.dynamic_imports.is_empty() {
            return None;
        }
        pending.extend(chunk.imports.iter().map(String::as_str));
    }
    Some(loaded)
}

fn absolute(root: &Utf8Path, artifact_path: &str) -> String {
    root.join(artifact_path).into_string()
}

/// A first-build map with its sources made absolute: the second build makes every source relative
/// to the file it writes, as it does for the modules it reads from disk.
fn rooted(map: &rolldown_sourcemap::SourceMap, root: &Utf8Path, chunk: &Chunk) -> rolldown_sourcemap::SourceMap {
    let folder = chunk.path.rsplit_once('/').map_or("", |(folder, _)| folder);
    let mut json = map.to_json();
    for source in &mut json.sources {
        *source = crate::io::lexical_join(&root.join(folder), source).into_string();
    }
    json.sources_content = None;
    rolldown_sourcemap::SourceMap::from_json(json).unwrap_or_else(|_| map.clone())
}

struct Folded {
    code: String,
    /// As the second build wrote it (sources relative to the entry's folder).
    map: String,
}

/// The second build: each entry folded, by its artifact path; an entry that did not come out as one
/// file is missing.
async fn fold_all(job: Job) -> BTreeMap<String, Folded> {
    let mut folded = BTreeMap::new();
    let plugin = Arc::new(FoldPlugin {
        modules: Arc::clone(&job.modules),
        entries: job.entries.iter().map(|(_, path)| absolute(&job.root, path)).collect(),
    });
    let Ok(mut bundler) = Bundler::with_plugins(options(&job), vec![plugin]) else { return folded };
    let output = bundler.generate().await;
    let _ = bundler.close().await;
    let Ok(output) = output else { return folded };
    let chunks: Vec<_> = output
        .assets
        .into_iter()
        .filter_map(|asset| match asset {
            rolldown_common::Output::Chunk(chunk) => Some(chunk),
            _ => None,
        })
        .collect();
    // What the build shared after all (it should share nothing): an entry that loads it is not one
    // file, and keeps what the first build made.
    let shared: BTreeSet<&str> = chunks.iter().filter(|c| !c.is_entry).map(|c| c.filename.as_str()).collect();
    for chunk in &chunks {
        if !chunk.is_entry || chunk.imports.iter().chain(&chunk.dynamic_imports).any(|i| shared.contains(i.as_str())) {
            continue;
        }
        let map = chunk.map.as_ref().map(|m| m.to_json_string()).unwrap_or_default();
        folded.insert(format!("{HANDLERS_DIR}/{}", chunk.filename), Folded { code: chunk.code.clone(), map });
    }
    folded
}

fn options(job: &Job) -> BundlerOptions {
    BundlerOptions {
        input: Some(
            job.entries
                .iter()
                .map(|(name, path)| InputItem { name: Some(name.clone()), import: absolute(&job.root, path) })
                .collect(),
        ),
        cwd: Some(job.root.clone().into_std_path_buf()),
        dir: Some(HANDLERS_DIR.to_string()),
        entry_filenames: Some(ChunkFilenamesOutputOption::String("[name].mjs".to_string())),
        chunk_filenames: Some(ChunkFilenamesOutputOption::String(run::CHUNK_FILE_NAMES.to_string())),
        platform: Some(Platform::Node),
        format: Some(OutputFormat::Esm),
        sourcemap: Some(SourceMapType::Hidden),
        sourcemap_exclude_sources: Some(true),
        // The first build's output is what it links: already lowered for Node, and keeping the
        // comments the first build kept.
        comments: Some(run::COMMENTS),
        experimental: Some(ExperimentalOptions {
            attach_debug_info: Some(AttachDebugInfo::None),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Serves the first build's files from memory, each entry's imports as its own copies. A Node
/// built-in is left to the bundler, which knows importing one has no side effects; anything else (a
/// package shipped whole) stays the import it is, never resolved on disk.
#[derive(Debug)]
struct FoldPlugin {
    modules: Arc<HashMap<String, Module>>,
    /// The entries' module ids, in entry order (a copy names its entry by this index).
    entries: Vec<String>,
}

/// The file a module id names: a copy's id without its query.
fn path_of(id: &str) -> &str {
    id.split_once(COPY_OF_ENTRY).map_or(id, |(path, _)| path)
}

impl FoldPlugin {
    /// Which entry a module belongs to: an entry is its own, a copy names its entry.
    fn entry_of(&self, id: &str) -> Option<usize> {
        match id.split_once(COPY_OF_ENTRY) {
            Some((_, n)) => n.parse().ok(),
            None => self.entries.iter().position(|e| e == id),
        }
    }
}

impl Plugin for FoldPlugin {
    fn name(&self) -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("agent-bundle-fold")
    }

    fn register_hook_usage(&self) -> HookUsage {
        HookUsage::ResolveId | HookUsage::Load
    }

    async fn resolve_id(&self, _ctx: &PluginContext, args: &HookResolveIdArgs<'_>) -> HookResolveIdReturn {
        let Some(importer) = args.importer else {
            // An entry itself.
            return Ok(Some(HookResolveIdOutput::from_id(args.specifier)));
        };
        if super::plugin::is_path_like(args.specifier)
            && let Some(entry) = self.entry_of(importer)
            && let Some(folder) = Utf8Path::new(path_of(importer)).parent()
        {
            let path = crate::io::lexical_join(folder, args.specifier).into_string();
            if self.modules.contains_key(&path) {
                // Back to the entry itself, or a copy of the entry's own.
                let id = if self.entries[entry] == path { path } else { format!("{path}{COPY_OF_ENTRY}{entry}") };
                return Ok(Some(HookResolveIdOutput::from_id(id)));
            }
        }
        if super::plugin::is_node_builtin(args.specifier) {
            return Ok(None);
        }
        Ok(Some(HookResolveIdOutput {
            id: args.specifier.into(),
            external: Some(ResolvedExternal::Bool(true)),
            ..Default::default()
        }))
    }

    async fn load(&self, _ctx: SharedLoadPluginContext, args: &HookLoadArgs<'_>) -> HookLoadReturn {
        let Some(module) = self.modules.get(path_of(args.id)) else { return Ok(None) };
        Ok(Some(HookLoadOutput {
            code: module.code.clone(),
            map: module.map.clone(),
            // Plain JavaScript, whatever a copy's id ends with.
            module_type: Some(rolldown_common::ModuleType::Js),
            ..Default::default()
        }))
    }
}
