//! `build`: the layout of D4, the documents hosts read, determinism, relocation, tampering, and the
//! page's samples end to end (build, list, simulate).

use crate::common;

use std::process::Command;

use agent_bundle::io::RealDisk;
use camino::Utf8PathBuf;
use common::{build_bundle, cli, copy_tree, read_tree, require_node};

/// The artifact as one reviewable text: the file list with sizes, then every JSON document.
fn render_artifact(artifact: &camino::Utf8Path) -> String {
    let files = read_tree(artifact);
    let mut text = String::from("files:\n");
    for (path, bytes) in &files {
        text.push_str(&format!("  {path} ({} bytes)\n", bytes.len()));
    }
    for (path, bytes) in &files {
        let is_document = path.ends_with(".json") && !path.starts_with("hooks/node_modules/");
        if is_document && path != "agent-bundle.manifest.json" {
            text.push_str(&format!("\n== {path}\n{}", String::from_utf8_lossy(bytes)));
        }
    }
    text
}

#[test]
fn showcase_layout_and_documents() {
    let (_guard, artifact) = build_bundle("showcase");
    insta::assert_snapshot!(render_artifact(&artifact));
}

#[test]
fn the_pages_samples_build() {
    for sample in ["page-declaring-a-hook", "page-several-handlers", "page-prebuilt"] {
        let (_guard, artifact) = build_bundle(sample);
        insta::assert_snapshot!(sample, render_artifact(&artifact));
    }
}

#[test]
fn prebuilt_hooks_are_in_the_documents_and_indexed_as_their_programs() {
    let (_guard, artifact) = build_bundle("page-prebuilt");
    let document = std::fs::read_to_string(artifact.join("hooks/hooks.json")).unwrap();
    // Claude Code starts node itself on the prebuilt file with its arguments (the exec form), on every system.
    let document: serde_json::Value = serde_json::from_str(&document).unwrap();
    let entry = &document["hooks"]["PostToolUse"][0]["hooks"][0];
    assert_eq!(entry["command"], "node", "{document}");
    assert_eq!(entry["args"], serde_json::json!(["${CLAUDE_PLUGIN_ROOT}/runtime/hook/index.js", "--host", "claude"]));
    let manifest = agent_bundle::artifact::read_verified(&artifact, &RealDisk).unwrap();
    // Indexed as the program the document runs, so `hooks simulate` and the snapshots run it.
    assert_eq!(manifest.hooks.len(), 1, "{:?}", manifest.hooks);
    assert!(manifest.hooks[0].prebuilt);
    assert_eq!(manifest.hooks[0].path, "runtime/hook/index.js");
    assert!(artifact.join("runtime/hook/index.js").is_file(), "the payload is copied");
}

#[test]
fn two_builds_write_the_same_bytes() {
    let (_a, first) = build_bundle("showcase");
    let (_b, second) = build_bundle("showcase");
    assert_eq!(read_tree(&first), read_tree(&second));
}

#[test]
fn claude_manifest_has_no_hooks_pointer_and_codex_and_cursor_point_at_their_documents() {
    let (_guard, artifact) = build_bundle("showcase");
    let read = |path: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(artifact.join(path)).unwrap()).unwrap()
    };
    assert!(read(".claude-plugin/plugin.json").get("hooks").is_none());
    assert_eq!(read(".codex-plugin/plugin.json")["hooks"], "./.codex-plugin/hooks.json");
    assert_eq!(read(".cursor-plugin/plugin.json")["hooks"], "./.cursor-plugin/hooks.json");
    assert_eq!(read(".cursor-plugin/hooks.json")["version"], 1);
}

#[test]
fn target_narrows_the_build_without_renaming_hooks() {
    let temp = tempfile::tempdir().unwrap();
    let output = temp.path().join("claude-only");
    let status = cli()
        .args(["build", "--root", "testdata/bundles/showcase", "--target", "claude", "--output"])
        .arg(&output)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(!output.join(".codex-plugin").exists());
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(output.join("agent-bundle.manifest.json")).unwrap()).unwrap();
    let names: Vec<&str> = manifest["hooks"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"session-start-session-start-c8036882"), "{names:?}");
}

