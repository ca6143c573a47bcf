//! A monorepo engine running a build as one of its tasks (D15): which engine it is, and the guard
//! that refuses a build the engine would cache wrongly: under another compiler's hash (Turborepo),
//! or under a key that misses a file the build read outside its package. `init --monorepo`
//! (`tools::monorepo`) writes the engines' configuration this guard reads.

use camino::{Utf8Path, Utf8PathBuf};
use serde_json::Value;

use crate::io::Disk;

/// The environment variable through which a monorepo engine hashes the compiler: its value must be
/// [`crate::artifact::compiler_id`] (`cargo agent-bundle inspect --compiler-id`), and a build run
/// by Turborepo refuses to run when it is not, so a cached artifact is never restored for another
/// compiler.
pub const COMPILER_VARIABLE: &str = "AGENT_BUNDLE_COMPILER";

/// How the engines' configuration runs agent-bundle: the binary `cargo install` puts on PATH, called
/// as cargo calls it (`cargo agent-bundle …` needs cargo too).
pub const PROGRAM: &str = "cargo-agent-bundle agent-bundle";

/// A monorepo engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Turbo,
    Nx,
}

impl Engine {
    pub fn from_name(name: &str) -> Option<Engine> {
        match name {
            "turbo" | "turborepo" => Some(Engine::Turbo),
            "nx" => Some(Engine::Nx),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Turbo => "Turborepo",
            Engine::Nx => "Nx",
        }
    }

    /// The workspace's own configuration file, written when missing.
    pub fn root_file(self) -> &'static str {
        match self {
            Engine::Turbo => "turbo.json",
            Engine::Nx => "nx.json",
        }
    }

    /// A bundle's configuration file, in its folder.
    pub fn bundle_file(self) -> &'static str {
        match self {
            Engine::Turbo => "turbo.json",
            Engine::Nx => "project.json",
        }
    }
}

/// The name of the task agent-bundle declares.
pub const TASK: &str = "build";

/// The workspace a bundle belongs to: the nearest folder at or above it holding a monorepo engine's
/// configuration or a package manager's workspace (a root `turbo.json`, `nx.json`,
/// `pnpm-workspace.yaml`, a `package.json` with `workspaces`), else the nearest git checkout, else the
/// bundle itself.
pub fn workspace_root(bundle: &Utf8Path, disk: &dyn Disk) -> Utf8PathBuf {
    let json = |path: Utf8PathBuf| disk.read_to_string(&path).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok());
    // A package's own turbo.json extends the root one (`"extends": ["//"]`): only the root's counts.
    let declares = |folder: &Utf8Path| {
        ["nx.json", "pnpm-workspace.yaml"].iter().any(|name| disk.is_file(&folder.join(name)))
            || (disk.is_file(&folder.join("turbo.json"))
                && json(folder.join("turbo.json")).is_none_or(|turbo| turbo.get("extends").is_none()))
            || json(folder.join("package.json")).is_some_and(|manifest| manifest.get("workspaces").is_some())
    };
    bundle
        .ancestors()
        .find(|folder| declares(folder))
        .or_else(|| bundle.ancestors().find(|folder| disk.exists(&folder.join(".git"))))
        .unwrap_or(bundle)
        .to_path_buf()
}

pub fn read_json(path: &Utf8Path, disk: &dyn Disk) -> Result<Option<Value>, String> {
    match disk.read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
            format!("`{path}` is not JSON agent-bundle can read ({e}); fix it, or remove it to have it written")
        }),
        Err(_) => Ok(None),
    }
}

/// The engine running this process as one of its tasks, if any: Turborepo sets `TURBO_HASH` for its
/// tasks, Nx `NX_TASK_TARGET_PROJECT`. `env` reads a variable.
pub fn running_engine(env: &dyn Fn(&str) -> Option<String>) -> Option<Engine> {
    if env("TURBO_HASH").is_some() {
        Some(Engine::Turbo)
    } else if env("NX_TASK_TARGET_PROJECT").is_some() {
        Some(Engine::Nx)
    } else {
        None
    }
}

/// For a build Turborepo runs: `Err` with what to do when the compiler it hashed
/// (`AGENT_BUNDLE_COMPILER`) is not this one, so that it never caches this build's artifact under
/// another compiler's hash. (Nx runs `inspect --compiler-id` itself, a runtime input.)
pub fn check_compiler(env: &dyn Fn(&str) -> Option<String>) -> Result<(), String> {
    if running_engine(env) != Some(Engine::Turbo) {
        return Ok(());
    }
    let id = crate::artifact::compiler_id();
    if env(COMPILER_VARIABLE).as_deref() == Some(id.as_str()) {
        return Ok(());
    }
    let given = env(COMPILER_VARIABLE).map_or("unset".to_string(), |v| format!("`{v}`"));
    Err(format!(
        "Turborepo runs this build with {COMPILER_VARIABLE} {given}, and this compiler is `{id}`: Turborepo hashes the compiler through that variable, so a cached artifact would be restored for another compiler; run turbo with {COMPILER_VARIABLE}=\"$({PROGRAM} inspect --compiler-id)\""
    ))
}

/// For a build an engine runs: `Err` with what to do when it read a file outside its package that the
/// bundle's task does not declare, so the engine's cache key misses it (the task fails instead of
/// being cached). `read` is every file the build read (absolute).
pub fn check_declared(
    bundle: &Utf8Path,
    read: &[Utf8PathBuf],
    env: &dyn Fn(&str) -> Option<String>,
    disk: &dyn Disk,
) -> Result<(), String> {
    let Some(engine) = running_engine(env) else { return Ok(()) };
    let Some(canonical) = disk.canonicalize(bundle) else { return Ok(()) };
    let workspace = workspace_root(&canonical, disk);
    let config = read_json(&canonical.join(engine.bundle_file()), disk)?.unwrap_or_default();
    let (pointer, prefix, flag) = match engine {
        Engine::Turbo => (format!("/tasks/{TASK}/inputs"), "$TURBO_ROOT$/", "turbo"),
        Engine::Nx => (format!("/targets/{TASK}/inputs"), "{workspaceRoot}/", "nx"),
    };
    let declared: Vec<&str> =
        config.pointer(&pointer).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let undeclared: Vec<String> = read
        .iter()
        .filter(|path| !path.starts_with(&canonical) && !path.as_str().contains("/node_modules/"))
        .filter(|path| disk.is_file(path))
        .filter_map(|path| path.strip_prefix(&workspace).ok())
        .filter(|relative| !declared.contains(&format!("{prefix}{relative}").as_str()))
        .map(|relative| format!("`{relative}`"))
        .collect();
    if undeclared.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} runs this build, and it reads {} outside the bundle's package, which its {} does not declare: the cache key would miss them; run `{PROGRAM} init --monorepo {flag}` in the workspace",
        engine.name(),
        undeclared.join(", "),
        engine.bundle_file(),
    ))
}
