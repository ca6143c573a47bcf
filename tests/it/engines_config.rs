//! What a monorepo engine needs from a build (issue 28, D15): `inspect --inputs` lists what the build
//! reads and writes (the bundle's files, files outside it, the lockfiles of the packages it read, the
//! compiler), the same from any checkout path; `init --monorepo turbo|nx` declares it to Turborepo and
//! Nx, and `--check` says when that declaration is out of date; a build run by an engine refuses to
//! run for another compiler than the one the engine hashed, and to succeed when it read a file
//! outside its package that its task does not declare (so the engine never caches it under a key
//! that misses an input). The real engines run in tests/it/turbo_remote_cache.rs and tests/it/nx_cache.rs.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::{copy_tree, write_file};
use serde_json::{Value, json};

const WORKSPACE: &str = "testdata/engines-workspace";

fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-agent-bundle"));
    let sandbox = common::sandbox_dir("engines");
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", sandbox.join("home"))
        .env("AGENT_BUNDLE_CACHE_DIR", sandbox.join("cache"))
        .arg("agent-bundle");
    command
}

fn succeeded(output: Output) -> String {
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "{text}{}", String::from_utf8_lossy(&output.stderr));
    text
}

fn inputs_json(bundle: &Path) -> Value {
    let output = binary().args(["inspect", "--inputs", "--json", "--root"]).arg(bundle).output().unwrap();
    serde_json::from_str(&succeeded(output)).unwrap()
}

fn workspace_copy(at: &Path) -> std::path::PathBuf {
    let workspace = at.join("ws");
    copy_tree(Path::new(WORKSPACE), &workspace);
    workspace
}

#[test]
fn inspect_inputs_lists_what_the_build_reads_the_same_from_any_checkout_path() {
    let temp = tempfile::tempdir().unwrap();
    let one = workspace_copy(&temp.path().join("one"));
    let two = workspace_copy(&temp.path().join("two/deeper/still"));
    let found = inputs_json(&one.join("bundles/alpha"));
    assert_eq!(found, inputs_json(&two.join("bundles/alpha")), "the checkout path leaks into the inputs");
    assert_eq!(found["bundle"], "bundles/alpha");
    assert_eq!(
        found["inputs"]["files"],
        json!(["agent-bundle.config.ts", "package.json", "src/hooks/guard.ts", "tsconfig.json"])
    );
    // The shared module the handler imports through the root tsconfig's `paths`, and that tsconfig.
    assert_eq!(
        found["inputs"]["outside"],
        json!(["../../package.json", "../../shared/policy.ts", "../../tsconfig.base.json"])
    );
    assert_eq!(found["inputs"]["env"], json!([]));
    let id = succeeded(binary().args(["inspect", "--compiler-id"]).output().unwrap());
    assert_eq!(found["inputs"]["compiler"]["id"], id.trim());
    assert_eq!(found["outputs"], json!(["artifact"]));
    assert_eq!(
        found["turbo"],
        json!({
            "inputs": ["$TURBO_DEFAULT$", "!artifact/**", "$TURBO_ROOT$/package.json",
                       "$TURBO_ROOT$/shared/policy.ts", "$TURBO_ROOT$/tsconfig.base.json"],
            "outputs": ["artifact/**"],
            "env": ["AGENT_BUNDLE_COMPILER"],
        })
    );
    assert_eq!(found["nx"]["inputs"][3], "{workspaceRoot}/shared/policy.ts");
    assert_eq!(found["nx"]["inputs"][5], json!({ "runtime": "cargo-agent-bundle agent-bundle inspect --compiler-id" }));
    assert_eq!(found["nx"]["outputs"], json!(["{projectRoot}/artifact"]));
}

