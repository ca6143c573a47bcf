//! Bundling with real npm packages (`testdata/npm` and `testdata/pnpm`, installed from their
//! lockfiles by the tests): every import form D10 in docs/decisions.md names is built, copied away from the
//! source tree and run under node, and must answer what its handler computes; the forms that would
//! fail at run time are diagnosed at the importing line; packages shipped whole run relocated; an
//! artifact survives being published through git with `node_modules/` ignored.

use crate::common;

use std::collections::BTreeMap;
use std::process::Command;

use agent_bundle::artifact::{ArtifactManifest, IndexRow, read_verified};
use agent_bundle::driver::{BuildOptions, build};
use agent_bundle::io::RealDisk;
use camino::{Utf8Path, Utf8PathBuf};
use common::{copy_tree, npm_fixture, pnpm_fixture, read_tree, require_node, run_wrapper};
use serde_json::json;

/// Builds a bundle into a temporary folder, then copies the artifact into another, fresh one:
/// nothing of the source tree (and none of its node_modules) is above the copy.
fn build_relocated(root: &Utf8Path) -> (tempfile::TempDir, Utf8PathBuf, ArtifactManifest) {
    let built = tempfile::tempdir().unwrap();
    let output = Utf8PathBuf::from_path_buf(built.path().join("artifact")).unwrap();
    let options =
        BuildOptions { root: root.to_path_buf(), output: Some(output.clone()), no_cache: true, ..Default::default() };
    let report = build(&options, &RealDisk).unwrap();
    let errors: Vec<String> =
        report.diagnostics().iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect();
    assert!(errors.is_empty(), "building {root} failed: {errors:#?}");

    let elsewhere = tempfile::tempdir().unwrap();
    let moved = Utf8PathBuf::from_path_buf(elsewhere.path().join("plugin")).unwrap();
    copy_tree(output.as_std_path(), moved.as_std_path());
    drop(built);
    // Nothing in the artifact may point back into the source tree.
    let source_tree = std::env::current_dir().unwrap().to_string_lossy().into_owned();
    for (path, bytes) in read_tree(&moved) {
        assert!(!String::from_utf8_lossy(&bytes).contains(&source_tree), "{path} names the source tree {source_tree}");
    }
    let manifest = read_verified(&moved, &RealDisk).unwrap();
    (elsewhere, moved, manifest)
}

fn tool_input(command: &str) -> serde_json::Value {
    json!({
        "sessionId": "s", "transcriptPath": "/t.jsonl", "cwd": "/w", "toolName": "Bash",
        "toolInput": { "command": command }, "toolUseId": "t1", "toolResponse": { "stdout": "" }
    })
}

/// Runs a hook's wrapper as the host would; returns its additionalContext (or the failure).
fn context_of(artifact: &Utf8Path, row: &IndexRow, command: &str) -> Result<String, String> {
    let envelope = agent_bundle::tools::simulate::encode(row, &tool_input(command)).unwrap();
    let run = run_wrapper(artifact, &row.path, agent_bundle::vocabulary::json::compact(&envelope).as_bytes(), &[]);
    if run.code != Some(0) {
        return Err(run.stderr);
    }
    let answer: serde_json::Value = serde_json::from_str(&run.stdout).map_err(|e| format!("{e}: {}", run.stdout))?;
    Ok(answer["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or_default().to_string())
}

/// The index row of the hook whose handler is `src/hooks/<handler>.ts`.
fn row<'m>(manifest: &'m ArtifactManifest, handler: &str) -> &'m IndexRow {
    let slug = format!("-{handler}-");
    manifest.hooks.iter().find(|r| r.name.contains(&slug)).unwrap_or_else(|| panic!("no hook for {handler}"))
}