#[test]
fn an_artifact_moved_elsewhere_without_its_sources_still_lists_and_simulates() {
    require_node();
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    copy_tree(std::path::Path::new("testdata/bundles/typescript-features"), &bundle);
    let built = work.path().join("built");
    assert!(cli().arg("build").arg("--root").arg(&bundle).arg("--output").arg(&built).status().unwrap().success());

    let elsewhere = tempfile::tempdir().unwrap();
    let moved = elsewhere.path().join("plugin");
    copy_tree(&built, &moved);
    drop(work); // the sources, their node_modules and the first artifact are gone

    let list = cli().args(["hooks", "list", "--artifact"]).arg(&moved).output().unwrap();
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    let listed = String::from_utf8(list.stdout).unwrap();
    let name = listed
        .lines()
        .find_map(|l| l.split_whitespace().nth(1).filter(|n| n.starts_with("before-tool-classify-")))
        .unwrap();

    let input = r#"{"sessionId":"s","transcriptPath":"/t.jsonl","cwd":"/w","toolName":"Bash","toolInput":{"command":"rm -rf /"},"toolUseId":"t1"}"#;
    let run = cli()
        .args(["hooks", "simulate", "--target", "claude", "--json", "--hook", name, "--input", input, "--artifact"])
        .arg(&moved)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stdout));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["outcome"]["outcome"], "deny");
    assert_eq!(report["outcome"]["reason"], "refused rm-rf (weight 10)");
}

#[test]
fn a_tampered_artifact_is_refused() {
    let (_guard, artifact) = build_bundle("showcase");
    let wrapper = artifact.join("hooks/stop-keep-going-656ce693.claude.mjs");
    let mut text = std::fs::read_to_string(&wrapper).unwrap();
    text.push_str("// edited by hand\n");
    std::fs::write(&wrapper, text).unwrap();
    let output = cli().args(["hooks", "list", "--artifact", artifact.as_str()]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("was changed after it was built"), "{stderr}");
    assert!(stderr.contains("hooks/stop-keep-going-656ce693.claude.mjs"), "{stderr}");
}

#[test]
fn a_failed_build_leaves_the_previous_artifact_intact() {
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    copy_tree(std::path::Path::new("testdata/bundles/showcase"), &bundle);
    let output = Utf8PathBuf::from_path_buf(work.path().join("out")).unwrap();
    assert!(
        cli().arg("build").arg("--root").arg(&bundle).args(["--output", output.as_str()]).status().unwrap().success()
    );
    let before = read_tree(&output);

    std::fs::write(bundle.join("src/hooks/keep-going.ts"), "export default (event =>;\n").unwrap();
    let failed = cli().arg("build").arg("--root").arg(&bundle).args(["--output", output.as_str()]).output().unwrap();
    assert_eq!(failed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("AB4830"));
    assert_eq!(read_tree(&output), before, "the previous artifact changed");
}

#[test]
fn a_folder_agent_bundle_did_not_write_is_never_replaced() {
    let work = tempfile::tempdir().unwrap();
    let output = work.path().join("precious");
    std::fs::create_dir_all(&output).unwrap();
    std::fs::write(output.join("notes.txt"), "mine").unwrap();
    let run = cli().args(["build", "--root", "testdata/bundles/showcase", "--output"]).arg(&output).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("AB5001"));
    assert_eq!(std::fs::read_to_string(output.join("notes.txt")).unwrap(), "mine");
}

#[test]
fn an_unwritable_output_is_reported() {
    let run = cli()
        .args(["build", "--root", "testdata/bundles/showcase", "--output", "/dev/null/artifact"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("AB5002"));
}

#[test]
fn a_payload_overlapping_the_output_is_refused() {
    let run = cli()
        .args([
            "build",
            "--root",
            "testdata/bundles/page-prebuilt",
            "--output",
            "testdata/bundles/page-prebuilt/dist/runtime/out",
        ])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("AB4749"));
}

