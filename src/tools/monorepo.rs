//! `init --monorepo turbo|nx`: the configuration through which a monorepo engine caches and shares
//! the builds of a workspace's bundles (D15). For every bundle under the workspace root it writes
//! the engine's task with what `inspect --inputs` finds the build reads and writes: Turborepo's
//! package `turbo.json` (the root one when missing), Nx's `project.json` target (the root `nx.json`
//! when missing). Only the `build` task is agent-bundle's: other keys of a file are kept. `--check`
//! writes nothing and says what is out of date. [`check_declared`] is the other half: a build the
//! engine runs refuses, rather than be cached under a hash that misses an input, when it reads a
//! file outside its package that the task does not declare, or when the compiler the engine hashed
//! is not the one running.

use camino::{Utf8Path, Utf8PathBuf};
use serde_json::{Value, json};

use super::inputs::{self, Inputs};
pub use crate::driver::engines::Engine;
use crate::driver::engines::{PROGRAM, TASK, read_json};
use crate::io::Disk;

/// What `init --monorepo` did (or, checking, would do), workspace-relative paths.
#[derive(Debug, Default)]
pub struct MonorepoReport {
    pub written: Vec<String>,
    pub unchanged: Vec<String>,
    /// Bundles the engine cannot run as they are, each with what to do.
    pub notes: Vec<String>,
}

/// Writes (or with `check`, compares) the engine's configuration for every bundle under `workspace`.
pub fn init(workspace: &Utf8Path, engine: Engine, check: bool, disk: &dyn Disk) -> Result<MonorepoReport, String> {
    let workspace = disk.canonicalize(workspace).ok_or_else(|| format!("`{workspace}` is not a folder"))?;
    let bundles = crate::pipeline::discover::find_bundles(&workspace, disk)
        .map_err(|e| format!("cannot walk `{workspace}`: {e}"))?;
    if bundles.is_empty() {
        return Err(format!("no bundle (a folder with agent-bundle.config.ts) under `{workspace}`"));
    }
    let mut report = MonorepoReport::default();
    let mut files: Vec<(Utf8PathBuf, Value)> = Vec::new();
    let root_file = workspace.join(engine.root_file());
    if !disk.is_file(&root_file) {
        files.push((root_file.clone(), root_config(engine)));
    } else if engine == Engine::Turbo {
        check_root_task(&root_file, disk)?;
    }
    for bundle in &bundles {
        let within = bundle.strip_prefix(&workspace).expect("found under the workspace");
        let found = inputs::inputs(bundle, disk).map_err(|e| format!("{within}: {e}"))?;
        let package = read_json(&bundle.join("package.json"), disk)?;
        match package.as_ref().and_then(|p| p.pointer(&format!("/scripts/{TASK}"))) {
            Some(script) if script.as_str().is_some_and(|s| s.contains("agent-bundle build")) => {}
            Some(script) => report.notes.push(format!(
                "{within}/package.json: its `{TASK}` script is {script}, not an agent-bundle build; {} runs that script",
                engine.name()
            )),
            None if engine == Engine::Turbo => report.notes.push(format!(
                "{within}: Turborepo runs a package's `{TASK}` script, and {within}/package.json has none: add \"{TASK}\": \"{PROGRAM} build\" to its scripts (and the folder to the workspace's packages)"
            )),
            None => {}
        }
        let path = bundle.join(engine.bundle_file());
        let existing = read_json(&path, disk)?;
        let name = package
            .as_ref()
            .and_then(|p| p.get("name")?.as_str().map(str::to_string))
            .unwrap_or_else(|| bundle.file_name().unwrap_or("bundle").to_string());
        files.push((path, bundle_config(engine, &found, within, existing, &name)?));
    }
    for (path, value) in files {
        let relative = path.strip_prefix(&workspace).expect("under the workspace").to_string();
        let mut text = crate::vocabulary::json::pretty_value(&value);
        text.push('\n');
        if disk.read_to_string(&path).is_ok_and(|old| old == text) {
            report.unchanged.push(relative);
            continue;
        }
        if !check {
            std::fs::write(&path, text).map_err(|e| format!("cannot write `{path}`: {e}"))?;
        }
        report.written.push(relative);
    }
    Ok(report)
}

/// The workspace's configuration, written when it has none: the `build` task every bundle's own
/// configuration extends.
fn root_config(engine: Engine) -> Value {
    match engine {
        // Where agent-bundle keeps its cache changes no output: it reaches the tasks, unhashed, through
        // Turborepo's strict environment mode.
        Engine::Turbo => json!({
            "$schema": "https://turborepo.com/schema.json",
            "globalPassThroughEnv": ["AGENT_BUNDLE_CACHE_DIR", "XDG_CACHE_HOME"],
            "tasks": { TASK: { "outputs": ["artifact/**"] } },
        }),
        Engine::Nx => json!({
            "targetDefaults": { TASK: { "cache": true } },
        }),
    }
}

/// A root `turbo.json` the user wrote must define the task the bundles' configurations extend.
fn check_root_task(path: &Utf8Path, disk: &dyn Disk) -> Result<(), String> {
    let root = read_json(path, disk)?.unwrap_or_default();
    if root.pointer(&format!("/tasks/{TASK}")).is_none() {
        return Err(format!(
            "`{path}` has no `tasks.{TASK}`, which each bundle's turbo.json extends: add \"{TASK}\": {{ \"outputs\": [\"artifact/**\"] }} to its tasks"
        ));
    }
    Ok(())
}

/// A bundle's configuration: `existing` (when there is one) with its `build` task replaced.
fn bundle_config(
    engine: Engine,
    found: &Inputs,
    within: &Utf8Path,
    existing: Option<Value>,
    name: &str,
) -> Result<Value, String> {
    let (mut config, task) = match engine {
        Engine::Turbo => (
            existing.unwrap_or_else(|| json!({ "$schema": "https://turborepo.com/schema.json", "extends": ["//"] })),
            inputs::turbo_task(found, within)?,
        ),
        Engine::Nx => (existing.unwrap_or_else(|| json!({ "name": name })), inputs::nx_target(found, within)?),
    };
    let key = match engine {
        Engine::Turbo => "tasks",
        Engine::Nx => "targets",
    };
    let Value::Object(object) = &mut config else { return Err(format!("{within}: its {key} file is not an object")) };
    let tasks = object.entry(key).or_insert_with(|| json!({}));
    let Value::Object(tasks) = tasks else { return Err(format!("{within}: its `{key}` is not an object")) };
    tasks.insert(TASK.to_string(), task);
    Ok(config)
}