#[test]
fn inspect_inputs_names_the_lockfile_and_packages_of_what_the_bundler_read() {
    let npm = common::npm_fixture();
    let found = inputs_json(&npm.join("bundles/npm-guard").into_std_path_buf());
    assert_eq!(found["inputs"]["lockfiles"], json!(["../../package-lock.json"]), "{found}");
    let packages: Vec<&str> =
        found["inputs"]["packages"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(packages.contains(&"zod@3.23.8") && packages.contains(&"lodash-es@4.17.21"), "{packages:?}");
    // node_modules files are the lockfile's to stand for, never listed one by one.
    let files = found["inputs"]["files"].to_string() + &found["inputs"]["outside"].to_string();
    assert!(!files.contains("node_modules"), "{files}");
    assert!(found["turbo"]["inputs"].to_string().contains("$TURBO_ROOT$/package-lock.json"), "{found}");
}

#[test]
fn init_monorepo_declares_every_bundle_and_check_catches_an_undeclared_input() {
    let temp = tempfile::tempdir().unwrap();
    let workspace = workspace_copy(temp.path());
    for engine in ["turbo", "nx"] {
        let written = succeeded(binary().args(["init", "--monorepo", engine]).arg(&workspace).output().unwrap());
        assert!(written.contains("4 written, 0 unchanged"), "{written}");
        let check = binary().args(["init", "--monorepo", engine, "--check"]).arg(&workspace).output().unwrap();
        assert!(succeeded(check).contains("0 written, 3 unchanged"));
    }
    let turbo: Value =
        serde_json::from_str(&std::fs::read_to_string(workspace.join("bundles/beta/turbo.json")).unwrap()).unwrap();
    assert_eq!(turbo["extends"], json!(["//"]));
    assert_eq!(turbo["tasks"]["build"]["outputs"], json!(["artifact/**"]));
    let project: Value =
        serde_json::from_str(&std::fs::read_to_string(workspace.join("bundles/beta/project.json")).unwrap()).unwrap();
    assert_eq!(project["name"], "@hooks/beta");
    assert_eq!(project["targets"]["build"]["command"], "cargo-agent-bundle agent-bundle build");

    // beta now imports a second module outside its package: both declarations are out of date.
    write_file(&workspace, "shared/extra.ts", "export const extra = 'more';\n");
    write_file(
        &workspace,
        "bundles/beta/src/hooks/guard.ts",
        "import { refusal } from '@shared/policy';\nimport { extra } from '@shared/extra';\nexport default ({ toolInput }: { toolInput: { command?: string } }) => {\n  const reason = refusal(toolInput.command ?? '');\n  return reason ? { outcome: 'deny' as const, reason: `${extra} ${reason}` } : undefined;\n};\n",
    );
    for engine in ["turbo", "nx"] {
        let check = binary().args(["init", "--monorepo", engine, "--check"]).arg(&workspace).output().unwrap();
        assert_eq!(check.status.code(), Some(3), "{}", String::from_utf8_lossy(&check.stdout));
        let stdout = String::from_utf8_lossy(&check.stdout);
        assert!(stdout.contains("out of date bundles/beta/"), "{stdout}");
        assert!(!stdout.contains("bundles/alpha/"), "{stdout}");
    }
}

#[test]
fn a_build_run_by_an_engine_refuses_another_compiler_and_an_undeclared_input() {
    let temp = tempfile::tempdir().unwrap();
    let workspace = workspace_copy(temp.path());
    succeeded(binary().args(["init", "--monorepo", "turbo"]).arg(&workspace).output().unwrap());
    let id = succeeded(binary().args(["inspect", "--compiler-id"]).output().unwrap()).trim().to_string();
    let build = |compiler: Option<&str>| {
        let mut command = binary();
        command.arg("build").current_dir(workspace.join("bundles/gamma")).env("TURBO_HASH", "0123456789abcdef");
        if let Some(compiler) = compiler {
            command.env("AGENT_BUNDLE_COMPILER", compiler);
        }
        command.output().unwrap()
    };
    // Unset or another compiler: refused before anything is built.
    for compiler in [None, Some("0.0.1+0000000000000000")] {
        let refused = build(compiler);
        assert_eq!(refused.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains("AGENT_BUNDLE_COMPILER") && stderr.contains(&id), "{stderr}");
        assert!(!workspace.join("bundles/gamma/artifact").exists(), "a refused build wrote its artifact");
    }
    succeeded(build(Some(&id)));
    // A new import outside the package that turbo.json does not declare fails the task.
    write_file(&workspace, "shared/extra.ts", "export const extra = 'more';\n");
    write_file(
        &workspace,
        "bundles/gamma/src/hooks/guard.ts",
        "import { extra } from '@shared/extra';\nexport default () => ({ additionalContext: extra });\n",
    );
    let refused = build(Some(&id));
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("`shared/extra.ts`") && stderr.contains("init --monorepo turbo"), "{stderr}");
    // Declared, it builds.
    succeeded(binary().args(["init", "--monorepo", "turbo"]).arg(&workspace).output().unwrap());
    succeeded(build(Some(&id)));
    // Outside any engine, nothing is asked.
    succeeded(binary().arg("build").current_dir(workspace.join("bundles/alpha")).output().unwrap());
}
