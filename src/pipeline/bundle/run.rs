//! Running rolldown: one bundler per handler (so each hook's bundle depends on what that handler
//! reads and nothing else, which keeps per-hook caching exact and output independent of which other
//! hooks were rebuilt), all of a build's handlers at once on one shared runtime.

use std::sync::{Arc, OnceLock};

use camino::Utf8PathBuf;
use rolldown::{
    Bundler, BundlerOptions, BundlerTransformOptions, CodeSplittingMode, CommentsOptions, Either, InjectImport,
    InputItem, IsExternal, JsxOptions, OutputFormat, Platform, RawMinifyOptions, SourceMapType, TsConfig,
};
use rolldown_error::BuildDiagnostic;

use super::plugin::{AGENT_RUNTIME_PACKAGE, AgentBundlePlugin, LOCATION_SHIM_ID, Observed, Observer};

/// What every handler bundle is compiled for; part of every bundle cache key.
pub(super) const NODE_TARGET: &str = "node18";

/// One handler to bundle.
#[derive(Clone, Debug)]
pub(super) struct Job {
    /// The canonical bundle root: the bundler's working folder; output paths are relative to it.
    pub root: Utf8PathBuf,
    /// The handler, root-relative.
    pub entry: String,
    /// Package names left as imports (shipped whole instead of bundled).
    pub external: Vec<String>,
}

/// The bundle rolldown produced, before agent-bundle post-processes it.
#[derive(Debug)]
pub(super) struct Chunk {
    pub code: String,
    /// The source map as rolldown wrote it (JSON).
    pub map: String,
    pub exports: Vec<String>,
}

#[derive(Debug)]
pub(super) struct Run {
    pub chunk: Option<Chunk>,
    pub errors: Vec<BuildDiagnostic>,
    pub warnings: Vec<BuildDiagnostic>,
    pub observed: Observed,
    /// Files the bundler read besides modules (tsconfig files).
    pub watched: Vec<String>,
    /// When the run started (file-stamp clock): what the bundler read itself is recorded against it.
    pub started_at: i128,
}

/// The stack of each bundler thread.
const BUNDLER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// The runtime bundlers run on, made once per process: one worker per core (rolldown also spreads
/// its own work over rayon's pool).
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
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
                chunk: None,
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
            let chunk = output.assets.into_iter().find_map(|asset| match asset {
                rolldown_common::Output::Chunk(chunk) if chunk.is_entry => Some(Chunk {
                    code: chunk.code.clone(),
                    map: chunk.map.as_ref().map(|m| m.to_json_string()).unwrap_or_default(),
                    exports: chunk.exports.iter().map(|e| e.to_string()).collect(),
                }),
                _ => None,
            });
            Run { chunk, errors: Vec::new(), warnings: output.warnings, observed, watched, started_at }
        }
        Err(errors) => {
            Run { chunk: None, errors: errors.into_vec(), warnings: Vec::new(), observed, watched, started_at }
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
        input: Some(vec![InputItem { name: Some("handler".to_string()), import: format!("./{}", job.entry) }]),
        cwd: Some(job.root.clone().into_std_path_buf()),
        // Source map paths come out relative to this folder: the bundle root.
        dir: Some(".".to_string()),
        platform: Some(Platform::Node),
        format: Some(OutputFormat::Esm),
        sourcemap: Some(SourceMapType::Hidden),
        sourcemap_exclude_sources: Some(true),
        tsconfig: Some(TsConfig::Auto(true)),
        code_splitting: Some(CodeSplittingMode::Bool(false)),
        external: Some(is_external),
        inject: Some(vec![shim("__dirname"), shim("__filename")]),
        // Licence comments stay (they are the packages' terms); documentation comments go.
        comments: Some(CommentsOptions { legal: true, annotation: false, jsdoc: false }),
        minify: Some(RawMinifyOptions::DeadCodeEliminationOnly),
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
