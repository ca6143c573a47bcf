//! One file per handler at start-up. The bundle's one bundler build parses, resolves and
//! transforms each module once and puts what several handlers share into chunks; a hook then pays
//! at every tool call for Node resolving and loading each chunk beside its entry (1.1–1.6 ms a call
//! measured, against one file). So each entry is linked once more with the chunks it imports
//! statically, in memory, into one file: a second, small rolldown build per entry over the first
//! build's output (plain ES modules, nothing to resolve on disk, transform or type-strip), the
//! source maps composed so that positions still name the original sources.
//!
//! An entry whose chunks import anything dynamically keeps its chunks: a module loaded both
//! statically (folded in) and through a dynamic import (a chunk file) would run twice. A fold that
//! fails keeps the chunks too: the output stays what the first build made, correct and a little
//! slower to start.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use camino::{Utf8Path, Utf8PathBuf};
use rolldown::{
    AttachDebugInfo, Bundler, BundlerOptions, ChunkFilenamesOutputOption, CommentsOptions, ExperimentalOptions,
    InputItem, OutputFormat, Platform, SourceMapType,
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

/// One entry to fold with the chunks it loads.
struct Job {
    root: Utf8PathBuf,
    /// The entry's file name under [`HANDLERS_DIR`], without `.mjs`.
    name: String,
    /// The entry's module id.
    id: String,
    modules: Arc<HashMap<String, Module>>,
}

/// Folds every entry of `run` that loads chunks only statically into one file, and drops the
/// chunks no file loads any more. `root` is the canonical bundle root the run bundled in.
pub(super) fn fold(root: &Utf8Path, run: &mut Run) {
    let by_path: BTreeMap<String, usize> = run.chunks.iter().enumerate().map(|(i, c)| (c.path.clone(), i)).collect();
    let mut jobs = Vec::new();
    let mut folding = Vec::new();
    for (index, entry) in run.chunks.iter().enumerate().filter(|(_, c)| c.entry_of.is_some()) {
        let Some(loaded) = static_closure(run, &by_path, entry) else { continue };
        if loaded.is_empty() {
            continue;
        }
        let module = |chunk: &Chunk| {
            (
                absolute(root, &chunk.path),
                Module {
                    code: chunk.code.as_str().into(),
                    map: chunk.raw_map.as_ref().map(|m| rooted(m, root, chunk)),
                },
            )
        };
        let modules: HashMap<String, Module> =
            std::iter::once(entry).chain(loaded.iter().map(|&i| &run.chunks[i])).map(module).collect();
        let name = entry.path.strip_prefix(&format!("{HANDLERS_DIR}/")).unwrap_or(&entry.path);
        jobs.push(Job {
            root: root.to_path_buf(),
            name: name.strip_suffix(".mjs").unwrap_or(name).to_string(),
            id: absolute(root, &entry.path),
            modules: Arc::new(modules),
        });
        folding.push((index, loaded));
    }
    if jobs.is_empty() {
        return;
    }
    let folded = run::runtime().block_on(async {
        let tasks: Vec<_> = jobs.into_iter().map(|job| tokio::spawn(fold_one(job))).collect();
        let mut folded = Vec::with_capacity(tasks.len());
        for task in tasks {
            folded.push(task.await.ok().flatten());
        }
        folded
    });
    for ((index, loaded), folded) in folding.into_iter().zip(folded) {
        let Some(Folded { code, map }) = folded else { continue };
        let modules: BTreeSet<String> = std::iter::once(index)
            .chain(loaded.iter().copied())
            .flat_map(|i| run.chunks[i].modules.iter().cloned())
            .collect();
        let entry = &mut run.chunks[index];
        entry.code = code;
        entry.map = super::sourcemap::finish(&map, &entry.path);
        entry.modules = modules.into_iter().collect();
        entry.imports.clear();
    }
    // A chunk nothing loads any more is not shipped.
    let mut needed: BTreeSet<String> = BTreeSet::new();
    let mut pending: Vec<String> = run
        .chunks
        .iter()
        .filter(|c| c.entry_of.is_some())
        .flat_map(|c| c.imports.iter().chain(&c.dynamic_imports).cloned())
        .collect();
    while let Some(path) = pending.pop() {
        if needed.insert(path.clone())
            && let Some(&i) = by_path.get(path.as_str())
        {
            let chunk = &run.chunks[i];
            pending.extend(chunk.imports.iter().chain(&chunk.dynamic_imports).cloned());
        }
    }
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

async fn fold_one(job: Job) -> Option<Folded> {
    let plugin = Arc::new(FoldPlugin { modules: Arc::clone(&job.modules) });
    let mut bundler = Bundler::with_plugins(options(&job), vec![plugin]).ok()?;
    let output = bundler.generate().await.ok();
    let _ = bundler.close().await;
    let mut chunks = output?.assets.into_iter().filter_map(|asset| match asset {
        rolldown_common::Output::Chunk(chunk) => Some(chunk),
        _ => None,
    });
    let chunk = chunks.next()?;
    // One file, or the fold did not do what it is for.
    if chunks.next().is_some() {
        return None;
    }
    Some(Folded { code: chunk.code.clone(), map: chunk.map.as_ref().map(|m| m.to_json_string()).unwrap_or_default() })
}

fn options(job: &Job) -> BundlerOptions {
    BundlerOptions {
        input: Some(vec![InputItem { name: Some(job.name.clone()), import: job.id.clone() }]),
        cwd: Some(job.root.clone().into_std_path_buf()),
        dir: Some(HANDLERS_DIR.to_string()),
        entry_filenames: Some(ChunkFilenamesOutputOption::String("[name].mjs".to_string())),
        platform: Some(Platform::Node),
        format: Some(OutputFormat::Esm),
        sourcemap: Some(SourceMapType::Hidden),
        sourcemap_exclude_sources: Some(true),
        // The first build's output is what it links: already lowered for Node, its comments already
        // chosen (licence comments kept, as there).
        comments: Some(CommentsOptions { legal: true, annotation: false, jsdoc: false }),
        experimental: Some(ExperimentalOptions {
            attach_debug_info: Some(AttachDebugInfo::None),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Serves the first build's files from memory. A Node built-in is left to the bundler, which knows
/// importing one has no side effects; anything else (a package shipped whole) stays the import it
/// is, never resolved on disk.
#[derive(Debug)]
struct FoldPlugin {
    modules: Arc<HashMap<String, Module>>,
}

impl Plugin for FoldPlugin {
    fn name(&self) -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("agent-bundle-fold")
    }

    fn register_hook_usage(&self) -> HookUsage {
        HookUsage::ResolveId | HookUsage::Load
    }

    async fn resolve_id(&self, _ctx: &PluginContext, args: &HookResolveIdArgs<'_>) -> HookResolveIdReturn {
        if self.modules.contains_key(args.specifier) {
            return Ok(Some(HookResolveIdOutput::from_id(args.specifier)));
        }
        if let Some(importer) = args.importer
            && super::plugin::is_path_like(args.specifier)
            && let Some(folder) = Utf8Path::new(importer).parent()
        {
            let id = crate::io::lexical_join(folder, args.specifier).into_string();
            if self.modules.contains_key(&id) {
                return Ok(Some(HookResolveIdOutput::from_id(id)));
            }
        }
        if super::plugin::is_node_builtin(args.specifier) {
            // The bundler's own: a built-in it knows to have no side effects on import.
            return Ok(None);
        }
        Ok(Some(HookResolveIdOutput {
            id: args.specifier.into(),
            external: Some(ResolvedExternal::Bool(true)),
            ..Default::default()
        }))
    }

    async fn load(&self, _ctx: SharedLoadPluginContext, args: &HookLoadArgs<'_>) -> HookLoadReturn {
        let Some(module) = self.modules.get(args.id) else { return Ok(None) };
        Ok(Some(HookLoadOutput { code: module.code.clone(), map: module.map.clone(), ..Default::default() }))
    }
}
