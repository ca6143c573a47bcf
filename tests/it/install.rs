//! `install`, `uninstall` and `doctor` (issue 26, items 1–3) through the real binary, for the host
//! whose install is a folder (Gemini CLI's extensions), with its own HOME and data folder. The hosts
//! that register through their own command line (Claude Code, Codex, Copilot CLI) are installed,
//! doctored and uninstalled by their real programs in the real-host suite (tests/host_e2e); here a
//! program that fails stands in only to prove the rollback.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{Random, build_bundle, cli};

struct Home {
    _temp: tempfile::TempDir,
    home: PathBuf,
    artifact: PathBuf,
    _built: tempfile::TempDir,
}

/// canonical-tools (built for all five hosts) and an empty home.
fn setup() -> Home {
    let (built, artifact) = build_bundle("canonical-tools");
    home_for(built, artifact)
}

/// A built artifact and an empty home.
fn home_for(built: tempfile::TempDir, artifact: camino::Utf8PathBuf) -> Home {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    Home { _temp: temp, home, artifact: artifact.into_std_path_buf(), _built: built }
}

fn run(home: &Home, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = cli();
    command.env("HOME", &home.home).env("PATH", "/nonexistent").current_dir(&home.home);
    command.env_remove("AGENT_BUNDLE_HOME");
    for (k, v) in env {
        command.env(k, v);
    }
    command.arg("agent-bundle").args(args).arg("--artifact").arg(&home.artifact).output().unwrap()
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// Every file under `dir` with its bytes (links as their targets).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .map(|e| {
            let relative = e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let bytes = if e.path_is_symlink() {
                std::fs::read_link(e.path()).unwrap().to_string_lossy().into_owned().into_bytes()
            } else {
                std::fs::read(e.path()).unwrap()
            };
            (relative, bytes)
        })
        .collect()
}

fn extension(home: &Home) -> PathBuf {
    home.home.join(".gemini/extensions/canonical-tools")
}

fn receipt(home: &Home) -> PathBuf {
    home.home.join(".local/share/agent-bundle/installs/canonical-tools.receipt.json")
}