#[test]
fn every_import_form_runs_from_a_relocated_artifact() {
    require_node();
    let npm = npm_fixture();
    let (_guard, artifact, manifest) = build_relocated(&npm.join("bundles/packages"));
    let expected = [
        ("lodash-es", "lodash-es bash-tool-ran"),
        ("lodash-cjs", "lodash helloBigWorld 2"),
        ("date-fns", "date-fns 2026-12-01"),
        ("zod", "zod rm -rf /"),
        ("yaml", "yaml 2 b: true"),
        ("semver-subpath", "semver true"),
        ("mime-types", "mime application/json"),
        ("nested-versions", "glob true minimatch true"),
        ("two-versions", "semver 7 make-dir function"),
        ("workspace-ts", "workspace deny"),
        ("conditions", "uuid true"),
        ("json", "json 2 rules"),
        ("dynamic-import", "dyn lazy-module"),
        ("syntax", "syntax n1 disposed,next"),
        ("package-imports", "hello imports"),
        ("tsconfig-paths", "PATHS!"),
    ];
    let mut failures = BTreeMap::new();
    for (handler, want) in expected {
        match context_of(&artifact, row(&manifest, handler), "rm -rf /") {
            Ok(got) if got == want => {}
            other => {
                failures.insert(handler, format!("{other:?}, expected {want:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // No package folder travels with bundled handlers.
    assert!(read_tree(&artifact).keys().all(|p| !p.contains("node_modules")));
}

#[test]
fn a_throw_inside_a_package_names_the_package_and_the_handlers_own_line() {
    require_node();
    let npm = npm_fixture();
    let (_guard, artifact, manifest) = build_relocated(&npm.join("bundles/packages"));
    let failure = context_of(&artifact, row(&manifest, "throws-in-package"), "x").unwrap_err();
    assert_eq!(failure.lines().count(), 1, "{failure}");
    assert!(failure.contains("the handler threw: ZodError"), "{failure}");
    assert!(failure.contains("(at ../../node_modules/zod/lib/index.mjs:"), "{failure}");
    assert!(failure.trim_end().ends_with("called from src/hooks/throws-in-package.ts:4:37)"), "{failure}");
}

#[test]
fn each_importer_gets_the_copy_of_a_package_it_resolves_to() {
    let npm = npm_fixture();
    let (_guard, artifact, _) = build_relocated(&npm.join("bundles/packages"));
    let sources = |handler: &str| -> Vec<String> {
        let map =
            std::fs::read_to_string(artifact.join(format!("hooks/handlers/src/hooks/{handler}.mjs.map"))).unwrap();
        let map: serde_json::Value = serde_json::from_str(&map).unwrap();
        map["sources"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
    };
    let has = |list: &[String], prefix: &str| list.iter().any(|s| s.starts_with(prefix));
    // glob@7 keeps its nested minimatch@3; the handler's own import gets minimatch@10.
    let nested = sources("nested-versions");
    assert!(has(&nested, "../../node_modules/glob/node_modules/minimatch/"), "{nested:#?}");
    assert!(has(&nested, "../../node_modules/minimatch/dist/"), "{nested:#?}");
    // semver@7 for the handler, semver@6 nested under make-dir.
    let versions = sources("two-versions");
    assert!(has(&versions, "../../node_modules/make-dir/node_modules/semver/"), "{versions:#?}");
    assert!(has(&versions, "../../node_modules/semver/"), "{versions:#?}");
    // The workspace sibling's TypeScript source was compiled into the bundle.
    assert!(has(&sources("workspace-ts"), "../../workspace/shared-ts/src/index.ts"));
}

#[test]
fn bundles_are_tree_shaken() {
    let npm = npm_fixture();
    let (_guard, artifact, _) = build_relocated(&npm.join("bundles/packages"));
    let bundle = std::fs::read_to_string(artifact.join("hooks/handlers/src/hooks/lodash-es.mjs")).unwrap();
    assert!(bundle.contains("function kebabCase") || bundle.contains("kebabCase"));
    // lodash-es has some 600 modules; a kebabCase handler carries none of the unrelated ones.
    for unused in ["function zipObjectDeep", "function debounce", "function cloneDeep"] {
        assert!(!bundle.contains(unused), "the bundle carries {unused}");
    }
}

/// The relative specifiers a bundle imports from, statically (`from "…"`, `import "…"`) and
/// dynamically (`import("…")`).
fn relative_imports(code: &str) -> (Vec<String>, Vec<String>) {
    let quoted = |rest: &str| rest.split(['"', '\'']).nth(1).map(str::to_string);
    let (mut statics, mut dynamics) = (Vec::new(), Vec::new());
    for (i, _) in code.match_indices("import") {
        let rest = &code[i + "import".len()..];
        if let Some(dynamic) = rest.strip_prefix('(') {
            dynamics.extend(quoted(dynamic).filter(|s| s.starts_with('.')));
        } else if let Some(line) = rest.lines().next()
            && (line.contains(" from ") || line.trim_start().starts_with(['"', '\'']))
        {
            statics.extend(quoted(line.rsplit(" from ").next().unwrap_or(line)).filter(|s| s.starts_with('.')));
        }
    }
    (statics, dynamics)
}

#[test]
fn handlers_sharing_modules_start_from_one_file_and_a_dynamic_import_keeps_its_chunk() {
    require_node();
    let npm = npm_fixture();
    let (_guard, artifact, manifest) = build_relocated(&npm.join("bundles/packages"));
    let tree = read_tree(&artifact);
    let handlers: Vec<&String> =
        tree.keys().filter(|p| p.starts_with("hooks/handlers/src/") && p.ends_with(".mjs")).collect();
    assert!(handlers.len() >= 15, "{handlers:#?}");
    for handler in &handlers {
        let (statics, dynamics) = relative_imports(&String::from_utf8_lossy(&tree[*handler]));
        // Shared modules (lodash-es is imported by two handlers, greet.ts by several) are folded in:
        // a hook loads its entry and nothing beside it, except what it imports lazily.
        assert!(statics.is_empty(), "{handler} imports {statics:?} at start-up");
        if handler.ends_with("/dynamic-import.mjs") {
            assert!(dynamics.iter().all(|d| d.contains("/chunks/")), "{dynamics:?}");
            assert_eq!(dynamics.len(), 2, "lodash-es and lazy.ts stay lazy: {dynamics:?}");
        } else {
            assert!(dynamics.is_empty(), "{handler} imports {dynamics:?}");
        }
    }
    // The chunks shipped are exactly the ones a lazy import loads, and the handler runs with them.
    let chunks: Vec<&String> = tree.keys().filter(|p| p.contains("/chunks/") && p.ends_with(".mjs")).collect();
    assert!(!chunks.is_empty() && chunks.len() <= 3, "{chunks:#?}");
    assert_eq!(context_of(&artifact, row(&manifest, "dynamic-import"), "x").as_deref(), Ok("dyn lazy-module"));
    // A folded map still names the original sources, the package's and the handler's own.
    let map = String::from_utf8_lossy(&tree["hooks/handlers/src/hooks/lodash-es.mjs.map"]).into_owned();
    assert!(map.contains("\"src/hooks/lodash-es.ts\"") && map.contains("node_modules/lodash-es/"), "{map}");
}

#[test]
fn imports_that_would_fail_at_run_time_are_diagnosed_at_their_line() {
    let npm = npm_fixture();
    let temp = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        root: npm.join("bundles/failing"),
        output: Some(Utf8PathBuf::from_path_buf(temp.path().join("artifact")).unwrap()),
        no_cache: true,
        ..Default::default()
    };
    let report = build(&options, &RealDisk).unwrap();
    let found: Vec<String> = report
        .diagnostics()
        .iter()
        .map(|d| {
            let at = d.primary_location().unwrap();
            let hint = d.hint.as_deref().unwrap_or("(none)");
            format!("{} {}:{}:{} {}\n    hint: {hint}", d.code, at.file, at.line, at.column, d.message)
        })
        .collect();
    insta::assert_snapshot!(found.join("\n"));
    assert!(!temp.path().join("artifact").exists(), "a failed build writes nothing");
}

#[test]
fn packages_shipped_whole_run_relocated_with_their_dependencies() {
    require_node();
    let npm = npm_fixture();
    let (_guard, artifact, manifest) = build_relocated(&npm.join("bundles/shipped"));
    // The compiled addon itself answered (its JavaScript fallback would not be native code), and
    // figlet found its font files next to it.
    assert_eq!(context_of(&artifact, row(&manifest, "native"), "x").unwrap(), "native true figlet 6");
    let shipped: Vec<String> = manifest
        .shipped
        .iter()
        .map(|p| {
            let native: Vec<String> =
                p.native.iter().map(|b| format!("{} {} {}", b.path, b.systems.join("+"), b.abi)).collect();
            format!("{}@{} {} [{}]", p.name, p.version, p.path, native.join(", "))
        })
        .collect();
    // Each compiled addon with what its header and symbols say it was built for.
    assert_eq!(
        shipped,
        [
            "bufferutil@4.0.9 hooks/node_modules/bufferutil [prebuilds/darwin-x64+arm64/bufferutil.node darwin-arm64+darwin-x64 napi, \
             prebuilds/linux-x64/bufferutil.node linux-x64 napi, prebuilds/win32-ia32/bufferutil.node win32-ia32 napi, \
             prebuilds/win32-x64/bufferutil.node win32-x64 napi]"
                .to_string(),
            "figlet@1.8.0 hooks/node_modules/figlet []".to_string(),
            "node-gyp-build@4.8.4 hooks/node_modules/node-gyp-build []".to_string(),
        ]
    );
    // What they leave out is said at build time: bufferutil has no linux-arm64 build.
    let report = build(
        &BuildOptions {
            root: npm.join("bundles/shipped"),
            output: Some(Utf8PathBuf::from_path_buf(tempfile::tempdir().unwrap().path().join("a")).unwrap()),
            no_cache: true,
            ..Default::default()
        },
        &RealDisk,
    )
    .unwrap();
    let coverage: Vec<String> =
        report.diagnostics().iter().filter(|d| d.code.as_str() == "AB4857").map(|d| format!("{d:?}")).collect();
    assert_eq!(coverage.len(), 1, "{coverage:?}");
    assert!(
        coverage[0].contains("bufferutil") && coverage[0].contains("on linux-arm64 the hook cannot load it"),
        "{}",
        coverage[0]
    );
    // Modes travel: figlet's command-line entry stays executable, with exactly its installed mode.
    let record = manifest.files.iter().find(|f| f.path == "hooks/node_modules/figlet/bin/index.js").unwrap();
    let installed = agent_bundle::io::mode(&npm.join("node_modules/figlet/bin/index.js"));
    assert!(record.mode.is_some_and(|mode| mode & 0o111 != 0), "{record:?}");
    assert_eq!(record.mode, installed);
    assert_eq!(agent_bundle::io::mode(&artifact.join(&record.path)), installed);
}

#[test]
fn a_plugin_published_through_git_with_node_modules_ignored_still_runs() {
    require_node();
    let found = Command::new("git").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(found, "this test publishes an artifact through git, and `git` is not on PATH; install it");
    let npm = npm_fixture();
    for bundle in ["packages", "shipped"] {
        let (_guard, artifact, _) = build_relocated(&npm.join("bundles").join(bundle));
        let git = |dir: &Utf8Path, args: &[&str]| {
            let output = Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"])
                .args(args)
                .current_dir(dir)
                .output()
                .unwrap();
            assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
        };
        // A plugin repository with the ordinary JavaScript .gitignore.
        std::fs::write(artifact.join(".gitignore"), "node_modules/\n*.log\n").unwrap();
        git(&artifact, &["init", "-q"]);
        git(&artifact, &["add", "."]);
        git(&artifact, &["commit", "-qm", "publish"]);
        let clones = tempfile::tempdir().unwrap();
        let clone = Utf8PathBuf::from_path_buf(clones.path().join("clone")).unwrap();
        git(Utf8Path::from_path(clones.path()).unwrap(), &["clone", "-q", artifact.as_str(), clone.as_str()]);
        let manifest = read_verified(&clone, &RealDisk).unwrap_or_else(|e| panic!("{bundle}: {e}"));
        for row in &manifest.hooks {
            if row.name.contains("throws") {
                continue;
            }
            assert!(context_of(&clone, row, "x").is_ok(), "{bundle} {} fails after a git round trip", row.name);
        }
    }
}

#[test]
fn a_pnpm_project_bundles_from_real_paths() {
    require_node();
    let pnpm = pnpm_fixture();
    let (_guard, artifact, manifest) = build_relocated(&pnpm);
    assert_eq!(context_of(&artifact, row(&manifest, "pnpm"), "Rm Rf").unwrap(), "pnpm rm-rf function true");
}

#[test]
fn simulate_runs_the_artifact_away_from_the_source_tree() {
    require_node();
    let npm = npm_fixture();
    // Built inside the source tree, beside node_modules that hold the package chosen at run time.
    let inside = tempfile::Builder::new().prefix(".in-tree-").tempdir_in(npm.as_std_path()).unwrap();
    let artifact = Utf8PathBuf::from_path_buf(inside.path().join("artifact")).unwrap();
    let options = BuildOptions {
        root: npm.join("bundles/in-tree"),
        output: Some(artifact.clone()),
        no_cache: true,
        ..Default::default()
    };
    assert!(!build(&options, &RealDisk).unwrap().has_errors());
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let hook = &manifest.hooks[0];
    // Run where it was built, it passes only thanks to the source tree's node_modules …
    assert_eq!(context_of(&artifact, hook, "x").unwrap(), "       x");
    // … which `hooks simulate` does not let it see.
    let request = agent_bundle::tools::simulate::SimulateRequest {
        artifact: artifact.clone(),
        target: hook.host,
        hook: hook.name.clone(),
        input: agent_bundle::tools::simulate::SimulateInput::Canonical(tool_input("x")),
        timeout: None,
        place: Default::default(),
    };
    let simulation = agent_bundle::tools::simulate::simulate(&request, &RealDisk).unwrap();
    assert_eq!(simulation.exit_code, Some(1), "{}", simulation.stdout);
    assert!(simulation.stderr.contains("Cannot find module 'left-pad'"), "{}", simulation.stderr);
    assert!(
        simulation.stderr.contains(artifact.as_str()),
        "paths are shown as the artifact's own: {}",
        simulation.stderr
    );
}

#[test]
fn real_packages_build_to_the_same_bytes_every_time() {
    let npm = npm_fixture();
    let (_a, first, _) = build_relocated(&npm.join("bundles/packages"));
    let (_b, second, _) = build_relocated(&npm.join("bundles/packages"));
    assert_eq!(read_tree(&first), read_tree(&second));
}

/// `bundle.define` (issue 43) replaces names where the bundle's code reads them, as tsup's and
/// esbuild's `define` do, and is part of the bundle cache's key: a build with other values, from the
/// same cache, carries the new ones.
#[test]
fn defined_constants_are_replaced_at_bundling_and_key_the_cache() {
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    let cache = Utf8PathBuf::from_path_buf(work.path().join("cache")).unwrap();
    let config = |mode: &str| {
        format!(
            "export default {{\n  hooks: {{ sessionStart: './src/hooks/start.ts' }},\n  \
             bundle: {{ define: {{ __VERSION__: '\"1.2.3\"', 'process.env.MODE': '{mode}', DEBUG: false }} }},\n  \
             plugin: {{ name: 'defines', description: 'Constants.', version: '1.0.0', author: 'agent-bundle tests' }},\n  \
             targets: ['claude'],\n}};\n"
        )
    };
    common::write_file(
        &bundle,
        "src/hooks/start.ts",
        "declare const __VERSION__: string;\ndeclare const DEBUG: boolean;\n\
         export default () => ({ additionalContext: `v${__VERSION__} ${process.env.MODE} debug ${DEBUG}` });\n",
    );
    let mut seen = Vec::new();
    for mode in ["\"\\\"production\\\"\"", "\"\\\"staging\\\"\""] {
        common::write_file(&bundle, "agent-bundle.config.ts", &config(&serde_json::from_str::<String>(mode).unwrap()));
        let output = Utf8PathBuf::from_path_buf(work.path().join("artifact")).unwrap();
        let options = BuildOptions {
            root: Utf8PathBuf::from_path_buf(bundle.clone()).unwrap(),
            output: Some(output.clone()),
            cache_dir: Some(cache.clone()),
            ..Default::default()
        };
        let report = build(&options, &RealDisk).unwrap();
        assert!(!report.has_errors(), "{:?}", report.diagnostics());
        let code = std::fs::read_to_string(output.join("hooks/handlers/src/hooks/start.mjs")).unwrap();
        assert!(!code.contains("__VERSION__") && !code.contains("process.env.MODE"), "{code}");
        seen.push(code);
    }
    // The bundler folds the constants into the template.
    assert!(seen[0].contains("v1.2.3 production debug false"), "{}", seen[0]);
    assert!(seen[1].contains("v1.2.3 staging debug false"), "the cache kept the old value: {}", seen[1]);
}
