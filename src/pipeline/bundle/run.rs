//! Running rolldown: one bundler build per bundle, all of its handlers the entries of that one build
//! (shared modules are parsed, resolved and transformed once, and land in shared chunks), every
//! bundle of a build at once on one shared runtime. A bundle's output depends only on its handlers
//! and what they read, never on which bundles were rebuilt.

use std::sync::{Arc, OnceLock};

use camino::Utf8PathBuf;
use rolldown::{
    Bundler, BundlerOptions, BundlerTransformOptions, ChunkFilenamesOutputOption, CommentsOptions, Either,
    InjectImport, InputItem, IsExternal, JsxOptions, OutputFormat, Platform, RawMinifyOptions, SourceMapType, TsConfig,
};
use rolldown_error::BuildDiagnostic;

use super::plugin::{AGENT_RUNTIME_PACKAGE, AgentBundlePlugin, LOCATION_SHIM_ID, Observed, Observer};
use crate::hosts::layout::HANDLERS_DIR;

/// What every handler bundle is compiled for; part of every bundle cache key.
pub(super) const NODE_TARGET: &str = "node18";

/// Where shared chunks go, under [`HANDLERS_DIR`]; their names carry a hash of their content.
pub(super) const CHUNK_FILE_NAMES: &str = "chunks/[name]-[hash].mjs";

/// The name of an entry's file (its artifact path under [`HANDLERS_DIR`], without `.mjs`): what the
/// bundler is given as the entry's name, so that `[name].mjs` is that file.
pub(super) fn entry_name(artifact_path: &str) -> String {
    let name = artifact_path.strip_prefix(&format!("{HANDLERS_DIR}/")).unwrap_or(artifact_path);
    name.strip_suffix(".mjs").unwrap_or(name).to_string()
}

/// Which comments a bundle keeps: licence comments (they are the packages' terms), not
/// documentation or annotations. The same in the fold, which links the first build's output.
pub(super) const COMMENTS: CommentsOptions = CommentsOptions { legal: true, annotation: false, jsdoc: false };

/// One bundle's handlers to bundle together.
#[derive(Clone, Debug)]
pub(super) struct Job {
    /// The canonical bundle root: the bundler's working folder; output paths are relative to it.
    pub root: Utf8PathBuf,
    /// Each handler, root-relative, with the name of its entry file under [`HANDLERS_DIR`] (without
    /// `.mjs`).
    pub entries: Vec<(String, String)>,
    /// Package names left as imports (shipped whole instead of bundled).
    pub external: Vec<String>,
    /// `bundle.define`: names replaced by code where the bundle's code reads them.
    pub define: Vec<(String, String)>,
}

/// One file rolldown produced, before agent-bundle post-processes it.
#[derive(Debug)]
pub(super) struct Chunk {
    /// Its artifact path (`hooks/handlers/src/hooks/guard.mjs`, `hooks/handlers/chunks/shared-….mjs`).
    pub path: String,
    pub code: String,
    /// Its finished source map (JSON): sources relative to the bundle root, as the artifact carries it.
    pub map: String,
    pub exports: Vec<String>,
    /// The handler (root-relative) whose entry this is.
    pub entry_of: Option<String>,
    /// The artifact paths of the chunks it imports statically.
    pub imports: Vec<String>,
    /// The artifact paths of the chunks it imports dynamically (`import()`).
    pub dynamic_imports: Vec<String>,
    /// The map as the bundler made it (sources relative to the chunk's folder), for a fold.
    pub raw_map: Option<rolldown_sourcemap::SourceMap>,
    /// The ids (absolute paths) of the modules rendered into it.
    pub modules: Vec<String>,
}

#[derive(Debug)]
pub(super) struct Run {
    pub chunks: Vec<Chunk>,
    pub errors: Vec<BuildDiagnostic>,
    pub warnings: Vec<BuildDiagnostic>,
    pub observed: Observed,
    /// Files the bundler read besides modules (tsconfig files).
    pub watched: Vec<String>,
    /// When the run started (file-stamp clock): what the bundler read itself is recorded against it.
    pub started_at: i128,
}

impl Run {
    /// The entry chunk of a handler.
    pub fn entry(&self, handler: &str) -> Option<&Chunk> {
        self.chunks.iter().find(|chunk| chunk.entry_of.as_deref() == Some(handler))
    }
}

/// The stack of each bundler thread.
const BUNDLER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// The runtime bundlers run on, made once per process: one worker per core (rolldown also spreads
/// its own work over rayon's pool).
pub(super) fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        deep_stacked_rayon_pool();
        // One worker per core: rolldown spreads its own work over rayon's pool as well (two or
        // four per core measured no faster).
        let workers = crate::io::threads("AGENT_BUNDLE_BUNDLER_THREADS", 1);
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            // The parser, transformer and resolver recurse per level of nesting (a package.json
            // nested 200,000 deep): a large stack, of which only what is used is ever touched.
            .thread_stack_size(BUNDLER_STACK_BYTES)
            .thread_name("agent-bundle-bundler")
            .build()
            .expect("a tokio runtime can be created")
    })
}

/// Builds rayon's global pool, on which rolldown parses and visits modules, with the bundler's
/// stack: with rayon's default (2 MiB) a handler of 3,000 nested arrow functions or a member chain
/// 12,000 long overflowed it and aborted the build, while the nesting limit let them through.
/// Building the global pool can fail only when it already exists: then something in this process
/// built it first (a library caller's own rayon use), and its stacks are the caller's choice.
fn deep_stacked_rayon_pool() {
    let _already_built = rayon::ThreadPoolBuilder::new()
        .stack_size(BUNDLER_STACK_BYTES)
        .thread_name(|index| format!("agent-bundle-rayon-{index}"))
        .build_global();
}