#[test]
fn install_places_the_extension_records_a_receipt_and_a_second_run_does_nothing() {
    let home = setup();
    // --plan says what it would do and changes nothing.
    let planned = run(&home, &["install", "--host", "gemini", "--plan"], &[]);
    assert!(planned.status.success(), "{}", text(&planned));
    assert!(text(&planned).contains("Would install canonical-tools (user scope):"), "{}", text(&planned));
    assert!(text(&planned).contains(".gemini/extensions/canonical-tools for gemini"), "{}", text(&planned));
    assert_eq!(tree(&home.home), BTreeMap::new(), "--plan wrote something");

    let installed = run(&home, &["install", "--host", "gemini"], &[]);
    assert!(installed.status.success(), "{}", text(&installed));
    // The extension is the artifact's gemini/ folder, byte for byte.
    assert_eq!(tree(&extension(&home)), tree(&home.artifact.join("gemini")));
    let receipt_json: serde_json::Value = serde_json::from_slice(&std::fs::read(receipt(&home)).unwrap()).unwrap();
    let owned: Vec<&str> =
        receipt_json["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(owned.len(), tree(&extension(&home)).len(), "{receipt_json}");
    assert_eq!(receipt_json["hosts"][0]["host"], "gemini");
    assert_eq!(receipt_json["scope"], "user");

    let before = tree(&home.home);
    let again = run(&home, &["install", "--host", "gemini"], &[]);
    assert!(again.status.success(), "{}", text(&again));
    assert!(
        text(&again).contains("installed from this artifact already (user scope): nothing to do"),
        "{}",
        text(&again)
    );
    assert_eq!(tree(&home.home), before);

    let doctor = run(&home, &["doctor"], &[]);
    assert!(doctor.status.success(), "{}", text(&doctor));
    assert!(text(&doctor).contains("gemini:\n    placed      yes\n    registered  yes\n"), "{}", text(&doctor));
}

#[test]
fn install_never_overwrites_what_it_does_not_own() {
    let home = setup();
    common::write_file(&extension(&home), "gemini-extension.json", "{\"name\":\"someone-elses\"}");
    let before = tree(&home.home);
    let refused = run(&home, &["install", "--host", "gemini"], &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(
        text(&refused).contains("error[AB5203]") && text(&refused).contains("gemini-extension.json` exists"),
        "{}",
        text(&refused)
    );
    assert_eq!(tree(&home.home), before, "nothing changes");
}

#[test]
fn a_host_that_cannot_be_installed_for_is_refused_with_the_reason() {
    let home = setup();
    let cursor = run(&home, &["install", "--host", "cursor"], &[]);
    assert!(
        text(&cursor).contains("error[AB5202]") && text(&cursor).contains("does not install for cursor"),
        "{}",
        text(&cursor)
    );
    let claude = run(&home, &["install", "--host", "claude"], &[]);
    assert!(
        text(&claude).contains("`claude` (claude) is not on PATH")
            && text(&claude).contains("AGENT_BUNDLE_CLAUDE_PROGRAM"),
        "{}",
        text(&claude)
    );
    let project = run(&home, &["install", "--host", "gemini", "--scope", "project"], &[]);
    assert!(text(&project).contains("gemini has no `project` scope"), "{}", text(&project));
    // Without --host: every host that can be installed for here, the others said.
    let all = run(&home, &["install", "--plan"], &[]);
    assert!(all.status.success(), "{}", text(&all));
    assert!(
        text(&all).contains("Not for claude: `claude` is not on PATH") && text(&all).contains("Not for cursor: "),
        "{}",
        text(&all)
    );
    assert_eq!(tree(&home.home), BTreeMap::new());
}

#[test]
fn uninstall_removes_exactly_what_the_receipt_owns_whatever_was_added_around_it() {
    // A property over generated edits: files put into the installed folders (at any depth, beside
    // or inside what install placed) are all that remain after uninstall, whatever they are.
    for seed in 0..6 {
        let home = setup();
        assert!(run(&home, &["install", "--host", "gemini"], &[]).status.success());
        let placed: Vec<String> = tree(&extension(&home)).into_keys().collect();
        let mut random = Random::seeded(seed);
        let mut added = BTreeMap::new();
        for n in 0..(1 + random.below(5)) {
            let base = Path::new(&placed[random.below(placed.len())]).parent().unwrap().to_path_buf();
            let deeper = if random.chance(50) { base.join(format!("mine-{n}")) } else { base };
            let path = deeper.join(format!("notes-{seed}-{n}.txt"));
            let relative = path.to_string_lossy().into_owned();
            common::write_file(&extension(&home), &relative, "kept");
            added.insert(relative, b"kept".to_vec());
        }
        let uninstalled = run(&home, &["uninstall"], &[]);
        assert!(uninstalled.status.success(), "seed {seed}: {}", text(&uninstalled));
        assert_eq!(tree(&extension(&home)), added, "seed {seed}");
        assert!(!receipt(&home).exists(), "seed {seed}");
    }
    // Nothing left to uninstall: its own error.
    let home = setup();
    let missing = run(&home, &["uninstall"], &[]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing).contains("error[AB5206]") && text(&missing).contains("`canonical-tools` has no install receipt"),
        "{}",
        text(&missing)
    );
    let named = run(&home, &["uninstall", "canonical-tools", "--plan"], &[]);
    assert!(text(&named).contains("error[AB5206]"));
}

#[test]
fn doctor_says_when_an_install_is_stale_or_its_files_changed() {
    let home = setup();
    assert!(run(&home, &["install", "--host", "gemini"], &[]).status.success());
    std::fs::write(extension(&home).join("gemini-extension.json"), "{}").unwrap();
    let changed = run(&home, &["doctor"], &[]);
    assert_eq!(changed.status.code(), Some(1), "{}", text(&changed));
    assert!(text(&changed).contains("placed      NO (1 of"), "{}", text(&changed));
    // The artifact rebuilt with another manifest: the install is stale.
    let manifest = home.artifact.join("agent-bundle.manifest.json");
    let mut bytes = std::fs::read(&manifest).unwrap();
    bytes.push(b'\n');
    std::fs::write(&manifest, bytes).unwrap();
    let stale = run(&home, &["doctor", "canonical-tools", "--json"], &[]);
    let report: serde_json::Value = serde_json::from_slice(&stale.stdout).unwrap();
    assert!(
        report["stale"].as_str().is_some_and(|s| s.contains("no longer verifies") || s.contains("rebuilt")),
        "{report}"
    );
    let receipt_bytes = std::fs::read(receipt(&home)).unwrap();
    std::fs::write(receipt(&home), b"{ not json").unwrap();
    let broken = run(&home, &["doctor", "canonical-tools"], &[]);
    assert!(text(&broken).contains("error[AB5207]"), "{}", text(&broken));
    std::fs::write(receipt(&home), receipt_bytes).unwrap();
}

#[test]
fn a_host_command_that_fails_leaves_nothing_installed_and_undoes_what_ran() {
    let home = setup();
    // A stand-in for `claude` that records its arguments and refuses `plugin install`.
    let program = home.home.join("../fake-claude");
    let log = home.home.join("../calls.log");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\necho \"$*\" >> {}\ncase \"$2\" in install) echo 'no such plugin' >&2; exit 1;; esac\nexit 0\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&program, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let failed = run(
        &home,
        &["install", "--host", "claude", "--host", "gemini"],
        &[("AGENT_BUNDLE_CLAUDE_PROGRAM", program.to_str().unwrap())],
    );
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed));
    assert!(text(&failed).contains("error[AB5204]") && text(&failed).contains("no such plugin"), "{}", text(&failed));
    assert!(text(&failed).contains("the plugin is not installed now"), "{}", text(&failed));
    let calls = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 3, "{calls:?}");
    assert!(
        calls[0].starts_with("plugin marketplace add ")
            && calls[1].starts_with("plugin install canonical-tools@agent-bundle-canonical-tools"),
        "{calls:?}"
    );
    assert_eq!(
        calls[2], "plugin marketplace remove agent-bundle-canonical-tools",
        "the registration that ran is undone"
    );
    assert_eq!(tree(&home.home), BTreeMap::new(), "no file is left");
}

