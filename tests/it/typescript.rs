//! agent-bundle's TypeScript declarations under the real `tsc` (TypeScript and @types/node pinned in
//! `testdata/typescript`, installed by the tests): every bundle in `testdata/bundles/`, the README's
//! examples and a new `init` bundle type-check with `--strict`; each classic mistake of
//! `testdata/types/mistakes` is a type error; `types` keeps a bundle's tsconfig and declarations
//! right, and `build` warns when they are not.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cli, copy_tree, npm_installed};

/// The pinned `tsc`, installed on first use.
fn tsc() -> PathBuf {
    npm_installed(camino::Utf8Path::new("testdata/typescript"));
    std::fs::canonicalize("testdata/typescript/node_modules/.bin/tsc").expect("typescript is installed")
}

/// `tsc --noEmit -p <dir>`: its exit code and output.
fn type_check(dir: &Path) -> (Option<i32>, String) {
    let output =
        Command::new(tsc()).current_dir(dir).args(["--noEmit", "-p", "."]).output().expect("tsc runs under node");
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.code(), text)
}

/// Runs `cargo agent-bundle <args>` in `dir`, asserting it succeeds.
fn agent_bundle(dir: &Path, args: &[&str]) -> String {
    let output = cli().current_dir(dir).arg("agent-bundle").args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{args:?} in {}: {stdout}{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A copy of `bundle` with agent-bundle's declarations written by `cargo agent-bundle types`. Node's
/// own types come from the pinned fixture (the bundles import `node:fs`; a user has them from their
/// own `npm install @types/node`).
fn typed_copy(bundle: &Path) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    copy_tree(bundle, temp.path());
    agent_bundle(temp.path(), &["types"]);
    let tsconfig_path = temp.path().join("tsconfig.json");
    let mut tsconfig: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tsconfig_path).unwrap()).unwrap();
    let types = std::fs::canonicalize("testdata/typescript/node_modules/@types").unwrap();
    tsconfig["compilerOptions"]["typeRoots"] = serde_json::json!([types]);
    tsconfig["compilerOptions"]["types"] = serde_json::json!(["node"]);
    std::fs::write(&tsconfig_path, tsconfig.to_string()).unwrap();
    temp
}

#[test]
fn every_testdata_bundle_type_checks_strictly() {
    tsc();
    for bundle in common::testdata_bundles() {
        let copy = typed_copy(&bundle);
        let (code, output) = type_check(copy.path());
        assert_eq!(code, Some(0), "{}:\n{output}", bundle.display());
    }
}

/// The README's TypeScript examples, each as the file it shows (a `// src/…` first line names it;
/// otherwise it is the config), in a bundle of its own.
#[test]
fn the_readme_examples_type_check_strictly() {
    tsc();
    let readme = std::fs::read_to_string("README.md").unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match (&mut current, line) {
            (None, "```ts" | "```tsx") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), line) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(blocks.len() >= 3, "found {} examples", blocks.len());
    for block in blocks {
        let empty = tempfile::tempdir().unwrap();
        let file = match block.lines().next().and_then(|l| l.strip_prefix("// ")) {
            Some(path) if path.starts_with("src/") => path.to_string(),
            _ => "agent-bundle.config.ts".to_string(),
        };
        let path = empty.path().join(&file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &block).unwrap();
        let copy = typed_copy(empty.path());
        let (code, output) = type_check(copy.path());
        assert_eq!(code, Some(0), "README example {file}:\n{block}\n{output}");
    }
}

/// Every `@ts-expect-error` marker in the mistakes fixture, as (file, line of the code it marks).
fn markers(root: &Path) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(root).into_iter().map(|e| e.unwrap()) {
        let path = entry.path();
        let relative = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if !entry.file_type().is_file() || relative.starts_with(".agent-bundle") || relative == "tsconfig.json" {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let mut removed = 0;
        for (index, line) in text.lines().enumerate() {
            if line.contains("@ts-expect-error") {
                // The marked code's line once the marker lines above it are gone.
                found.push((relative.clone(), index + 1 - removed));
                removed += 1;
            }
        }
    }
    found.sort();
    found
}

