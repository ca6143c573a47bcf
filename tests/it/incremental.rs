//! Incremental, atomic writes: a no-op rebuild writes nothing, an edit writes only what changed,
//! unchanged files keep their mtime, concurrent builds take turns, and a build killed while writing
//! leaves the previous artifact whole.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use common::{cli, copy_tree, read_tree};

struct Workspace {
    _temp: tempfile::TempDir,
    bundle: PathBuf,
    output: PathBuf,
    cache: PathBuf,
}

fn workspace(bundle: &str) -> Workspace {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("bundle");
    copy_tree(&Path::new("testdata/bundles").join(bundle), &root);
    let output = temp.path().join("out");
    let cache = temp.path().join("cache");
    Workspace { _temp: temp, bundle: root, output, cache }
}

/// `build` of the workspace's bundle into its output, with its cache.
fn build_command(ws: &Workspace) -> std::process::Command {
    let mut command = cli();
    command
        .arg("build")
        .arg("--root")
        .arg(&ws.bundle)
        .arg("--output")
        .arg(&ws.output)
        .arg("--cache-dir")
        .arg(&ws.cache);
    command
}

/// Builds (with `--explain`) and returns the JSON summary.
fn build(ws: &Workspace) -> serde_json::Value {
    let output = build_command(ws).args(["--json", "--explain"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

fn mtimes(dir: &Path) -> Vec<(String, SystemTime)> {
    let tree = read_tree(camino::Utf8Path::from_path(dir).unwrap());
    tree.keys().map(|path| (path.clone(), std::fs::metadata(dir.join(path)).unwrap().modified().unwrap())).collect()
}

fn written(summary: &serde_json::Value) -> Vec<String> {
    summary["written"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

#[test]
fn a_no_op_rebuild_writes_nothing_and_keeps_every_mtime() {
    let ws = workspace("showcase");
    let first = build(&ws);
    assert_eq!(written(&first).len(), first["files"].as_u64().unwrap() as usize);
    let before = mtimes(&ws.output);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = build(&ws);
    assert!(written(&second).is_empty(), "{second}");
    assert_eq!(mtimes(&ws.output), before);
}

#[test]
fn editing_one_handler_writes_only_its_bundle_and_the_manifest() {
    let ws = workspace("showcase");
    build(&ws);
    let before = mtimes(&ws.output);
    std::fs::write(
        ws.bundle.join("src/hooks/record-edit.ts"),
        "export default () => ({ additionalContext: 'edited' });\n",
    )
    .unwrap();
    let summary = build(&ws);
    let expected = [
        "agent-bundle.manifest.json",
        "hooks/handlers/src/hooks/record-edit.mjs",
        "hooks/handlers/src/hooks/record-edit.mjs.map",
    ];
    assert_eq!(written(&summary), expected);
    // The bundle's eight handlers are bundled together, in one bundler build; only what changed is
    // written.
    assert_eq!(summary["bundles"]["bundled"], 8, "{summary}");
    let after = mtimes(&ws.output);
    let changed: Vec<&String> = before.iter().zip(&after).filter(|(a, b)| a != b).map(|(a, _)| &a.0).collect();
    assert_eq!(changed, expected);
}

#[test]
fn editing_a_shared_module_rewrites_only_the_bundles_that_hold_the_edited_code() {
    let ws = workspace("showcase");
    let first = build(&ws);
    let shipped: Vec<String> = first["explain"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .filter(|p| p.starts_with("hooks/handlers/"))
        .collect();
    // The two guards share policy.ts; each starts from one file holding what it uses of it, no
    // chunk beside them.
    assert!(shipped.iter().all(|p| !p.contains("/chunks/")), "{shipped:#?}");
    let guard =
        |name: &str| std::fs::read_to_string(ws.output.join(format!("hooks/handlers/src/hooks/{name}.mjs"))).unwrap();
    assert!(guard("guard-shell").contains("git push --force"), "{}", guard("guard-shell"));
    assert!(guard("protect-secrets").contains("function isSecretPath"), "{}", guard("protect-secrets"));
    assert!(!guard("protect-secrets").contains("git push --force"), "{}", guard("protect-secrets"));
    let policy = ws.bundle.join("src/lib/policy.ts");
    let text = std::fs::read_to_string(&policy).unwrap().replace("'git push --force'", "'git push -f'");
    std::fs::write(&policy, text).unwrap();
    let summary = build(&ws);
    // The guard that holds the edited line, with its map; not the other guard, which shares the
    // module but not that line (with a shared chunk, both were rewritten: they named its hash).
    assert_eq!(
        written(&summary),
        [
            "agent-bundle.manifest.json",
            "hooks/handlers/src/hooks/guard-shell.mjs",
            "hooks/handlers/src/hooks/guard-shell.mjs.map",
        ]
    );
    assert!(guard("guard-shell").contains("git push -f"));
    assert_eq!(summary["removed"].as_array().unwrap().len(), 0, "{summary}");
}

#[test]
fn touching_an_input_without_changing_it_rebuilds_nothing() {
    let ws = workspace("showcase");
    build(&ws);
    // New mtimes, same bytes: re-hashed, found unchanged, nothing bundled or written.
    std::thread::sleep(std::time::Duration::from_millis(20));
    for file in ["src/lib/policy.ts", "src/hooks/record-edit.ts", "agent-bundle.config.ts"] {
        let path = ws.bundle.join(file);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, bytes).unwrap();
    }
    let summary = build(&ws);
    assert!(written(&summary).is_empty(), "{summary}");
    assert_eq!(summary["bundles"]["bundled"], 0, "{summary}");
}

#[test]
fn a_new_file_that_changes_what_an_import_resolves_to_rebuilds_its_importer() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("bundle");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("agent-bundle.config.ts"),
        "export default { hooks: { stop: './src/stop.ts' }, plugin: { name: 'shadow', description: 'd', version: '1.0.0', author: 'a' } };\n",
    )
    .unwrap();
    // TypeScript's ESM convention: `./util.js` names util.ts while no util.js exists.
    std::fs::write(
        root.join("src/stop.ts"),
        "import { word } from './util.js';\nexport default () => ({ reason: word });\n",
    )
    .unwrap();
    std::fs::write(root.join("src/util.ts"), "export const word = 'from-ts';\n").unwrap();
    let ws = Workspace {
        bundle: root.clone(),
        output: temp.path().join("out"),
        cache: temp.path().join("cache"),
        _temp: temp,
    };
    build(&ws);
    let bundle = || std::fs::read_to_string(ws.output.join("hooks/handlers/src/stop.mjs")).unwrap();
    assert!(bundle().contains("from-ts"));
    // Now util.js exists, and Node (and so the bundler) takes it: the folder's listing changed.
    std::fs::write(root.join("src/util.js"), "export const word = 'from-js';\n").unwrap();
    let summary = build(&ws);
    assert_eq!(summary["bundles"]["bundled"], 1, "{summary}");
    assert!(bundle().contains("from-js"), "{}", bundle());
}

#[test]
fn a_changed_declaration_replaces_that_hooks_wrappers_and_removes_the_old_ones() {
    let ws = workspace("showcase");
    build(&ws);
    let config = ws.bundle.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap().replace("timeout: 30", "timeout: 45");
    std::fs::write(&config, text).unwrap();
    let summary = build(&ws);
    let removed: Vec<&str> = summary["removed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(removed.len(), 3, "{summary}");
    assert!(removed.iter().all(|p| p.starts_with("hooks/agent-stop-subagent-done-92f529a2.")));
    let written = written(&summary);
    assert!(written.iter().any(|p| p.starts_with("hooks/agent-stop-subagent-done-") && !p.contains("92f529a2")));
    assert!(!written.iter().any(|p| p.contains("session-start")), "{written:?}");
    assert!(!ws.output.join("hooks/agent-stop-subagent-done-92f529a2.claude.mjs").exists());
}

#[test]
fn a_build_killed_while_writing_leaves_the_previous_artifact_whole() {
    let ws = workspace("showcase");
    build(&ws);
    let before = read_tree(camino::Utf8Path::from_path(&ws.output).unwrap());
    // Change every wrapper, then kill the build after its third file.
    let config = ws.bundle.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap().replace("name: 'showcase'", "name: 'showcase-renamed'");
    std::fs::write(&config, text).unwrap();
    std::fs::write(ws.bundle.join("src/hooks/keep-going.ts"), "export default () => undefined;\n").unwrap();
    let killed = cli()
        .env("AGENT_BUNDLE_FAULT_AFTER_WRITES", "3")
        .arg("build")
        .arg("--root")
        .arg(&ws.bundle)
        .arg("--output")
        .arg(&ws.output)
        .output()
        .unwrap();
    assert!(!killed.status.success());
    assert_eq!(
        read_tree(camino::Utf8Path::from_path(&ws.output).unwrap()),
        before,
        "a killed build changed the artifact"
    );

    // The next build finishes the job and clears what the killed one left behind.
    build(&ws);
    let leftovers: Vec<_> = std::fs::read_dir(ws.output.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("staging"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let manifest = std::fs::read_to_string(ws.output.join(".claude-plugin/plugin.json")).unwrap();
    assert!(manifest.contains("showcase-renamed"));
}

#[test]
fn concurrent_builds_of_one_output_take_turns() {
    let ws = workspace("showcase");
    build(&ws);
    // Hold the lock as another build would, then start a build: it must wait and say so.
    let lock_path = ws.output.parent().unwrap().join(".out.lock");
    let holder = std::fs::File::options().create(true).truncate(false).write(true).open(&lock_path).unwrap();
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(holder.as_raw_fd(), libc::LOCK_EX) }, 0);
    std::fs::write(ws.bundle.join("src/hooks/keep-going.ts"), "export default () => undefined;\n").unwrap();
    let mut child = cli()
        .arg("build")
        .arg("--root")
        .arg(&ws.bundle)
        .arg("--output")
        .arg(&ws.output)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "the build did not wait for the lock");
    drop(holder);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("Waiting for another build of this output"), "{stderr}");
}

/// `status: reasons` per hook name, sorted.
fn hook_verdicts(summary: &serde_json::Value) -> Vec<String> {
    let mut verdicts: Vec<String> = summary["explain"]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let reasons: Vec<&str> = h["reasons"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
            format!("{} {}: {}", h["status"].as_str().unwrap(), h["name"].as_str().unwrap(), reasons.join("; "))
        })
        .collect();
    verdicts.sort();
    verdicts
}

fn file_reason(summary: &serde_json::Value, path: &str) -> String {
    let files = summary["explain"]["files"].as_array().unwrap();
    let file = files.iter().find(|f| f["path"] == path).unwrap_or_else(|| panic!("no verdict for {path}"));
    format!("{} {}", file["action"].as_str().unwrap(), file["reason"].as_str().unwrap())
}

#[test]
fn explain_says_why_each_hook_and_file_was_rebuilt_or_kept() {
    let ws = workspace("showcase");
    let first = build(&ws);
    assert_eq!(first["hookCounts"]["rebuilt"], 8, "{first}");

    let no_op = build(&ws);
    assert_eq!(no_op["hookCounts"], serde_json::json!({ "fresh": 8, "rebuilt": 0, "removed": 0 }));
    assert_eq!(no_op["bundles"]["bundled"], 0, "a no-op rebuild rebundled: {no_op}");
    assert_eq!(file_reason(&no_op, "hooks/hooks.json"), "kept fresh");

    let policy = ws.bundle.join("src/lib/policy.ts");
    let text = std::fs::read_to_string(&policy).unwrap().replace("'git push --force'", "'git push -f'");
    std::fs::write(&policy, text).unwrap();
    let config = ws.bundle.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap().replace("timeout: 30", "timeout: 45");
    std::fs::write(&config, text).unwrap();
    let edited = build(&ws);
    insta::assert_snapshot!(hook_verdicts(&edited).join("\n"));
    assert_eq!(
        file_reason(&edited, "hooks/handlers/src/hooks/guard-shell.mjs"),
        "written handler bytes changed: src/lib/policy.ts"
    );
    assert_eq!(
        file_reason(&edited, "hooks/agent-stop-subagent-done-92f529a2.claude.mjs"),
        "removed no hook produces it any more"
    );
    assert_eq!(edited["bundles"]["bundled"], 8, "the bundle's handlers are bundled together: {edited}");

    std::fs::remove_file(ws.output.join("hooks/stop-keep-going-656ce693.codex.mjs")).unwrap();
    let repaired = build(&ws);
    assert_eq!(file_reason(&repaired, "hooks/stop-keep-going-656ce693.codex.mjs"), "written output missing");
    assert_eq!(repaired["hookCounts"]["rebuilt"], 1);
}

#[test]
fn a_deleted_or_corrupted_cache_is_detected_and_never_changes_the_output() {
    let ws = workspace("showcase");
    build(&ws);
    let reference = read_tree(camino::Utf8Path::from_path(&ws.output).unwrap());

    // Corrupt every cache entry: garbage, or a valid-looking entry with a wrong checksum.
    let mut corrupted = 0;
    for entry in walkdir::WalkDir::new(&ws.cache).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file())
    {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        // A body changed under its checksum line, or not JSON at all.
        let replacement = if corrupted % 2 == 0 { "{ not json".to_string() } else { format!("{text} ") };
        std::fs::write(entry.path(), replacement).unwrap();
        corrupted += 1;
    }
    assert!(corrupted > 2);
    let summary = build(&ws);
    assert!(summary["bundles"]["corrupt"].as_u64().unwrap() > 0, "{summary}");
    assert!(written(&summary).is_empty());
    assert_eq!(read_tree(camino::Utf8Path::from_path(&ws.output).unwrap()), reference);

    std::fs::remove_dir_all(&ws.cache).unwrap();
    let summary = build(&ws);
    assert!(written(&summary).is_empty());
    assert_eq!(summary["hookCounts"]["fresh"], 8, "{summary}");
    assert_eq!(read_tree(camino::Utf8Path::from_path(&ws.output).unwrap()), reference);
}