#[test]
fn what_is_not_a_built_artifact_or_cannot_be_written_is_refused_naming_it() {
    let home = setup();
    let mut command = cli();
    command.env("HOME", &home.home).current_dir(&home.home);
    let missing = command.args(["agent-bundle", "install", "--artifact", "no-such-folder"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing).contains("error[AB5201]") && text(&missing).contains("no-such-folder"),
        "{}",
        text(&missing)
    );
    // `.gemini` is a link to nowhere: nothing of another's is there, and no folder can be made.
    std::os::unix::fs::symlink(home.home.join("nowhere"), home.home.join(".gemini")).unwrap();
    let unwritable = run(&home, &["install", "--host", "gemini"], &[]);
    assert_eq!(unwritable.status.code(), Some(1), "{}", text(&unwritable));
    assert!(
        text(&unwritable).contains("error[AB5205]") && text(&unwritable).contains(".gemini/extensions/canonical-tools"),
        "{}",
        text(&unwritable)
    );
    assert!(!receipt(&home).exists());
}

/// `doctor` names an installed hook document a host could not run on Windows (D17): one built by an
/// agent-bundle that wrote POSIX-only commands (here, the extension's document put back the way
/// main wrote it before), and, for Qwen Code, whose command names the root unquoted, a home whose
/// path holds a space.
#[test]
fn doctor_names_hooks_a_host_could_not_run_on_windows() {
    let home = setup();
    assert!(run(&home, &["install", "--host", "gemini"], &[]).status.success());
    let healthy = run(&home, &["doctor"], &[]);
    assert!(healthy.status.success(), "{}", text(&healthy));
    assert!(text(&healthy).contains("    on Windows  yes\n"), "{}", text(&healthy));

    let document = extension(&home).join("hooks/hooks.json");
    let written = std::fs::read_to_string(&document).unwrap();
    let old = written.replace(".gemini.mjs\\\"\"", ".gemini.mjs\\\" 3>&1 1>&2\"");
    assert_ne!(old, written, "the document holds no command to put back: {written}");
    std::fs::write(&document, old).unwrap();
    let doctored = run(&home, &["doctor"], &[]);
    assert_eq!(doctored.status.code(), Some(1), "{}", text(&doctored));
    let said = text(&doctored);
    assert!(said.contains("on Windows  NO (on Windows "), "{said}");
    assert!(said.contains("`1>&2` (in PowerShell, a parse error"), "{said}");

    // Qwen Code hands cmd.exe the command with its quotes escaped, so the root is unquoted there.
    let spaced = tempfile::tempdir().unwrap();
    let spaced_home = spaced.path().join("John Smith");
    std::fs::create_dir_all(&spaced_home).unwrap();
    let home = Home { home: spaced_home, ..home };
    assert!(run(&home, &["install", "--host", "qwen"], &[]).status.success());
    let doctored = run(&home, &["doctor"], &[]);
    assert_eq!(doctored.status.code(), Some(1), "{}", text(&doctored));
    assert!(text(&doctored).contains("holds a space"), "{}", text(&doctored));
}