#[test]
fn the_classic_mistakes_are_type_errors_each_at_its_line() {
    tsc();
    let copy = typed_copy(Path::new("testdata/types/mistakes"));
    // With the markers, tsc passes: every marked line has the error the marker expects.
    let (code, output) = type_check(copy.path());
    assert_eq!(code, Some(0), "{output}");
    let expected = markers(copy.path());
    assert!(expected.len() >= 19, "{expected:?}");
    // Without them, tsc fails at exactly those lines.
    for (file, _) in &expected {
        let path = copy.path().join(file);
        let text: String = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| !l.contains("@ts-expect-error"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&path, text).unwrap();
    }
    let (code, output) = type_check(copy.path());
    assert_eq!(code, Some(2), "{output}");
    let mut reported: Vec<(String, usize)> = output
        .lines()
        .filter_map(|line| {
            let (location, _) = line.split_once(": error TS")?;
            let (file, position) = location.split_once('(')?;
            Some((file.to_string(), position.split(',').next()?.parse().ok()?))
        })
        .collect();
    reported.sort();
    reported.dedup();
    assert_eq!(reported, expected, "{output}");
}

#[test]
fn init_writes_a_bundle_that_builds_simulates_and_type_checks_as_written() {
    tsc();
    let work = tempfile::tempdir().unwrap();
    let out = agent_bundle(
        work.path(),
        &["init", "release-guards", "--targets", "claude,codex,cursor", "--events", "sessionStart,beforeTool,stop"],
    );
    assert!(out.contains("Created a bundle in `release-guards`"), "{out}");
    let bundle = work.path().join("release-guards");
    for file in [
        "agent-bundle.config.ts",
        "package.json",
        "tsconfig.json",
        ".gitignore",
        "README.md",
        "src/hooks/before-tool.ts",
        "src/hooks/stop.ts",
        ".agent-bundle/types/agent-bundle/index.d.ts",
    ] {
        assert!(bundle.join(file).is_file(), "{file}");
    }
    // Handlers run under Node: one that uses `process`, `node:fs` and `node:child_process` type-checks
    // against the Node types package.json pins, installed as `npm install` would (the pin is the one
    // testdata/typescript installs, so the check is of that very version).
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(bundle.join("package.json")).unwrap()).unwrap();
    let installed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/typescript/node_modules/@types/node/package.json").unwrap(),
    )
    .unwrap();
    assert_eq!(package["devDependencies"]["@types/node"], installed["version"], "init pins the Node types tested here");
    // Its tests and vitest.config.ts are type-checked too, against vitest's own types.
    common::linked_test_packages(&bundle);
    std::fs::write(
        bundle.join("src/hooks/uses-node.ts"),
        "import type { HookHandler } from 'agent-bundle';\n\
         import { readFileSync } from 'node:fs';\n\
         import { execFileSync } from 'node:child_process';\n\n\
         export const note: HookHandler<'sessionStart'> = (event) => ({\n\
         \x20 additionalContext: `${event.cwd ?? process.cwd()}: ${readFileSync('package.json', 'utf8').length} bytes, git ${execFileSync('git', ['--version']).toString().trim()}`,\n\
         });\n",
    )
    .unwrap();
    // tsc with the tsconfig as init wrote it.
    let (code, output) = type_check(&bundle);
    assert_eq!(code, Some(0), "{output}");
    std::fs::remove_file(bundle.join("src/hooks/uses-node.ts")).unwrap();
    // It builds without a warning, and its guard works.
    let output = cli().current_dir(&bundle).args(["agent-bundle", "build"]).output().unwrap();
    assert!(output.status.success());
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("warning"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let list = agent_bundle(&bundle, &["hooks", "list", "--artifact", "artifact", "--target", "claude", "--json"]);
    let rows: serde_json::Value = serde_json::from_str(&list).unwrap();
    let guard = rows.as_array().unwrap().iter().find(|r| r["event"] == "beforeTool").unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    let input = r#"{"sessionId":"s","transcriptPath":"/tmp/t.jsonl","cwd":"/tmp/p","toolName":"Bash","toolInput":{"command":"rm -rf /"},"toolUseId":"t1"}"#;
    let simulated = agent_bundle(
        &bundle,
        &["hooks", "simulate", "--artifact", "artifact", "--target", "claude", "--hook", &guard, "--input", input],
    );
    assert!(simulated.contains(r#""permissionDecision":"deny""#), "{simulated}");
    // A second init refuses to overwrite it.
    let again = cli().current_dir(work.path()).args(["agent-bundle", "init", "release-guards"]).output().unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already holds a bundle"));
}

#[test]
fn types_keeps_the_tsconfig_and_declarations_right_and_build_says_when_they_are_not() {
    let work = tempfile::tempdir().unwrap();
    copy_tree(Path::new("testdata/bundles/page-event-route"), work.path());
    let build_warnings = |dir: &Path| {
        let output = cli().current_dir(dir).args(["agent-bundle", "inspect"]).output().unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    assert!(build_warnings(work.path()).contains("AB1030"), "no tsconfig: a warning");
    // An existing tsconfig without comments gets the missing keys, keeping its own.
    std::fs::write(
        work.path().join("tsconfig.json"),
        r#"{ "compilerOptions": { "strict": true, "target": "ES2022" } }"#,
    )
    .unwrap();
    agent_bundle(work.path(), &["types"]);
    let tsconfig: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("tsconfig.json")).unwrap()).unwrap();
    assert_eq!(tsconfig["compilerOptions"]["target"], "ES2022");
    assert_eq!(tsconfig["compilerOptions"]["jsxImportSource"], "@agent-bundle/runtime");
    assert!(tsconfig["compilerOptions"]["paths"]["agent-bundle"].is_array());
    assert!(!build_warnings(work.path()).contains("AB103"), "{}", build_warnings(work.path()));
    // Up to date: a second run writes nothing and --check passes.
    assert!(agent_bundle(work.path(), &["types"]).contains("0 written"));
    agent_bundle(work.path(), &["types", "--check"]);
    // Declarations of another version: build warns, --check fails.
    let index = work.path().join(".agent-bundle/types/agent-bundle/index.d.ts");
    let text = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, text.replacen("agent-bundle 0.", "agent-bundle 9.", 1)).unwrap();
    assert!(build_warnings(work.path()).contains("AB1031"));
    let check = cli().current_dir(work.path()).args(["agent-bundle", "types", "--check"]).output().unwrap();
    assert_eq!(check.status.code(), Some(1));
    // A tsconfig with comments is never rewritten: the error says what to add.
    let commented = "{\n  // mine\n  \"compilerOptions\": { \"strict\": true }\n}\n";
    std::fs::write(work.path().join("tsconfig.json"), commented).unwrap();
    let output = cli().current_dir(work.path()).args(["agent-bundle", "types"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("jsxImportSource"));
    assert_eq!(std::fs::read_to_string(work.path().join("tsconfig.json")).unwrap(), commented);
}

/// The declarations, regenerated from the tables and compared with their reviewed snapshots: a
/// change of a host table, an event or a rule shows up here as a diff of what authors type against.
#[test]
fn the_declarations_are_what_the_tables_generate() {
    let header = agent_bundle::tools::types::header();
    for (file, text) in agent_bundle::tools::types::declarations() {
        assert!(text.starts_with(&header), "{file}");
        // The header names the host tables' revision, which the snapshot should not pin twice.
        let body = text.strip_prefix(&header).unwrap();
        insta::assert_snapshot!(format!("declarations-{}", file.replace(['/', '@'], "_")), body);
    }
}

/// The runtime files an artifact ships (the Node runtime, the core alone beside a Claude Code hooks
/// module with its helpers, OpenCode's entry module, the shared route runtime's server), as the
/// artifacts of `claude-mod`, `ported-guards` and `shared-runtime` hold them (one of each text: the
/// check follows their imports), with the JSX runtime handlers import; each path relative to `root`,
/// the temporary folder holding the artifacts.
fn shipped_runtime(root: &Path) -> Vec<String> {
    let shipped = [
        "agent-bundle-runtime.mjs",
        "agent-bundle-core.mjs",
        "agent-bundle-mod-runtime.mjs",
        "agent-bundle-server.mjs",
    ];
    let mut files = Vec::new();
    let mut texts = std::collections::HashSet::new();
    for bundle in ["claude-mod", "ported-guards", "shared-runtime"] {
        let (_guard, artifact) = common::build_bundle(bundle);
        copy_tree(artifact.as_std_path(), &root.join(bundle));
        for entry in walkdir::WalkDir::new(root.join(bundle)).into_iter().map(|e| e.unwrap()) {
            let relative = entry.path().strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            let name = entry.file_name().to_string_lossy();
            let runtime = shipped.contains(&name.as_ref()) || relative.ends_with("opencode/plugin.mjs");
            if runtime && texts.insert(std::fs::read(entry.path()).unwrap()) {
                files.push(relative);
            }
        }
    }
    std::fs::copy("src/pipeline/bundle/agent-runtime.mjs", root.join("agent-runtime.mjs")).unwrap();
    files.push("agent-runtime.mjs".to_string());
    files.sort();
    for name in shipped.iter().chain(&["opencode/plugin.mjs"]) {
        assert!(files.iter().any(|f| f.ends_with(name)), "no {name} among {files:?}");
    }
    files
}

/// `tsc --noEmit` with `checkJs` and `strict` (but `noImplicitAny`: a parameter without JSDoc is
/// `any`) over the runtime's files as shipped, with the shapes their JSDoc names
/// (`src/pipeline/emit/runtime/types.d.ts`, which is not shipped) and Node's types.
fn check_runtime(root: &Path, files: &[String]) -> (Option<i32>, String) {
    std::fs::copy("src/pipeline/emit/runtime/types.d.ts", root.join("types.d.ts")).unwrap();
    let types = std::fs::canonicalize("testdata/typescript/node_modules/@types").unwrap();
    let mut all = vec!["types.d.ts".to_string()];
    all.extend(files.iter().cloned());
    let tsconfig = serde_json::json!({
        "compilerOptions": {
            "allowJs": true, "checkJs": true, "noEmit": true, "strict": true, "noImplicitAny": false,
            "target": "es2022", "lib": ["es2022"], "module": "nodenext", "moduleResolution": "nodenext",
            "typeRoots": [types], "types": ["node"],
        },
        "files": all,
    });
    std::fs::write(root.join("tsconfig.json"), tsconfig.to_string()).unwrap();
    type_check(root)
}

/// The runtime runs on every tool call of every user and is plain JavaScript: it is type-checked as
/// it ships, and a wrong type in it is an error the check reports.
#[test]
fn the_shipped_runtime_type_checks() {
    tsc();
    let work = tempfile::tempdir().unwrap();
    let files = shipped_runtime(work.path());
    let (code, output) = check_runtime(work.path(), &files);
    assert_eq!(code, Some(0), "the runtime as shipped has type errors:\n{output}");

    // The same check of a copy with one wrong type (a number where a failure's message is a string)
    // fails, naming the file.
    let runtime = files.iter().find(|f| f.ends_with("hooks/agent-bundle-runtime.mjs")).unwrap();
    let path = work.path().join(runtime);
    let text = std::fs::read_to_string(&path).unwrap();
    let right = "failureLine(contract, failureMessage(error))";
    assert_eq!(text.matches(right).count(), 1, "the runtime's failure line changed: update this check");
    std::fs::write(&path, text.replace(right, "failureLine(contract, 404)")).unwrap();
    let (code, output) = check_runtime(work.path(), &files);
    assert_ne!(code, Some(0), "a wrong type passed in the runtime must fail the check:\n{output}");
    assert!(output.contains(&format!("{runtime}(")) && output.contains("TS2345"), "{output}");
}