/// Every name the layout gives a host, the shared runtime or agent-bundle (read from the layout, so a
/// new host's folder is covered by itself) is refused as a payload name, naming who writes it.
#[test]
fn a_payload_may_not_take_a_name_the_layout_gives_anyone() {
    let layout = agent_bundle::hosts::layout::layout();
    let names = layout.reserved_names();
    for folder in [".claude-plugin", ".codex-plugin", ".plugin", ".cursor-plugin", "gemini", "gemini-extension.json"] {
        assert!(names.iter().any(|n| n == folder), "{folder} is not reserved: {names:?}");
    }
    let temp = tempfile::tempdir().unwrap();
    let root = Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
    std::fs::create_dir_all(root.join("dist/files")).unwrap();
    std::fs::write(root.join("dist/files/a.txt"), "a").unwrap();
    for name in &names {
        let config = format!(
            "export default {{ targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini'], payload: {{ {}: './dist/files' }} }};\n",
            serde_json::to_string(name).unwrap()
        );
        std::fs::write(root.join("agent-bundle.config.ts"), config).unwrap();
        let loaded = agent_bundle::load(&root, &RealDisk);
        let refused: Vec<_> = loaded.diagnostics.iter().filter(|d| d.code.as_str() == "AB4741").collect();
        assert_eq!(refused.len(), 1, "payload `{name}`: {:?}", loaded.diagnostics);
        for claim in layout.claims_on_name(name) {
            let owner = claim.owner.to_string();
            assert!(
                refused[0].message.contains(&owner),
                "payload `{name}` does not name {owner}: {}",
                refused[0].message
            );
            assert!(refused[0].message.contains(&claim.shown()), "payload `{name}`: {}", refused[0].message);
        }
    }
    std::fs::write(root.join("agent-bundle.config.ts"), "export default { payload: { scripts: './dist/files' } };\n")
        .unwrap();
    let loaded = agent_bundle::load(&root, &RealDisk);
    assert!(loaded.diagnostics.iter().all(|d| d.code.as_str() != "AB4741"), "{:?}", loaded.diagnostics);
}