/// OpenCode loads only the modules directly in its config folder's `plugins/`: install places the
/// artifact's `opencode/` folder there and, beside it, a module re-exporting its entry (which node
/// loads to the same plugin function); `$XDG_CONFIG_HOME` moves it; `--scope project` places both in
/// the project's `.opencode/plugins/`; uninstall removes both.
#[test]
fn opencode_gets_its_folder_and_the_module_it_loads_beside_it() {
    common::require_node();
    // The guards example, built for every host OpenCode included.
    let (built, artifact) = build_bundle("guards");
    let home = home_for(built, artifact);
    let installed = run(&home, &["install", "--host", "opencode"], &[]);
    assert!(installed.status.success(), "{}", text(&installed));
    let plugins = home.home.join(".config/opencode/plugins");
    assert_eq!(tree(&plugins.join("guards")), tree(&home.artifact.join("opencode")));
    let entry = plugins.join("guards.js");
    let loaded = std::process::Command::new("node")
        .arg("--input-type=module")
        .arg("-e")
        .arg("const m = await import(process.argv[1]); console.log(Object.keys(m).join(','), typeof m.AgentBundle);")
        .arg(&entry)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&loaded.stdout).trim(),
        "AgentBundle function",
        "{}",
        String::from_utf8_lossy(&loaded.stderr)
    );
    let removed = run(&home, &["uninstall"], &[]);
    assert!(removed.status.success(), "{}", text(&removed));
    assert!(!entry.exists() && !plugins.join("guards").exists(), "{:?}", tree(&home.home));

    // $XDG_CONFIG_HOME is where OpenCode reads its config from, when set.
    let xdg = home.home.join("xdg");
    let installed = run(&home, &["install", "--host", "opencode"], &[("XDG_CONFIG_HOME", xdg.to_str().unwrap())]);
    assert!(installed.status.success(), "{}", text(&installed));
    assert!(xdg.join("opencode/plugins/guards.js").is_file(), "{:?}", tree(&home.home));
    assert!(run(&home, &["uninstall"], &[]).status.success());

    // The project's own `.opencode/plugins/`.
    let project = home.home.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let installed = run(
        &home,
        &["install", "--host", "opencode", "--scope", "project", "--project", project.to_str().unwrap()],
        &[],
    );
    assert!(installed.status.success(), "{}", text(&installed));
    assert!(project.join(".opencode/plugins/guards.js").is_file(), "{:?}", tree(&project));
    assert_eq!(tree(&project.join(".opencode/plugins/guards")), tree(&home.artifact.join("opencode")));
}