#[test]
fn a_different_compiler_build_is_named_as_the_reason() {
    let ws = workspace("showcase");
    build(&ws);
    // Rewrite what the build saved as if an older agent-bundle had made it (entries are checksummed).
    for kind in ["state", "fingerprint"] {
        let dir = ws.cache.join("v1").join(kind);
        let entry = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
        let text = std::fs::read_to_string(&entry).unwrap();
        let (_, body) = text.split_once('\n').unwrap();
        let mut state: serde_json::Value = serde_json::from_str(body).unwrap();
        state["generator"] = "agent-bundle 0.0.1 (older)".into();
        let body = state.to_string();
        std::fs::write(&entry, format!("{}\n{body}", agent_bundle::vocabulary::digest::sha256_hex(body.as_bytes())))
            .unwrap();
    }
    let summary = build(&ws);
    let verdicts = hook_verdicts(&summary);
    assert!(
        verdicts.iter().all(|v| v.contains("compiler version changed (agent-bundle 0.0.1 (older) → agent-bundle")),
        "{verdicts:#?}"
    );
    assert!(written(&summary).is_empty(), "the same bytes: nothing to write");
}

#[test]
fn an_edited_package_rebuilds_only_the_hooks_that_import_it_and_explain_names_it() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("bundle");
    let package = root.join("node_modules/tiny-format");
    std::fs::create_dir_all(&package).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        package.join("package.json"),
        r#"{ "name": "tiny-format", "version": "1.2.0", "main": "index.js" }"#,
    )
    .unwrap();
    std::fs::write(package.join("index.js"), "exports.shout = (s) => s.toUpperCase();\n").unwrap();
    std::fs::write(
        root.join("agent-bundle.config.ts"),
        "export default { hooks: { stop: ['./src/uses.ts', './src/plain.ts'] }, plugin: { name: 'pkg-edit', description: 'd', version: '1.0.0', author: 'a' } };\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/uses.ts"),
        "import { shout } from 'tiny-format';\nexport default () => void shout('x');\n",
    )
    .unwrap();
    std::fs::write(root.join("src/plain.ts"), "export default () => undefined;\n").unwrap();
    let ws = Workspace { bundle: root, output: temp.path().join("out"), cache: temp.path().join("cache"), _temp: temp };
    build(&ws);

    std::fs::write(package.join("index.js"), "exports.shout = (s) => `${s.toUpperCase()}!`;\n").unwrap();
    let summary = build(&ws);
    // Both handlers are bundled again, in one build; only the one that imports the package changes.
    assert_eq!(summary["bundles"]["bundled"], 2, "{summary}");
    assert_eq!(
        written(&summary),
        ["agent-bundle.manifest.json", "hooks/handlers/src/uses.mjs", "hooks/handlers/src/uses.mjs.map"]
    );
    let verdicts = hook_verdicts(&summary);
    assert!(verdicts.iter().any(|v| v.starts_with("fresh stop-plain-")), "{verdicts:#?}");
    assert!(
        verdicts
            .iter()
            .any(|v| v.starts_with("rebuilt stop-uses-") && v.ends_with("npm package changed: tiny-format@1.2.0")),
        "{verdicts:#?}"
    );
}