#[test]
fn inspect_shows_the_commands_the_built_documents_hold() {
    let (_guard, artifact) = build_bundle("showcase");
    let inspect = cli().args(["inspect", "--root", "testdata/bundles/showcase", "--hooks", "--json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&inspect.stdout).unwrap();
    let documents: String = ["hooks/hooks.json", ".codex-plugin/hooks.json", ".cursor-plugin/hooks.json"]
        .iter()
        .map(|path| std::fs::read_to_string(artifact.join(path)).unwrap())
        .collect();
    let mut checked = 0;
    for hook in report["hooks"].as_array().unwrap() {
        for host in hook["hosts"].as_array().unwrap() {
            if let Some(command) = host["command"].as_object() {
                // The command, an exec form's arguments and the Windows command are each in a document.
                let parts = std::iter::once(&command["command"])
                    .chain(command.get("args").and_then(|a| a.as_array()).into_iter().flatten())
                    .chain(command.get("windows").map(|w| &w["command"]));
                for part in parts {
                    let quoted = serde_json::to_string(part.as_str().unwrap()).unwrap();
                    assert!(documents.contains(&quoted), "inspect shows {part}, which no document holds");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 21);
}

#[test]
fn payload_files_keep_their_mode() {
    use std::os::unix::fs::PermissionsExt;
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    copy_tree(std::path::Path::new("testdata/bundles/page-prebuilt"), &bundle);
    let script = bundle.join("dist/runtime/bin/check.sh");
    std::fs::create_dir_all(script.parent().unwrap()).unwrap();
    std::fs::write(&script, "#!/bin/sh\necho checked\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let output = work.path().join("out");
    assert!(cli().arg("build").arg("--root").arg(&bundle).arg("--output").arg(&output).status().unwrap().success());

    let shipped = output.join("runtime/bin/check.sh");
    assert!(std::fs::metadata(&shipped).unwrap().permissions().mode() & 0o111 != 0, "the script lost its execute bit");
    let ran = Command::new(&shipped).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "checked\n");
    let manifest =
        agent_bundle::artifact::read_verified(Utf8PathBuf::from_path_buf(output.clone()).unwrap().as_path(), &RealDisk)
            .unwrap();
    let record = |path: &str| manifest.files.iter().find(|f| f.path == path).unwrap().mode;
    assert_eq!(record("runtime/bin/check.sh"), Some(0o755));
    assert!(record("runtime/hook/index.js").is_some_and(|mode| mode & 0o111 == 0));

    // Only the mode changes: the next build rewrites that file and no other.
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let rebuilt =
        cli().arg("build").arg("--root").arg(&bundle).arg("--output").arg(&output).arg("--json").output().unwrap();
    let summary: serde_json::Value = serde_json::from_slice(&rebuilt.stdout).unwrap();
    assert_eq!(summary["written"], serde_json::json!(["agent-bundle.manifest.json", "runtime/bin/check.sh"]));
    assert!(std::fs::metadata(&shipped).unwrap().permissions().mode() & 0o111 == 0);
}

/// `license` comes from package.json when the config has none, and the bundle's README is shipped;
/// editing the README rebuilds the artifact (it is an input like any other).
#[test]
fn package_json_license_and_the_readme_reach_the_artifact() {
    let temp = tempfile::tempdir().unwrap();
    let bundle = temp.path().join("licensed");
    std::fs::create_dir_all(bundle.join("src")).unwrap();
    std::fs::write(
        bundle.join("agent-bundle.config.ts"),
        "export default { hooks: { stop: './src/stop.ts' }, plugin: { name: 'licensed' } };\n",
    )
    .unwrap();
    std::fs::write(bundle.join("src/stop.ts"), "export default () => undefined;\n").unwrap();
    std::fs::write(
        bundle.join("package.json"),
        r#"{ "name": "licensed", "version": "1.2.3", "description": "d", "author": "A <a@example.com>", "license": "Apache-2.0" }"#,
    )
    .unwrap();
    std::fs::write(bundle.join("README.md"), "# licensed\n\nFirst words.\n").unwrap();
    let build = || {
        let status = cli().arg("build").arg("--root").arg(&bundle).status();
        assert!(status.unwrap().success());
    };
    build();
    let artifact = bundle.join("artifact");
    let claude: serde_json::Value =
        serde_json::from_slice(&std::fs::read(artifact.join(".claude-plugin/plugin.json")).unwrap()).unwrap();
    assert_eq!(claude["license"], "Apache-2.0");
    let codex = std::fs::read_to_string(artifact.join(".codex-plugin/plugin.json")).unwrap();
    assert!(!codex.contains("\"license\""), "Codex's manifest model has no license: {codex}");
    assert_eq!(std::fs::read_to_string(artifact.join("README.md")).unwrap(), "# licensed\n\nFirst words.\n");
    std::fs::write(bundle.join("README.md"), "# licensed\n\nOther words.\n").unwrap();
    build();
    assert_eq!(std::fs::read_to_string(artifact.join("README.md")).unwrap(), "# licensed\n\nOther words.\n");
}

/// Narrowing a build to one host writes the same wrapper names a full build does (names never change
/// with `--target`), and `inspect` shows the commands the documents hold.
#[test]
fn a_narrowed_build_keeps_the_wrapper_names_of_a_full_one() {
    let temp = tempfile::tempdir().unwrap();
    let full = temp.path().join("full");
    let narrowed = temp.path().join("narrowed");
    let root = "testdata/bundles/page-declaring-a-hook";
    assert!(cli().args(["build", "--root", root, "--output"]).arg(&full).status().unwrap().success());
    let status = cli().args(["build", "--root", root, "--target", "claude", "--output"]).arg(&narrowed).status();
    assert!(status.unwrap().success());
    let document = |dir: &std::path::Path| std::fs::read_to_string(dir.join("hooks/hooks.json")).unwrap();
    assert_eq!(document(&full), document(&narrowed));
    assert!(document(&narrowed).contains(".claude.mjs"), "{}", document(&narrowed));
    let inspect = cli().args(["inspect", "--hooks", "--root", root]).output().unwrap();
    let shown = String::from_utf8(inspect.stdout).unwrap();
    let claude: serde_json::Value = serde_json::from_str(&document(&full)).unwrap();
    let command = claude["hooks"]["SessionStart"][0]["hooks"][0]["command"].as_str().unwrap();
    assert!(shown.contains(command), "inspect shows {shown}, the document runs {command}");
}

/// A host with a folder of its own (the Gemini extension) gets everything its commands name inside
/// that folder: wrappers, runtime, bundles, and prebuilt payloads.
#[test]
fn a_host_folder_holds_everything_its_commands_name() {
    let work = tempfile::tempdir().unwrap();
    common::copy_tree(std::path::Path::new("testdata/bundles/page-prebuilt"), work.path());
    let config = work.path().join("agent-bundle.config.ts");
    let text =
        std::fs::read_to_string(&config).unwrap().replace("targets: ['claude']", "targets: ['claude', 'gemini']");
    std::fs::write(&config, text).unwrap();
    let (_guard, artifact) = common::build_root(camino::Utf8Path::from_path(work.path()).unwrap());
    let document = std::fs::read_to_string(artifact.join("gemini/hooks/hooks.json")).unwrap();
    assert!(document.contains(r#"node \"${extensionPath}/runtime/hook/index.js\" --host claude"#), "{document}");
    assert!(artifact.join("gemini/runtime/hook/index.js").is_file(), "the payload is inside the extension");
    assert!(artifact.join("runtime/hook/index.js").is_file(), "and at the root for the other hosts");
    assert!(artifact.join("gemini/gemini-extension.json").is_file());
}

/// Every entry of every host document of every bundle in testdata/ (the examples and the real-host
/// suite's) has its host's Windows form, holding nothing a shell the host uses on Windows cannot parse
/// (D17), and the checker catches the POSIX-only forms main emitted before.
#[test]
fn every_artifact_has_a_windows_form_on_every_entry() {
    let mut bundles = common::testdata_bundles();
    let mut e2e: Vec<std::path::PathBuf> =
        std::fs::read_dir("testdata/e2e").unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    e2e.sort();
    bundles.extend(e2e);
    let mut entries = 0;
    for bundle in &bundles {
        let (_guard, artifact) = common::build_root(camino::Utf8Path::from_path(bundle).unwrap());
        let problems = agent_bundle::tools::windows::artifact_problems(&artifact).unwrap();
        assert!(
            problems.is_empty(),
            "{}: {}",
            bundle.display(),
            problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n")
        );
        entries += agent_bundle::artifact::read_verified(&artifact, &RealDisk).unwrap().hooks.len();
    }
    assert!(entries > 300, "{entries} hooks checked");
    // The forms this replaced are caught, each for the host it broke.
    let old = serde_json::json!({ "hooks": { "PreToolUse": [{ "hooks": [
        { "type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/hooks/a.mjs\" 3>&1 1>&2" }
    ] }] } });
    let found =
        agent_bundle::tools::windows::document_problems(agent_bundle::vocabulary::target::Target::Claude, &old, None);
    assert!(found.len() == 1 && found[0].why.contains("1>&2"), "{found:?}");
    let old = serde_json::json!({ "hooks": { "PreToolUse": [{ "hooks": [
        { "type": "command", "command": "sh -c 'exec node \"$1\" 3>&1 1>&2' sh \"${PLUGIN_ROOT}/hooks/a.mjs\"" }
    ] }] } });
    let found =
        agent_bundle::tools::windows::document_problems(agent_bundle::vocabulary::target::Target::Codex, &old, None);
    assert!(found.len() == 1 && found[0].why.contains("no `commandWindows`"), "{found:?}");
    let old = serde_json::json!({ "version": 1, "hooks": { "preToolUse": [
        { "type": "command", "bash": "node \"${PLUGIN_ROOT}/hooks/a.mjs\" 3>&1 1>&2" }
    ] } });
    let found =
        agent_bundle::tools::windows::document_problems(agent_bundle::vocabulary::target::Target::Copilot, &old, None);
    assert!(found.len() == 1 && found[0].why.contains("no `powershell`"), "{found:?}");
}

/// The plugin's skills, commands, agents and context file land where each host's table places
/// them, in its form: Gemini CLI's commands as TOML holding the prompt, Copilot CLI's agents as
/// `.agent.md` named by its manifest, Gemini CLI's agents without the keys it refuses, the context
/// file named by `contextFileName`, Codex's `interface`; and a changed skill file is rebuilt.
#[test]
fn plugin_parts_land_where_each_host_reads_them() {
    let temp = tempfile::tempdir().unwrap();
    let root = common::utf8(&temp.path().join("parts"));
    copy_tree(std::path::Path::new("testdata/e2e/parts"), root.as_std_path());
    common::write_file(
        root.as_std_path(),
        "agents/e2e-reviewer.md",
        "---\nname: e2e-reviewer\ndescription: Reviews.\ntools: Read, Grep\n---\nReview.\n",
    );
    let (_guard, artifact) = common::build_root(&root);
    let files = read_tree(&artifact);
    let text = |path: &str| String::from_utf8(files.get(path).unwrap_or_else(|| panic!("no {path}")).clone()).unwrap();
    // The shared root serves Claude Code, Codex, Copilot CLI and Cursor: one copy each.
    assert!(text("skills/e2e-parts-checklist/SKILL.md").contains("E2E_SKILL_MARK"));
    assert!(files.contains_key("skills/e2e-parts-checklist/checklist.md"), "a skill's other files go with it");
    assert!(text("commands/e2e-hello.md").contains("$ARGUMENTS"), "Claude Code's command keeps its own form");
    assert!(text("agents/e2e-reviewer.md").contains("tools: Read, Grep"), "Claude Code's agent keeps every key");
    // Copilot CLI: `.agent.md`, named by its manifest.
    assert!(files.contains_key(".plugin/agents/e2e-reviewer.agent.md"));
    let copilot: serde_json::Value = serde_json::from_str(&text(".plugin/plugin.json")).unwrap();
    assert_eq!(copilot["agents"], ".plugin/agents");
    // Gemini CLI: TOML commands, agents without the keys it refuses, the context file named.
    assert_eq!(
        text("gemini/commands/e2e-hello.toml"),
        "description = \"E2E_COMMAND_MARK Greets whoever is named.\"\nprompt = \"\"\"\nE2E_COMMAND_BODY Say hello to {{args}}.\n\"\"\"\n"
    );
    let gemini_agent = text("gemini/agents/e2e-reviewer.md");
    assert!(!gemini_agent.contains("tools:") && gemini_agent.contains("name: e2e-reviewer\n"), "{gemini_agent}");
    let gemini: serde_json::Value = serde_json::from_str(&text("gemini/gemini-extension.json")).unwrap();
    assert_eq!(gemini["contextFileName"], "CONTEXT.md");
    assert!(text("gemini/CONTEXT.md").contains("E2E_CONTEXT_MARK"));
    // Qwen Code: TOML too (it replaces `{{args}}` only); Factory Droid: agents are droids.
    assert!(text("qwen/commands/e2e-hello.toml").contains("{{args}}"));
    assert!(files.contains_key("droid/droids/e2e-reviewer.md") && files.contains_key("droid/commands/e2e-hello.md"));
    // Codex: the interface; no agents or commands of its own, nor a context file.
    let codex: serde_json::Value = serde_json::from_str(&text(".codex-plugin/plugin.json")).unwrap();
    assert_eq!(codex["interface"]["displayName"], "E2E parts");
    // The files the interface names ship at the paths it gives, written `./…` as Codex takes them.
    assert_eq!(codex["interface"]["logo"], "./assets/logo.png");
    assert_eq!(codex["interface"]["screenshots"], serde_json::json!(["./assets/logo.png"]));
    assert!(files.contains_key("assets/logo.png"));
    let claude: serde_json::Value = serde_json::from_str(&text(".claude-plugin/plugin.json")).unwrap();
    assert!(claude.get("interface").is_none() && claude.get("agents").is_none(), "{claude}");
    assert!(!files.keys().any(|p| p.ends_with("CONTEXT.md") && !p.starts_with("gemini/") && !p.starts_with("qwen/")));

    // A changed skill file reaches every copy on the next build into the same folder.
    common::write_file(
        root.as_std_path(),
        "skills/e2e-parts-checklist/checklist.md",
        "1. The tests pass.\n2. CHANGED_ITEM\n",
    );
    let options = agent_bundle::driver::BuildOptions {
        root: root.clone(),
        output: Some(artifact.clone()),
        cache_dir: Some(common::utf8(&temp.path().join("cache"))),
        ..Default::default()
    };
    let report = agent_bundle::driver::build(&options, &RealDisk).unwrap();
    assert!(!report.has_errors());
    let files = read_tree(&artifact);
    for copy in ["", "gemini/", "qwen/", "droid/"] {
        let path = format!("{copy}skills/e2e-parts-checklist/checklist.md");
        assert!(String::from_utf8_lossy(&files[&path]).contains("CHANGED_ITEM"), "{path} was not rebuilt");
    }
}