/// Kilo CLI runs OpenCode's plugin: the artifact's `opencode/` folder, placed where Kilo loads
/// plugins (`~/.config/kilo/plugins/`, a project's `.kilo/plugins/`), with the module beside it; an
/// artifact built for OpenCode alone installs for Kilo too, one built for Kilo names both hosts.
#[test]
fn kilo_gets_opencodes_folder_in_its_own_plugins_folder() {
    common::require_node();
    // The deny-shell scenario, built for every host Kilo CLI included.
    let (built, artifact) = common::build_root(camino::Utf8Path::new("testdata/e2e/deny-shell"));
    let manifest = agent_bundle::artifact::read_verified(&artifact, &agent_bundle::io::RealDisk).unwrap();
    let kilo = &manifest.hosts[&agent_bundle::vocabulary::target::Target::Kilo];
    assert_eq!(kilo.document, "opencode/hooks.json", "Kilo's plugin is OpenCode's");
    assert!(kilo.revision.starts_with("kilo-"), "with Kilo's own table: {}", kilo.revision);
    let home = home_for(built, artifact);
    let installed = run(&home, &["install", "--host", "kilo"], &[]);
    assert!(installed.status.success(), "{}", text(&installed));
    let plugins = home.home.join(".config/kilo/plugins");
    assert_eq!(tree(&plugins.join("e2e-deny-shell")), tree(&home.artifact.join("opencode")));
    let entry = std::fs::read_to_string(plugins.join("e2e-deny-shell.js")).unwrap();
    assert!(entry.contains("export { AgentBundle } from './e2e-deny-shell/plugin.mjs';"), "{entry}");
    assert!(!home.home.join(".config/opencode").exists(), "OpenCode's folder is not Kilo's");
    assert!(run(&home, &["uninstall"], &[]).status.success());
    assert!(!plugins.join("e2e-deny-shell").exists(), "{:?}", tree(&home.home));

    // The project's `.kilo/plugins/` (Kilo does not load `.opencode/`).
    let project = home.home.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let args = ["install", "--host", "kilo", "--scope", "project", "--project", project.to_str().unwrap()];
    let installed = run(&home, &args, &[]);
    assert!(installed.status.success(), "{}", text(&installed));
    assert!(project.join(".kilo/plugins/e2e-deny-shell.js").is_file(), "{:?}", tree(&project));
    assert!(!project.join(".opencode").exists());
    let removed = run(&home, &["uninstall", "--scope", "project", "--project", project.to_str().unwrap()], &[]);
    assert!(removed.status.success(), "{}", text(&removed));
    assert!(!project.join(".kilo/plugins/e2e-deny-shell.js").exists(), "{:?}", tree(&project));

    // Built for OpenCode alone (no `kilo` in `targets`), the same folder installs for Kilo.
    let (built, artifact) = common::build_root(camino::Utf8Path::new("testdata/e2e/continue-shell"));
    let manifest = agent_bundle::artifact::read_verified(&artifact, &agent_bundle::io::RealDisk).unwrap();
    assert!(!manifest.hosts.contains_key(&agent_bundle::vocabulary::target::Target::Kilo));
    let home = home_for(built, artifact);
    let installed = run(&home, &["install", "--host", "kilo"], &[]);
    assert!(installed.status.success(), "{}", text(&installed));
    assert!(home.home.join(".config/kilo/plugins/e2e-continue-shell.js").is_file(), "{:?}", tree(&home.home));
}