/// The cache forgets the build state of an output that no longer exists, the next time any build
/// writes to it.
#[test]
fn state_of_a_deleted_output_is_evicted_by_a_later_build() {
    let ws = workspace("showcase");
    build(&ws);
    let states = |cache: &Path| -> usize { std::fs::read_dir(cache.join("v1/state")).map(|d| d.count()).unwrap_or(0) };
    assert_eq!(states(&ws.cache), 1);
    std::fs::remove_dir_all(&ws.output).unwrap();
    let elsewhere = Workspace { output: ws.output.with_file_name("other-out"), ..workspace("showcase") };
    let elsewhere = Workspace { cache: ws.cache.clone(), ..elsewhere };
    build(&elsewhere);
    assert_eq!(states(&ws.cache), 1, "the deleted output's state is gone, the new one's kept");
    assert!(!ws.cache.join("v1/fingerprint").read_dir().unwrap().any(|e| {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        text.contains(&format!("\"{}\"", ws.output.display()))
    }));
}

/// Builds without `--json` and returns (success, stdout, stderr).
fn build_text(ws: &Workspace) -> (bool, String, String) {
    let output = build_command(ws).output().unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (output.status.success(), text(output.stdout), text(output.stderr))
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

/// Part 6 of the layout work: what no build wrote is never deleted without a word. A file, a
/// symlink and an empty folder put into the artifact by hand survive a rebuild that changes the
/// artifact, are reported (AB5004, `--explain`), and are not claimed by the new manifest; a file the
/// previous build wrote and this one does not is still removed.
#[test]
fn files_put_into_the_artifact_by_hand_are_kept_and_reported_and_old_outputs_still_go() {
    let ws = workspace("showcase");
    build(&ws);
    std::fs::write(ws.output.join("NOTES.md"), "my notes\n").unwrap();
    std::fs::create_dir_all(ws.output.join("hooks/local")).unwrap();
    std::fs::write(ws.output.join("hooks/local/run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::create_dir_all(ws.output.join("empty")).unwrap();
    std::os::unix::fs::symlink("NOTES.md", ws.output.join("notes-link")).unwrap();

    let config = ws.bundle.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap().replace("timeout: 30", "timeout: 45");
    std::fs::write(&config, text).unwrap();
    let summary = build(&ws);
    let untracked = strings(&summary["untracked"]);
    assert_eq!(untracked, ["NOTES.md", "empty/", "hooks/local/run.sh", "notes-link"], "{summary}");
    let removed = strings(&summary["removed"]);
    assert_eq!(removed.len(), 3, "the old hook's wrappers still go: {summary}");
    assert!(!ws.output.join(&removed[0]).exists());
    let warning = summary["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "AB5004");
    let warning = warning.unwrap_or_else(|| panic!("no AB5004 in {summary}"));
    assert_eq!(warning["severity"], "warning");
    for path in &untracked {
        assert!(warning["message"].as_str().unwrap().contains(&format!("`{path}`")), "{warning}");
    }
    let verdicts = summary["explain"]["files"].as_array().unwrap();
    let listed: Vec<&str> =
        verdicts.iter().filter(|f| f["action"] == "untracked").map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(listed, untracked.iter().map(String::as_str).collect::<Vec<_>>());

    assert_eq!(std::fs::read_to_string(ws.output.join("NOTES.md")).unwrap(), "my notes\n");
    assert_eq!(std::fs::read_to_string(ws.output.join("hooks/local/run.sh")).unwrap(), "#!/bin/sh\n");
    assert!(ws.output.join("empty").is_dir());
    assert_eq!(std::fs::read_link(ws.output.join("notes-link")).unwrap(), Path::new("NOTES.md"));
    let manifest = agent_bundle::artifact::read_verified(
        camino::Utf8Path::from_path(&ws.output).unwrap(),
        &agent_bundle::io::RealDisk,
    )
    .unwrap();
    assert!(
        manifest.files.iter().all(|f| !untracked.contains(&f.path) && f.path != "empty"),
        "the manifest claims a hand-put file"
    );

    // Another file, added to an artifact whose bundle did not change: still kept, and said.
    std::fs::write(ws.output.join("TODO"), "later\n").unwrap();
    let (ok, stdout, stderr) = build_text(&ws);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("warning[AB5004]") && stderr.contains("`TODO`"), "{stderr}");
    assert!(stdout.contains("5 not agent-bundle's left in place"), "{stdout}");
    assert!(ws.output.join("TODO").is_file() && ws.output.join("NOTES.md").is_file());
}

/// A hand-put file where the build now needs a folder (a payload named like it) or writes other
/// bytes is refused (AB5005) and nothing is touched; the same bytes are simply taken over.
#[test]
fn a_hand_put_file_in_the_way_of_the_build_is_refused_and_nothing_is_written() {
    let ws = workspace("showcase");
    build(&ws);
    std::fs::create_dir_all(ws.bundle.join("docs")).unwrap();
    std::fs::write(ws.bundle.join("docs/guide.md"), "the guide\n").unwrap();
    let config = ws.bundle.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("  targets: [", "  payload: { docs: './docs' },\n  targets: [");
    std::fs::write(&config, text).unwrap();

    std::fs::write(ws.output.join("docs"), "a file, not a folder\n").unwrap();
    let before = read_tree(camino::Utf8Path::from_path(&ws.output).unwrap());
    let (ok, _, stderr) = build_text(&ws);
    assert!(!ok);
    assert!(
        stderr.contains("error[AB5005]") && stderr.contains("needs a folder there for `docs/guide.md`"),
        "{stderr}"
    );
    assert_eq!(read_tree(camino::Utf8Path::from_path(&ws.output).unwrap()), before, "a refused build wrote");

    std::fs::remove_file(ws.output.join("docs")).unwrap();
    std::fs::create_dir_all(ws.output.join("docs")).unwrap();
    std::fs::write(ws.output.join("docs/guide.md"), "my own guide\n").unwrap();
    let (ok, _, stderr) = build_text(&ws);
    assert!(!ok);
    assert!(stderr.contains("error[AB5005]") && stderr.contains("the build writes `docs/guide.md` itself"), "{stderr}");
    assert_eq!(std::fs::read_to_string(ws.output.join("docs/guide.md")).unwrap(), "my own guide\n");

    std::fs::write(ws.output.join("docs/guide.md"), "the guide\n").unwrap();
    let summary = build(&ws);
    assert!(strings(&summary["untracked"]).is_empty(), "{summary}");
    assert!(summary["diagnostics"].as_array().unwrap().iter().all(|d| d["code"] != "AB5004"), "{summary}");
    let manifest = agent_bundle::artifact::read_verified(
        camino::Utf8Path::from_path(&ws.output).unwrap(),
        &agent_bundle::io::RealDisk,
    )
    .unwrap();
    assert!(manifest.files.iter().any(|f| f.path == "docs/guide.md"), "the payload's file is the build's now");
}