/// Bundles every job concurrently; results come back in job order.
pub(super) fn run_all(jobs: Vec<Job>) -> Vec<Run> {
    if jobs.is_empty() {
        return Vec::new();
    }
    runtime().block_on(async {
        let tasks: Vec<_> = jobs.into_iter().map(|job| tokio::spawn(run_one(job))).collect();
        let mut runs = Vec::with_capacity(tasks.len());
        for task in tasks {
            runs.push(task.await.unwrap_or_else(|error| Run {
                chunks: Vec::new(),
                errors: vec![BuildDiagnostic::unhandleable_error(anyhow::anyhow!("the bundler stopped: {error}"))],
                warnings: Vec::new(),
                observed: Observed::default(),
                watched: Vec::new(),
                started_at: crate::io::stamp::now_ns(),
            }));
        }
        runs
    })
}

async fn run_one(job: Job) -> Run {
    let started_at = crate::io::stamp::now_ns();
    let observer = Arc::new(Observer::default());
    let plugin = Arc::new(AgentBundlePlugin { observer: Arc::clone(&observer) });
    let mut watched = Vec::new();
    let outcome = match Bundler::with_plugins(options(&job), vec![plugin]) {
        Ok(mut bundler) => {
            let generated = bundler.generate().await;
            watched = bundler.watch_files().iter().map(|file| file.to_string()).collect();
            watched.sort();
            let _ = bundler.close().await;
            generated
        }
        Err(errors) => Err(errors),
    };
    let observed = std::mem::take(&mut *observer.observed.lock().expect("the observer is never poisoned"));
    match outcome {
        Ok(output) => {
            let in_artifact = |file: &str| format!("{HANDLERS_DIR}/{file}");
            let chunks = output
                .assets
                .into_iter()
                .filter_map(|asset| match asset {
                    rolldown_common::Output::Chunk(chunk) => Some(Chunk {
                        path: in_artifact(&chunk.filename),
                        code: chunk.code.clone(),
                        map: chunk
                            .map
                            .as_ref()
                            .map(|m| super::sourcemap::finish(&m.to_json_string(), &in_artifact(&chunk.filename)))
                            .unwrap_or_default(),
                        exports: chunk.exports.iter().map(|e| e.to_string()).collect(),
                        entry_of: chunk
                            .is_entry
                            .then(|| job.entries.iter().find(|(name, _)| *name == chunk.name.as_str()))
                            .flatten()
                            .map(|(_, handler)| handler.clone()),
                        imports: chunk.imports.iter().map(|f| in_artifact(f)).collect(),
                        dynamic_imports: chunk.dynamic_imports.iter().map(|f| in_artifact(f)).collect(),
                        raw_map: chunk.map.clone(),
                        modules: chunk.module_ids.iter().map(|id| id.to_string()).collect(),
                    }),
                    _ => None,
                })
                .collect();
            Run { chunks, errors: Vec::new(), warnings: output.warnings, observed, watched, started_at }
        }
        Err(errors) => {
            Run { chunks: Vec::new(), errors: errors.into_vec(), warnings: Vec::new(), observed, watched, started_at }
        }
    }
}

fn options(job: &Job) -> BundlerOptions {
    let external = job.external.clone();
    let is_external =
        IsExternal::Fn(Some(Arc::new(move |specifier: &str, _importer: Option<&str>, _resolved: bool| {
            let matched = external.iter().any(|name| {
                specifier == name || specifier.strip_prefix(name.as_str()).is_some_and(|rest| rest.starts_with('/'))
            });
            Box::pin(async move { Ok(matched) })
        })));
    let shim = |name: &str| InjectImport::Named {
        imported: name.to_string(),
        alias: None,
        from: LOCATION_SHIM_ID.to_string(),
    };
    BundlerOptions {
        input: Some(
            job.entries
                .iter()
                .map(|(name, handler)| InputItem { name: Some(name.clone()), import: format!("./{handler}") })
                .collect(),
        ),
        cwd: Some(job.root.clone().into_std_path_buf()),
        // The artifact's layout under the root: imports between chunks are relative, so they hold in
        // the artifact; source map paths come out relative to each chunk's folder.
        dir: Some(HANDLERS_DIR.to_string()),
        entry_filenames: Some(ChunkFilenamesOutputOption::String("[name].mjs".to_string())),
        chunk_filenames: Some(ChunkFilenamesOutputOption::String(CHUNK_FILE_NAMES.to_string())),
        platform: Some(Platform::Node),
        format: Some(OutputFormat::Esm),
        sourcemap: Some(SourceMapType::Hidden),
        sourcemap_exclude_sources: Some(true),
        tsconfig: Some(TsConfig::Auto(true)),
        external: Some(is_external),
        inject: Some(vec![shim("__dirname"), shim("__filename")]),
        comments: Some(COMMENTS),
        minify: Some(RawMinifyOptions::DeadCodeEliminationOnly),
        define: (!job.define.is_empty()).then(|| job.define.iter().cloned().collect()),
        transform: Some(BundlerTransformOptions {
            target: Some(Either::Left(NODE_TARGET.to_string())),
            // JSX becomes calls of agent-bundle's own runtime (`<Agent.Result>`), whatever a tsconfig says.
            jsx: Some(Either::Right(JsxOptions {
                runtime: Some("automatic".to_string()),
                import_source: Some(AGENT_RUNTIME_PACKAGE.to_string()),
                development: Some(false),
                ..Default::default()
            })),
            ..Default::default()
        }),
        ..Default::default()
    }
}