/// Cline CLI runs the files named after its hooks in a hooks folder, which every plugin shares: each
/// plugin's folder goes in `agent-bundle/<plugin>/` there, and the hook files beside it run every
/// plugin's hooks. A second plugin shares them; uninstall removes a hook file only when no plugin
/// left takes its event; a file of the user's own of that name is never overwritten.
#[test]
fn cline_plugins_share_the_hook_files_of_its_hooks_folder() {
    common::require_node();
    let (built, deny) = common::build_root(camino::Utf8Path::new("testdata/e2e/deny-shell"));
    let home = home_for(built, deny);
    let (_after_built, after) = common::build_root(camino::Utf8Path::new("testdata/e2e/after-context"));
    let (_guards_built, guards) = build_bundle("guards");
    let with = |artifact: &Path, args: &[&str]| {
        let mut command = cli();
        command.env("HOME", &home.home).env("PATH", "/nonexistent").current_dir(&home.home);
        command.env_remove("AGENT_BUNDLE_HOME").env_remove("CLINE_DIR");
        let output = command.arg("agent-bundle").args(args).arg("--artifact").arg(artifact).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", text(&output));
    };
    let hooks = home.home.join(".cline/hooks");
    let listed = || {
        let mut names: Vec<String> =
            std::fs::read_dir(&hooks).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    };
    with(&home.artifact, &["install", "--host", "cline"]);
    assert_eq!(listed(), ["PreToolUse.mjs", "agent-bundle"]);
    assert_eq!(tree(&hooks.join("agent-bundle/e2e-deny-shell")), tree(&home.artifact.join("cline")));
    let hook_file = std::fs::read(hooks.join("PreToolUse.mjs")).unwrap();
    assert_eq!(hook_file, std::fs::read(home.artifact.join("cline/PreToolUse.mjs")).unwrap());
    with(after.as_std_path(), &["install", "--host", "cline"]);
    with(guards.as_std_path(), &["install", "--host", "cline"]);
    assert_eq!(listed(), ["PostToolUse.mjs", "PreToolUse.mjs", "agent-bundle"]);

    // One process for the event runs every plugin's hooks: the first denial cancels the call.
    let answer = |file: &str, payload: &str| {
        let mut child = std::process::Command::new("node")
            .arg(hooks.join(file))
            .current_dir(&home.home)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let bytes = std::fs::read(format!("testdata/envelopes/cline/{payload}")).unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), &bytes).unwrap();
        drop(child.stdin.take());
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let denied = answer("PreToolUse.mjs", "PreToolUse.run_commands.json");
    assert!(denied.starts_with(r#"{"cancel":true,"errorMessage":"E2E_DENY_REASON"#), "{denied}");
    let context = answer("PostToolUse.mjs", "PostToolUse.run_commands.json");
    assert!(context.contains(r#""contextModification":"E2E_AFTER_MARKER"#), "{context}");

    // Uninstalling the deny plugin keeps PreToolUse.mjs: the guards take that event too.
    with(&home.artifact, &["uninstall"]);
    assert_eq!(listed(), ["PostToolUse.mjs", "PreToolUse.mjs", "agent-bundle"]);
    assert!(!hooks.join("agent-bundle/e2e-deny-shell").exists());
    assert_eq!(answer("PreToolUse.mjs", "PreToolUse.run_commands.json"), "", "the guards let `echo pass` run");
    with(guards.as_std_path(), &["uninstall"]);
    assert_eq!(listed(), ["PostToolUse.mjs", "agent-bundle"], "no plugin left takes PreToolUse");
    with(after.as_std_path(), &["uninstall"]);
    assert!(tree(&hooks).is_empty() && !hooks.join("agent-bundle").exists(), "{:?}", tree(&home.home));

    // A hook file of the user's own is never overwritten; nothing is placed.
    std::fs::write(hooks.join("PreToolUse.mjs"), "console.log('{}');\n").unwrap();
    let mut command = cli();
    command.env("HOME", &home.home).env("PATH", "/nonexistent").current_dir(&home.home).env_remove("CLINE_DIR");
    let refused = command
        .args(["agent-bundle", "install", "--host", "cline", "--artifact"])
        .arg(&home.artifact)
        .output()
        .unwrap();
    assert!(!refused.status.success(), "{}", text(&refused));
    assert!(text(&refused).contains("PreToolUse.mjs"), "{}", text(&refused));
    assert_eq!(std::fs::read_to_string(hooks.join("PreToolUse.mjs")).unwrap(), "console.log('{}');\n");
    assert!(!hooks.join("agent-bundle").exists());

    // The project's `.clinerules/hooks/`.
    std::fs::remove_file(hooks.join("PreToolUse.mjs")).unwrap();
    let project = home.home.join("project");
    std::fs::create_dir_all(&project).unwrap();
    with(&home.artifact, &["install", "--host", "cline", "--scope", "project", "--project", project.to_str().unwrap()]);
    let project_hooks = project.join(".clinerules/hooks");
    assert!(project_hooks.join("PreToolUse.mjs").is_file(), "{:?}", tree(&project));
    assert!(project_hooks.join("agent-bundle/e2e-deny-shell/plugin.mjs").is_file(), "{:?}", tree(&project));
    with(&home.artifact, &["uninstall", "--scope", "project", "--project", project.to_str().unwrap()]);
    assert!(tree(&project).is_empty(), "{:?}", tree(&project));
}
